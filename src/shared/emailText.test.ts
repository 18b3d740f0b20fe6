import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAIL_TEXT_READ_MAX, mailPlainText, titleFromSubject } from './emailText';
import { TITLE_MAX_LENGTH } from './item';

/** Lines a person writes: words, never a quote marker or a line any rule reads as history. */
const ownLine = fc
  .array(fc.constantFrom('buy', 'milk', 'the', 'gate', 'Tuesday', 'ok', '42', 'ünïcode', '🙂', 'note:'), {
    minLength: 1,
    maxLength: 8,
  })
  .map((words) => words.join(' '));
const ownText = fc.array(ownLine, { minLength: 1, maxLength: 6 }).map((lines) => lines.join('\n'));

/** A history block as some mail client quotes it below the reply. */
const history = fc.constantFrom(
  'On Mon, 3 Mar 2025 at 10:00, Ann <ann@example.com> wrote:\n> the old words\n> more',
  'On Mon, 3 Mar 2025 at 10:00, Ann Example\n<ann@example.com> wrote:\n\n> wrapped attribution',
  '-----Original Message-----\nFrom: Ann\nSent: Monday\nTo: Bob\nSubject: x\n\nold words',
  'From: Ann <ann@example.com>\nSent: Monday, March 3, 2025 10:00\nTo: Bob\nSubject: x\n\nold words',
  '________________________________\nFrom: Ann\nSent: Monday\nold',
  '-- \nAnn Example\nCEO, Example Ltd',
  'Am 03.03.2025 um 10:00 schrieb Ann <ann@example.com>:\n> alt',
);

describe('the plain text of a mail', () => {
  it('keeps what the person wrote and drops every kind of quoted history below it', () => {
    fc.assert(
      fc.property(ownText, history, fc.constantFrom('\n', '\r\n'), (own, quoted, eol) => {
        const mail = `${own}\n\n${quoted}\n`.replaceAll('\n', eol);
        expect(mailPlainText(mail)).toBe(own);
      }),
    );
  });

  it('drops lines quoted with ">" wherever they stand', () => {
    expect(mailPlainText('> quoted\nmine\n>> deeper\n  > indented\nstill mine')).toBe('mine\nstill mine');
  });

  it('is stable: the plain text of a plain text is itself, with no quoted line or control character left', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ maxLength: 200 }), (a, b) => {
        const once = mailPlainText(`${a}\n${b}`);
        expect(mailPlainText(once)).toBe(once);
        expect(once.split('\n').some((line) => line.trimStart().startsWith('>'))).toBe(false);
        expect(/[\0\r\v\f]/.test(once)).toBe(false);
        expect(once).toBe(once.trim() === '' ? '' : once.replace(/^\n+|\s+$/g, ''));
      }),
    );
  });

  it('reads only the start of a huge mail: what the person wrote comes first', () => {
    const text = mailPlainText(`mine\n${'> quoted\n'.repeat(2_000_000)}`);
    expect(text).toBe('mine');
    expect(mailPlainText('a'.repeat(MAIL_TEXT_READ_MAX + 10))).toHaveLength(MAIL_TEXT_READ_MAX);
  });

  it('collapses runs of blank lines to one and trims the ends', () => {
    expect(mailPlainText('\n\n  \nHello\n\n\n\nthere  \n\n')).toBe('Hello\n\nthere');
  });

  it('never keeps a NUL or a lone surrogate (text the database cannot store)', () => {
    expect(mailPlainText('a\0b\ud800c')).toBe('ab\ufffdc');
  });
});

describe('a title from a subject', () => {
  it('takes off reply and forward prefixes in several languages, however many', () => {
    expect(titleFromSubject('Re: Fwd: AW: WG: RE[2]: Fw:  The  gate')).toBe('The gate');
    expect(titleFromSubject('re:re:re:')).toBe('');
    expect(titleFromSubject('Regarding the roof')).toBe('Regarding the roof');
  });

  it('is one clean line: CR, LF, tabs and NUL never survive', () => {
    expect(titleFromSubject('Buy\r\nBcc: eve@example.com\0\tnow')).toBe('Buy Bcc: eve@example.com now');
  });

  it('is at most the title limit, trimmed, stable, and never starts with a reply prefix', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Re: ', 'FWD:', 'aw: ', ' ', '\r\n', '\0', 'x', 'Wort ', '🙂'), {
          maxLength: 200,
        }),
        fc.string({ maxLength: 400 }),
        (prefixes, rest) => {
          const title = titleFromSubject(prefixes.join('') + rest);
          expect(title.length).toBeLessThanOrEqual(TITLE_MAX_LENGTH);
          expect(title).toBe(title.trim());
          expect(titleFromSubject(title)).toBe(title);
          expect(/\p{Cc}/u.test(title)).toBe(false);
          expect(/^(re|fwd?|aw|wg)\s*:/i.test(title)).toBe(false);
          expect(/[\ud800-\udbff]$/.test(title)).toBe(false);
        },
      ),
    );
  });

  it('reads only the start of a huge subject, in one pass over its prefixes', () => {
    const started = performance.now();
    expect(titleFromSubject('Re: '.repeat(1_000_000))).toBe('');
    expect(titleFromSubject(`Fwd: ${'x'.repeat(5_000_000)}`)).toBe('x'.repeat(TITLE_MAX_LENGTH));
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('cuts a long subject at the limit without splitting an emoji', () => {
    const title = titleFromSubject(`${'a'.repeat(TITLE_MAX_LENGTH - 1)}🙂 and more`);
    expect(title).toBe('a'.repeat(TITLE_MAX_LENGTH - 1));
  });
});
