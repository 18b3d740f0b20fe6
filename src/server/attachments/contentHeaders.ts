/**
 * The HTTP details of handing a file's bytes out (SYNC.md A9): its Content-Disposition, its Range and
 * its ETag. Plain functions of header text, so the content route stays a list of decisions.
 */

/** What a `Range` header asks of a file of `size` bytes. */
export type RangeAsk =
  /** No range, or one the server answers with the whole file (several ranges, a unit it does not know, a malformed one). */
  | { kind: 'whole' }
  /** One range, both ends included, within the file. */
  | { kind: 'part'; start: number; end: number }
  /** A range that starts past the end: 416. */
  | { kind: 'unsatisfiable' };

/**
 * Reads a `Range` header (RFC 9110 §14.2) for a file of `size` bytes. One range is answered as
 * asked (`a-b`, `a-`, the last `-n` bytes), its end cut to the file's; several are answered with the
 * whole file, which the RFC allows, and so is anything that does not parse (a server ignores a Range
 * it does not understand).
 */
export function parseRange(header: string | undefined, size: number): RangeAsk {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}

/** The ETag of bytes with this sha256: the hash itself, quoted (a strong validator: the bytes never change). */
export const etagOf = (sha256: string, suffix = ''): string => `"${sha256}${suffix}"`;

/** Whether an `If-None-Match` (or `If-Range`) header names `etag`: `*`, or a list holding it, weak or strong. */
export function etagListMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Characters RFC 5987 lets stand in an extended value; every other byte of the UTF-8 is %-encoded. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/** A file name as an RFC 5987 `ext-value`: `UTF-8''` and the name's UTF-8 bytes, %-encoded. */
export function rfc5987(name: string): string {
  let out = "UTF-8''";
  for (const byte of new TextEncoder().encode(name)) {
    const char = String.fromCharCode(byte);
    out +=
      byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The plain `filename=` for clients that do not read `filename*`: printable ASCII only (every other
 * character, a quote and a backslash too, becomes `_`), so it can stand between quotes as it is.
 */
export function asciiFileName(name: string): string {
  const ascii = [...name].map((c) => (/^[\x20-\x7e]$/.test(c) && c !== '"' && c !== '\\' ? c : '_')).join('');
  return ascii.trim() === '' ? 'file' : ascii;
}

/**
 * The `Content-Disposition` of a file: `inline` (shown in place) or `attachment` (downloaded), its
 * name twice: as ASCII for old clients, and exactly, UTF-8, as `filename*` (RFC 6266, RFC 5987).
 */
export function contentDisposition(how: 'inline' | 'attachment', name: string): string {
  return `${how}; filename="${asciiFileName(name)}"; filename*=${rfc5987(name)}`;
}
