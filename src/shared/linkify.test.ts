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
