import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBySortKey } from './manualOrder';
import {
  keyBetween,
  keyForPlace,
  keysAfter,
  placeInList,
  type RandomBit,
  SORT_KEY_MAX_LENGTH,
  SORT_KEY_PATTERN,
} from './sortKey';

/** A seeded random bit (jitter is off in tests in the sense that every run draws the same bits). */
function seeded(seed: number): RandomBit {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 2 === 0;
  };
}

describe('sort keys', () => {
  it('puts a key strictly between its neighbours, at the start and at the end', () => {
    const random = seeded(7);
    const middle = keyBetween(null, null, random);
    const first = keyBetween(null, middle, random);
    const last = keyBetween(middle, null, random);
    expect(first < middle && middle < last).toBe(true);
    const inner = keyBetween(first, middle, random);
    expect(first < inner && inner < middle).toBe(true);
    for (const k of [middle, first, last, inner]) expect(k).toMatch(SORT_KEY_PATTERN);
    expect(() => keyBetween(middle, first, random)).toThrow(/not in order/);
  });

  it('gives two devices inserting between the same neighbours different keys', () => {
    const keys = new Set(Array.from({ length: 200 }, (_, i) => keyBetween('a0', 'a1', seeded(i + 1))));
    expect(keys.size).toBeGreaterThan(195);
  });

  it('keeps any program of inserts at random places sorted, distinct and valid (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 200 }), fc.integer({ min: 1 }), (places, seed) => {
        const random = seeded(seed);
        const keys: string[] = [];
        for (const place of places) {
          const at = keys.length === 0 ? 0 : place % (keys.length + 1);
          const key = keyForPlace(keys, at, random);
          keys.splice(at, 0, key);
        }
        for (let i = 1; i < keys.length; i++) expect(keys[i - 1]! < keys[i]!).toBe(true);
        for (const k of keys) expect(k).toMatch(SORT_KEY_PATTERN);
      }),
      { numRuns: 60 },
    );
  });

  it('steps over equal keys (a collision) so a place always has a key', () => {
    const random = seeded(3);
    const keys = ['a0', 'a0V', 'a0V', 'a1'];
    const key = keyForPlace(keys, 2, random);
    expect(key > 'a0V' && key < 'a1').toBe(true);
  });

  it('stays short: after 10,000 inserts at random places in one list, the longest key is under 40 characters', () => {
    const random = seeded(2026);
    const keys: string[] = [];
    let state = 12345;
    for (let n = 0; n < 10_000; n++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      const at = keys.length === 0 ? 0 : state % (keys.length + 1);
      keys.splice(at, 0, keyForPlace(keys, at, random));
    }
    const longest = Math.max(...keys.map((k) => k.length));
    expect(longest).toBeLessThan(40);
  });

  it('re-keys the list when inserting into the same gap again and again would pass the length cap', () => {
    const random = seeded(11);
    let keys: string[] = [];
    let rekeys = 0;
    for (let n = 0; n < 10_000; n++) {
      const at = Math.min(1, keys.length);
      const placed = placeInList(keys, at, random);
      if ('key' in placed) keys.splice(at, 0, placed.key);
      else {
        rekeys++;
        keys = placed.rekey;
      }
    }
    expect(keys).toHaveLength(10_000);
    for (let i = 1; i < keys.length; i++) expect(keys[i - 1]! < keys[i]!).toBe(true);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(SORT_KEY_MAX_LENGTH);
    // Rare: one re-key per few hundred inserts into the very same gap.
    expect(rekeys).toBeGreaterThan(0);
    expect(rekeys).toBeLessThan(100);
  });

  it('gives an import short keys in order, and orders ties by uuid the same everywhere', () => {
    const keys = keysAfter(null, 5);
    expect([...keys].sort()).toEqual(keys);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(3);
    const items = [
      { sort_key: 'a1', uuid: 'b' },
      { sort_key: 'a1', uuid: 'a' },
      { sort_key: 'a0', uuid: 'z' },
    ];
    expect([...items].sort(compareBySortKey).map((i) => i.uuid)).toEqual(['z', 'a', 'b']);
  });
});
