import { describe, expect, it } from 'vitest';
import {
  asciiFileName,
  contentDisposition,
  etagListMatches,
  etagOf,
  parseRange,
  rfc5987,
} from './contentHeaders';

describe('a Range header', () => {
  it('A9: one range is answered as asked, its end cut to the file’s', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ kind: 'part', start: 0, end: 0 });
    expect(parseRange('bytes=2-5', 10)).toEqual({ kind: 'part', start: 2, end: 5 });
    expect(parseRange('bytes=7-', 10)).toEqual({ kind: 'part', start: 7, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ kind: 'part', start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ kind: 'part', start: 0, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ kind: 'part', start: 8, end: 9 });
    expect(parseRange(' Bytes = 1 - 2 ', 10)).toEqual({ kind: 'part', start: 1, end: 2 });
  });

  it('A9: a range that starts past the end, or a suffix of nothing, is unsatisfiable (416)', () => {
    expect(parseRange('bytes=10-12', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('several ranges, another unit or a malformed one get the whole file', () => {
    for (const header of [
      undefined,
      'bytes=0-1,4-5',
      'items=0-1',
      'bytes=5-2',
      'bytes=-',
      'bytes=a-b',
      'bytes 0-1',
    ])
      expect(parseRange(header, 10), String(header)).toEqual({ kind: 'whole' });
  });
});

describe('an ETag and the headers that name one', () => {
  it('is the sha256, quoted, and If-None-Match matches it weak or strong, in a list, or as *', () => {
    const etag = etagOf('ab'.repeat(32));
    expect(etag).toBe(`"${'ab'.repeat(32)}"`);
    expect(etagListMatches(etag, etag)).toBe(true);
    expect(etagListMatches(`W/${etag}`, etag)).toBe(true);
    expect(etagListMatches(`"x", ${etag}`, etag)).toBe(true);
    expect(etagListMatches('*', etag)).toBe(true);
    expect(etagListMatches('"x"', etag)).toBe(false);
    expect(etagListMatches(undefined, etag)).toBe(false);
    expect(etagOf('ab', '-thumb')).toBe('"ab-thumb"');
  });
});

describe('a Content-Disposition', () => {
  it('names the file exactly as RFC 5987 UTF-8 and as ASCII for old clients', () => {
    expect(contentDisposition('inline', 'report.pdf')).toBe(
      `inline; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('attachment', 'Zoë ☃.txt')).toBe(
      `attachment; filename="Zo_ _.txt"; filename*=UTF-8''Zo%C3%AB%20%E2%98%83.txt`,
    );
  });

  it('never lets a quote, a backslash or a line break out of the quoted name', () => {
    expect(asciiFileName('a"b\\c\r\nd.txt')).toBe('a_b_c__d.txt');
    expect(asciiFileName('日本')).toBe('__');
    expect(asciiFileName('   ')).toBe('file');
    expect(rfc5987(`it's (1) *x*; "y"`)).toBe("UTF-8''it%27s%20%281%29%20%2Ax%2A%3B%20%22y%22");
    // Every character an attribute value may hold stands as it is.
    expect(rfc5987('aZ09!#$&+-.^_`|~')).toBe("UTF-8''aZ09!#$&+-.^_`|~");
  });
});
