import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, fuzzyKeys, typoBudget, typoDistance } from './fuzzy';
import { searchKeyOf } from './search';

const key = (id: number, title: string, updated = '2030-01-01T00:00:00Z') =>
  searchKeyOf({ id, title, description: null, updated_at: updated });

describe('typo-tolerant search', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('launch', 'launch', 2)).toBe(0);
    expect(editDistance('lauch', 'launch', 2)).toBe(1);
    expect(editDistance('launchh', 'launch', 2)).toBe(1);
    expect(editDistance('lanuch', 'launch', 2)).toBe(1);
    expect(editDistance('lxunch', 'launch', 2)).toBe(1);
    expect(editDistance('garden', 'launch', 2)).toBe(3);
  });

  it('finds titles one typo away, and a word still being typed', () => {
    expect(typoDistance('garden launch', ['lauch'])).toBe(1);
    expect(typoDistance('gardening tools', ['gardn'])).toBe(1);
    expect(typoDistance('garden launch', ['garden', 'lanuch'])).toBe(1);
    expect(typoDistance('garden launch', ['fence'])).toBeNull();
  });

  it('lets short words match only as typed', () => {
    expect(typoBudget(3)).toBe(0);
    expect(typoDistance('buy car', ['cat'])).toBeNull();
    expect(fuzzyKeys([key(1, 'Buy car')], 'cat', 10)).toEqual([]);
  });

  it('ranks the closest first, then the newest', () => {
    const keys = [
      key(1, 'Garden launch', '2030-01-01T00:00:00Z'),
      key(2, 'Lunch with Ana', '2030-01-03T00:00:00Z'),
      key(3, 'Launch party', '2030-01-02T00:00:00Z'),
      undefined,
      key(4, 'Fence paint', '2030-01-04T00:00:00Z'),
    ];
    // 'Lunch' is two edits from 'lauch': too far for five letters.
    expect(fuzzyKeys(keys, 'lauch', 10).map((k) => k.id)).toEqual([3, 1]);
    expect(fuzzyKeys(keys, 'launhc', 1).map((k) => k.id)).toEqual([3]);
  });

  it('the distance is symmetric and never more than the longer length', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 8 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b, 20);
        expect(editDistance(b, a, 20)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d === 0).toBe(a === b);
      }),
    );
  });

  it('a bounded distance agrees with the full one up to its bound', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const full = editDistance(a, b, 20);
        expect(editDistance(a, b, max)).toBe(full <= max ? full : max + 1);
      }),
    );
  });

  it("a title word's distance is the closest of the word itself and each of its starts", () => {
    const letters = fc.constantFrom('a', 'b', 'c', 'd');
    fc.assert(
      fc.property(
        fc.string({ unit: letters, minLength: 4, maxLength: 9 }),
        fc.string({ unit: letters, minLength: 0, maxLength: 10 }),
        (word, rest) => {
          // Starting with the word's first letter, so the first-letter rule lets it be measured.
          const titleWord = word[0] + rest;
          const max = typoBudget(word.length);
          let expected = titleWord.includes(word) ? 0 : max + 1;
          for (let cut = 1; cut <= titleWord.length; cut++)
            expected = Math.min(expected, editDistance(word, titleWord.slice(0, cut), max));
          const found = typoDistance(titleWord, [word]);
          expect(found ?? max + 1).toBe(expected);
        },
      ),
    );
  });
});
