import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson, sameRecord } from './sameRecord';

/** JSON-like values as rows hold them: scalars, arrays, nested records. */
const json = fc.jsonValue();

/** The same value with every record's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

describe('sameJson and sameRecord', () => {
  it('a value is the same as itself, as its copy through JSON, and as itself with its keys in another order', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(sameJson(value, value)).toBe(true);
        expect(sameJson(value, JSON.parse(JSON.stringify(value)))).toBe(true);
        expect(sameJson(value, reordered(value))).toBe(true);
      }),
    );
  });

  it('agrees with comparing the values through JSON with sorted keys, both ways', () => {
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
            )
          : value;
    fc.assert(
      fc.property(json, json, (a, b) => {
        const same = JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
        expect(sameJson(a, b)).toBe(same);
        expect(sameJson(b, a)).toBe(same);
      }),
    );
  });

  it('takes a key holding undefined as absent, and tells a changed nested value', () => {
    expect(sameRecord({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameRecord({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameRecord({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameRecord({ user: { id: 1, name: 'Ada' } }, { user: { name: 'Ada', id: 1 } })).toBe(true);
    expect(sameRecord({ user: { id: 1, name: 'Ada' } }, { user: { id: 1, name: 'Ann' } })).toBe(false);
    expect(sameRecord({ labels: ['a', 'b'] }, { labels: ['b', 'a'] })).toBe(false);
  });

  it('compares every key but the skipped ones', () => {
    const skip = new Set(['_sk']);
    expect(sameRecord({ a: 1, _sk: 'x' }, { a: 1, _sk: 'y' }, skip)).toBe(true);
    expect(sameRecord({ a: 1, _sk: 'x' }, { a: 1 }, skip)).toBe(true);
    expect(sameRecord({ a: 1 }, { a: 2, _sk: 'y' }, skip)).toBe(false);
  });
});
