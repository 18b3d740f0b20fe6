import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** Deepest nesting of arrays and objects a JSON body may have; the API's bodies use two or three. */
export const MAX_JSON_DEPTH = 64;

/**
 * Most keys one JSON object may have, and most in the whole body. An item has under twenty fields
 * and a batch at most ITEM_BATCH_MAX items, so real bodies stay far below both.
 */
export const JSON_KEY_LIMITS = { perObject: 200, total: 10_000 } as const;

interface ShapeLimits {
  depth: number;
  perObject: number;
  total: number;
}

/**
 * What is wrong with the shape of `text` before it is parsed: arrays and objects nested deeper than
 * `depth`, or an object with more than `perObject` keys or more than `total` in all (keys counted as
 * colons outside strings, each key being followed by one). One pass over the characters that stops at
 * the first excess: a 1 MB body nested 500,000 levels, or a flat object of 60,000 unknown keys,
 * otherwise costs a second of CPU to parse and validate (and the latter a 422 of megabytes naming
 * every key). Malformed text is left to the parser.
 */
export function jsonShapeProblem(text: string, limits: ShapeLimits): 'depth' | 'keys' | null {
  // Keys so far in each open object; arrays push a slot too, so a close always pops its own.
  const open: number[] = [];
  let total = 0;
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
    else if (code === 0x7b || code === 0x5b) {
      if (open.push(0) > limits.depth) return 'depth';
    } else if (code === 0x7d || code === 0x5d) open.pop();
    else if (code === 0x3a) {
      total++;
      const keys = (open[open.length - 1] ?? 0) + 1;
      if (open.length > 0) open[open.length - 1] = keys;
      if (keys > limits.perObject || total > limits.total) return 'keys';
    }
  }
  return null;
}

/** Whether `text` nests arrays and objects deeper than `max` (jsonShapeProblem). */
export function jsonNestingExceeds(text: string, max: number): boolean {
  return jsonShapeProblem(text, { depth: max, perObject: Infinity, total: Infinity }) === 'depth';
}

/** Whether `text` has an object with more than `perObject` keys, or more than `total` in all (jsonShapeProblem). */
export function jsonKeysExceed(text: string, limits: { perObject: number; total: number }): boolean {
  return jsonShapeProblem(text, { depth: Infinity, ...limits }) === 'keys';
}

/**
 * Replaces the default application/json parser with one that first bounds the nesting depth and
 * the number of keys (one scan), then parses exactly as before (Fastify's own parser: 400 for malformed or empty JSON, `__proto__` and
 * `constructor.prototype` keys refused).
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const problem = jsonShapeProblem(text, { depth: MAX_JSON_DEPTH, ...JSON_KEY_LIMITS });
    if (problem === 'depth') {
      done(new HttpError(400, `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    if (problem === 'keys') {
      const { perObject, total } = JSON_KEY_LIMITS;
      done(
        new HttpError(
          400,
          `The JSON body has too many keys (at most ${perObject} in one object and ${total} in all).`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
