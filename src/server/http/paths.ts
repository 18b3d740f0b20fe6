import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { idSchema } from '../../shared/schemas';
import { HttpError } from './errors';

/**
 * A URL's path as a lenient server could read it: percent-decoding undone (repeatedly, so '%2561'
 * counts as 'a'), backslashes as slashes, dot segments resolved, runs of slashes collapsed, lower case,
 * no query. Only for deciding what kind of path a request is aimed at (the API or the pages): the
 * router itself decodes once and is case-sensitive, so anything that reads '/api/…' here may be
 * meant for the API and must never get the app's page.
 */
export function normalizedPath(url: string): string {
  let value = url.split('?')[0] ?? '';
  for (let round = 0; round < 3 && value.includes('%'); round++) {
    try {
      const decoded = decodeURIComponent(value);
      if (decoded === value) break;
      value = decoded;
    } catch {
      break;
    }
  }
  return path.posix.normalize(`/${value.replaceAll('\\', '/')}`).toLowerCase();
}

/**
 * The pattern of the route the router matched ('/api/items/:id'): what the router decoded and
 * matched, whatever the raw URL looked like ('/%61pi/items/1'). Null for an unknown route and for one
 * only a wildcard matched (the client's files), whose URL is then judged by {@link normalizedPath}.
 */
export function matchedRoute(request: FastifyRequest): string | null {
  const pattern = request.is404 ? undefined : request.routeOptions.url;
  return pattern && !pattern.includes('*') ? pattern : null;
}

export const isApiPath = (p: string): boolean => p === '/api' || p.startsWith('/api/');
export const isSanctumPath = (p: string): boolean => p === '/sanctum' || p.startsWith('/sanctum/');

/** The numeric id in the path, or a 404 that says why (ids like `abc` name nothing). */
export function pathId(request: FastifyRequest, what = 'Item'): number {
  const raw = (request.params as { id?: string }).id;
  const parsed = idSchema.safeParse(raw);
  if (!parsed.success)
    throw new HttpError(404, `${what} not found: '${String(raw).slice(0, 40)}' is not an id.`);
  return parsed.data;
}
