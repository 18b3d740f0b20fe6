import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterAst } from '../../../testkit/filterQueries';
import { parse } from './parse';
import { print } from './print';

describe('the printer', () => {
  it('prints every query so that it parses back to the same tree', () => {
    fc.assert(
      fc.property(filterAst(), (ast) => {
        const parsed = parse(print(ast));
        expect(parsed.ok ? parsed.ast : parsed.error).toEqual(ast);
      }),
      { numRuns: 500 },
    );
  });

  it('prints a parsed query the same way twice (one canonical spelling)', () => {
    fc.assert(
      fc.property(filterAst(), (ast) => {
        const once = print(ast);
        const parsed = parse(once);
        expect(parsed.ok && print(parsed.ast)).toBe(once);
      }),
      { numRuns: 200 },
    );
  });

  it('answers any text with a tree or an error at a column inside it, never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'binary' }), (text) => {
        const parsed = parse(text);
        if (!parsed.ok) {
          expect(parsed.error.column).toBeGreaterThanOrEqual(1);
          expect(parsed.error.column).toBeLessThanOrEqual(text.length + 1);
          expect(parsed.error.message).toBe(`Expected ${parsed.error.expected} at ${parsed.error.column}`);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
