import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findUnstorableText,
  isBlankText,
  isBlankTitle,
  isStorableText,
  linkableRuns,
  stripControlsLine,
  stripControlsMultiline,
  unstorableTextMessage,
  unstorableTextProblem,
} from './text';

/** Any string, with control characters, line breaks, invisible characters and astral ones well mixed in. */
const messyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      'a',
      'é',
      ' ',
      '\t',
      '\n',
      '\r',
      '\r\n',
      '\u0007',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009b',
    ),
    fc.constantFrom(
      '\u200b',
      '\u200d',
      '\u202e',
      '\u2066',
      '\u2069',
      '\u2060',
      '\ufeff',
      '\u2028',
      '🙂',
      '\ud83d\ude42',
    ),
    fc.string({ unit: 'binary', maxLength: 3 }),
  ),
});
const CONTROL = /\p{Cc}/u;

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

describe('K27: control characters', () => {
  it('a line loses every control character, a line break or tab becoming a space', () => {
    expect(stripControlsLine('Pay\u0007 rent\r\nnow\tplease\u001b[31m\u009b')).toBe(
      'Pay rent now please[31m',
    );
    expect(stripControlsLine('Plain title, é 🙂')).toBe('Plain title, é 🙂');
  });

  it('a text of many lines keeps its line breaks and tabs and loses the rest', () => {
    expect(stripControlsMultiline('a\r\nb\rc\n\td\u0007e\u001b[0m\u0085f')).toBe('a\nb\nc\n\tde[0m\nf');
  });

  it('stripping twice changes nothing, and leaves no control character (but \\n and \\t in many lines)', () => {
    fc.assert(
      fc.property(messyText, (value) => {
        const line = stripControlsLine(value);
        expect(stripControlsLine(line)).toBe(line);
        expect(CONTROL.test(line)).toBe(false);
        const lines = stripControlsMultiline(value);
        expect(stripControlsMultiline(lines)).toBe(lines);
        expect(CONTROL.test(lines.replace(/[\n\t]/g, ''))).toBe(false);
        expect(lines).not.toContain('\r');
      }),
      { numRuns: 500 },
    );
  });

  it('leaves text without control characters as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        fc.pre(!CONTROL.test(value) && !/[\u2028\u2029]/.test(value));
        expect(stripControlsLine(value)).toBe(value);
        expect(stripControlsMultiline(value)).toBe(value);
      }),
    );
  });

  it('a comment or label of invisible characters alone is blank, as a title is', () => {
    for (const value of ['\u200b\u200c', '\u202e\u202c', ' \u2066\u2069 ', '\u200e\u200f\ufeff']) {
      expect(isBlankText(value)).toBe(true);
    }
    expect(isBlankText('\u200bok')).toBe(false);
  });
});

describe('K28: where links may run', () => {
  it('cuts text at bidi overrides and zero-width characters, keeping every character', () => {
    expect(linkableRuns('see https://a.com/x\u202eexe.txt ok')).toEqual([
      'see https://a.com/x',
      '\u202e',
      'exe.txt ok',
    ]);
    expect(linkableRuns('https://ex\u200b\u200dample.com')).toEqual([
      'https://ex',
      '\u200b\u200d',
      'ample.com',
    ]);
    expect(linkableRuns('plain')).toEqual(['plain']);
  });

  it('any text: the runs join back to it, and only the odd runs hold invisible characters', () => {
    const INVISIBLE_FORMAT = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
    fc.assert(
      fc.property(messyText, (value) => {
        const runs = linkableRuns(value);
        expect(runs.join('')).toBe(value);
        runs.forEach((run, i) => {
          if (i % 2 === 0) expect(INVISIBLE_FORMAT.test(run)).toBe(false);
          else expect(run.length > 0 && [...run].every((c) => INVISIBLE_FORMAT.test(c))).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('findUnstorableText: the one rule every request part meets before SQL', () => {
  it('finds a NUL or a lone surrogate at any depth, by its path, and a bad key by its object', () => {
    expect(findUnstorableText({ name: 'ok', tags: ['a', 'b\u0000'] })).toEqual({
      path: 'tags.1',
      problem: 'nul',
      key: false,
    });
    expect(findUnstorableText({ response: { response: { transports: ['usb', '\ud800'] } } })).toEqual({
      path: 'response.response.transports.1',
      problem: 'surrogate',
      key: false,
    });
    expect(findUnstorableText({ outer: { 'a\u0000': 1 } })).toEqual({
      path: 'outer',
      problem: 'nul',
      key: true,
    });
    expect(findUnstorableText('\u0000')).toEqual({ path: '', problem: 'nul', key: false });
  });

  it('passes text that can be stored, real pairs and other controls included, and non-text values', () => {
    expect(findUnstorableText({ a: 'Whole 🙂\u0001\t', b: [1, true, null, { c: 'x' }] })).toBeNull();
    expect(findUnstorableText(undefined)).toBeNull();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const found = findUnstorableText(value);
        const text = JSON.stringify(value) ?? '';
        // JSON writes a NUL as \u0000 and a lone surrogate escaped: found exactly when one is in there.
        expect(found !== null).toBe(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(text));
      }),
      { numRuns: 200 },
    );
  });
});
