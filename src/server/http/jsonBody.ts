import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** Deepest nesting of arrays and objects a JSON body may have; the API's bodies use two or three. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` nests arrays and objects deeper than `max`, counting brackets outside strings. One
 * pass, no allocation, and it stops at the first bracket too deep, so a 1 MB body nested 500,000
 * levels is refused in microseconds instead of being parsed (which takes hundreds of milliseconds of
 * CPU and then makes every walk over the result deep too). Malformed text is left to the parser.
 */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/**
 * Replaces the default application/json parser with one that first bounds the nesting depth, then
 * parses exactly as before (Fastify's own parser: 400 for malformed or empty JSON, `__proto__` and
 * `constructor.prototype` keys refused).
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      done(new HttpError(400, `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    parse(request, text, done);
  });
}
