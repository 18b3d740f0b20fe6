import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBlankTitle, isStorableText, unstorableTextMessage, unstorableTextProblem } from './text';

describe('isBlankTitle', () => {
  it.each([
    ['empty', ''],
    ['spaces', '   '],
    ['tabs and newlines', '\t\n\r '],
    ['no-break and ideographic spaces', '\u00a0\u3000\u2003'],
    ['zero-width space', '\u200b'],
    ['zero-width joiners', '\u200c\u200d'],
    ['word joiner', '\u2060'],
    ['byte order mark', '\ufeff'],
    ['soft hyphen', '\u00ad'],
    ['left-to-right and right-to-left marks', '\u200e\u200f'],
    ['bidirectional isolates', '\u2066\u2069'],
    ['Hangul filler', '\u3164'],
    ['variation selector', '\ufe0f'],
    ['tag characters', '\u{e0020}\u{e007f}'],
    ['Braille blank', '\u2800'],
    ['a mixture', ' \u200b\ufeff\u2060 \u200d '],
  ])('is blank for %s', (_, title) => {
    expect(isBlankTitle(title)).toBe(true);
  });

  it.each([
    ['a letter', 'a'],
    ['a letter among invisibles', '\u200ba\u200b'],
    ['an emoji', '🙂'],
    ['an emoji with its variation selector', '\u2764\ufe0f'],
    ['a dot', '.'],
    ['a digit', '0'],
    ['a combining accent on a letter', 'e\u0301'],
  ])('is not blank for %s', (_, title) => {
    expect(isBlankTitle(title)).toBe(false);
  });

  it('agrees with trim for ordinary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\n', 'é') }), (title) => {
        expect(isBlankTitle(title)).toBe(title.trim() === '');
      }),
    );
  });
});

describe('unstorable text', () => {
  it('finds a NUL anywhere', () => {
    for (const value of ['\u0000', 'a\u0000', '\u0000b', 'a\u0000b']) {
      expect(unstorableTextProblem(value)).toBe('nul');
      expect(isStorableText(value)).toBe(false);
    }
  });

  it('finds a lone high or low surrogate, and a pair in the wrong order', () => {
    for (const value of [
      '\ud800',
      'a\ud83d',
      '\ud83db',
      '\udc00',
      'a\ude42b',
      '\ude42\ud83d',
      '\ud83d\ud83d',
    ]) {
      expect(unstorableTextProblem(value), JSON.stringify(value)).toBe('surrogate');
    }
  });

  it('accepts every well-formed string, including astral characters', () => {
    for (const value of ['', 'plain', '🙂', 'a🙂b', '\u{10ffff}', '\ud83d\ude42', 'é\u200b\u0001']) {
      expect(unstorableTextProblem(value)).toBeNull();
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        expect(isStorableText(value)).toBe(!value.includes('\u0000'));
      }),
    );
  });

  it('agrees with String.prototype.isWellFormed on surrogates', () => {
    const wellFormed = (value: string) =>
      (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed?.call(value);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const expected = wellFormed(value);
        if (expected === undefined || value.includes('\u0000')) return;
        expect(isStorableText(value)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('names the field in its message', () => {
    expect(unstorableTextMessage('a\u0000', 'The title')).toBe('The title must not contain a NUL character.');
    expect(unstorableTextMessage('\ud800', 'The name')).toMatch(/^The name contains an invalid character/);
    expect(unstorableTextMessage('fine', 'The title')).toBeNull();
  });
});
