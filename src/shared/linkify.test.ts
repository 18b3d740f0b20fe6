import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('linkify: web addresses in a description become links (issue 50)', () => {
  it('makes http and https URLs links and leaves the words around them as text', () => {
    expect(linkify('Brief at https://example.com/a?b=1#c and http://x.org')).toEqual([
      { kind: 'text', text: 'Brief at ' },
      { kind: 'link', text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.org', href: 'http://x.org/' },
    ]);
  });

  it('leaves the sentence punctuation and an unopened bracket out of the link', () => {
    expect(linkify('See https://example.com/page.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/page', href: 'https://example.com/page' },
      { kind: 'text', text: '.' },
    ]);
    expect(linkify('(docs: https://example.com/x), and')).toEqual([
      { kind: 'text', text: '(docs: ' },
      { kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x' },
      { kind: 'text', text: '), and' },
    ]);
    expect(linkify('https://en.wikipedia.org/wiki/Fair_(disambiguation)')[0]).toMatchObject({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Fair_(disambiguation)',
    });
  });

  it('never links a javascript:, data: or schemeless address', () => {
    for (const text of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'www.example.com',
      'https://',
      'xhttps://evil',
    ]) {
      expect(linkify(text).filter((r) => r.kind === 'link')).toEqual([]);
    }
  });

  it('K28: ends a link where a bidi or zero-width character stands, in a description as in a comment', () => {
    expect(linkify('Pay at https://bank.example/pay\u202Egpj.exe today')).toEqual([
      { kind: 'text', text: 'Pay at ' },
      { kind: 'link', text: 'https://bank.example/pay', href: 'https://bank.example/pay' },
      { kind: 'text', text: '\u202Egpj.exe today' },
    ]);
    expect(linkify('https://a.example/x\u200Bhttps://b.example/y')).toEqual([
      { kind: 'link', text: 'https://a.example/x', href: 'https://a.example/x' },
      { kind: 'text', text: '\u200B' },
      { kind: 'link', text: 'https://b.example/y', href: 'https://b.example/y' },
    ]);
    // An invisible character inside the host leaves no link there at all, never one that hides it.
    expect(linkify('https://\u2066evil.example\u2069.good.example').filter((r) => r.kind === 'link')).toEqual(
      [],
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.webUrl(),
            fc.constantFrom('\u200B', '\u200E', '\u202A', '\u202E', '\u2066', '\uFEFF', ' '),
          ),
        ),
        (parts) => {
          const text = parts.join('');
          const runs = linkify(text);
          expect(runs.map((r) => r.text).join('')).toBe(text);
          for (const run of runs)
            if (run.kind === 'link')
              expect(run.text).not.toMatch(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps every character: the runs joined are the text, and every link opens http(s)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.webUrl(), fc.constantFrom(' ', '.', ')', '(', 'javascript:'))),
        (parts) => {
          const text = parts.join('');
          const runs = linkify(text);
          expect(runs.map((r) => r.text).join('')).toBe(text);
          for (const run of runs) if (run.kind === 'link') expect(run.href).toMatch(/^https?:\/\//);
        },
      ),
      { numRuns: 50 },
    );
  });
});
