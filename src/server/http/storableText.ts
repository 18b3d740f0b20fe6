import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findUnstorableText, unstorableProblemMessage } from '../../shared/text';
import { type HttpError, unprocessable } from './errors';

/** The parts of a request a handler may read text from, and how a message names a field of each. */
const PARTS = [
  { part: 'params', field: 'The path parameter', whole: 'The path' },
  { part: 'query', field: 'The query parameter', whole: 'The query string' },
  { part: 'body', field: 'The field', whole: 'The body' },
] as const;

/**
 * The 422 for the first text in `request`'s path parameters, query string or body that PostgreSQL
 * cannot store (a NUL, a lone surrogate; shared/text.ts findUnstorableText), or null when there is
 * none. Headers need no check: Node's HTTP parser refuses a NUL in one (400), and a header's bytes
 * are Latin-1, so it holds no surrogate.
 */
export function unstorableInput(
  request: Pick<FastifyRequest, 'params' | 'query' | 'body'>,
): HttpError | null {
  for (const { part, field, whole } of PARTS) {
    const found = findUnstorableText(request[part]);
    if (found === null) continue;
    const named = found.path === '' ? whole : `${field} “${found.path}”`;
    const label = found.key ? `A field name in ${named.charAt(0).toLowerCase()}${named.slice(1)}` : named;
    const name = found.path === '' ? part : found.path;
    return unprocessable({ [name]: [unstorableProblemMessage(found.problem, label)] });
  }
  return null;
}

/**
 * The one door every text input passes before any SQL (issue 62): whatever a route's schema says, a
 * request carrying text that cannot be stored is answered 422 with a message naming the field, never
 * sent to the database (where it failed as a 503 and the failed query was logged). Runs before
 * validation and the handler, after the route's session and anti-forgery checks (onRequest).
 */
export function registerStorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const refused = unstorableInput(request);
    if (refused !== null) throw refused;
  });
}
