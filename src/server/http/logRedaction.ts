import type { FastifyRequest } from 'fastify';

/** What a secret path segment reads as in the log. */
export const REDACTED = '[redacted]';

// Paths whose segment after the prefix is a bearer secret: whoever reads the log could use it.
const SECRET_PATHS: readonly { prefix: RegExp; keep: RegExp | null }[] = [
  { prefix: /^\/cal\//i, keep: /\.ics$/i },
  { prefix: /^\/api\/invites\//i, keep: null },
  { prefix: /^\/invite\//i, keep: null },
];

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * `url` as the log may hold it (SYNC.md F8): the calendar-feed and invite tokens in its path are
 * replaced by `[redacted]`, also when the path was percent-encoded; the rest stays for debugging.
 */
export function redactSecretPaths(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  const rest = cut === -1 ? '' : url.slice(cut);
  const plain = decoded(path);
  for (const { prefix, keep } of SECRET_PATHS) {
    const start = prefix.exec(plain);
    if (!start) continue;
    const [segment = '', ...after] = plain.slice(start[0].length).split('/');
    if (segment === '') return url;
    const suffix = keep?.exec(segment)?.[0] ?? '';
    return [`${start[0]}${REDACTED}${suffix}`, ...after].join('/') + rest;
  }
  return url;
}

/** Fastify's own request serialiser, with the URL redacted. */
export function redactedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactSecretPaths(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}
