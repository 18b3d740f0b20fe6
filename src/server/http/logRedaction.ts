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
 * `url` as the log may hold it (SYNC.md F8): the path alone, without its query string or fragment
 * (a token sent as `?access_token=`, a sign-in's `?code=`, the words of a search), and the
 * calendar-feed and invite tokens in the path replaced by `[redacted]`, also when the path was
 * percent-encoded; the rest of the path stays for debugging.
 */
export function redactSecretPaths(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  const plain = decoded(path);
  for (const { prefix, keep } of SECRET_PATHS) {
    const start = prefix.exec(plain);
    if (!start) continue;
    const [segment = '', ...after] = plain.slice(start[0].length).split('/');
    if (segment === '') return path;
    const suffix = keep?.exec(segment)?.[0] ?? '';
    return [`${start[0]}${REDACTED}${suffix}`, ...after].join('/');
  }
  return path;
}

/** Fastify's own request serialiser, with the URL redacted (its path only, secret segments hidden). */
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

/** Properties that hold a failed statement's bound values (drizzle's and PGlite's errors carry them). */
const BOUND_KEYS = new Set(['params', 'parameters', 'values', 'queryOptions']);
/**
 * Properties of a database error that may quote a value or a whole row: `detail` ('Key (phone)=(…)
 * already exists', 'Failing row contains (…)'), `where` and `internalQuery`.
 */
const QUOTING_KEYS = new Set(['detail', 'where', 'internalQuery']);
/** Shorter values are only taken out where quoted ("ab"): anywhere, they would shred the message. */
const SCRUB_ANYWHERE_MIN = 3;

/** A bound value as the texts a message could quote it by. */
function valueTexts(value: unknown, into: Set<string>, depth = 0): void {
  if (value === null || value === undefined || depth > 4) return;
  if (typeof value === 'string') into.add(value);
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    into.add(String(value));
  else if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) into.add(value.toISOString());
  } else if (Array.isArray(value)) {
    into.add(String(value));
    for (const inner of value) valueTexts(inner, into, depth + 1);
  } else if (typeof value === 'object') {
    try {
      into.add(JSON.stringify(value));
    } catch {
      // A value JSON cannot write is one no message quotes either.
    }
  }
}

/** Every value bound to a failed statement anywhere in `error`'s cause chain. */
function boundValues(error: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (error === null || typeof error !== 'object' || seen.has(error)) return into;
  seen.add(error);
  for (const key of BOUND_KEYS) {
    const bound = (error as Record<string, unknown>)[key];
    if (Array.isArray(bound)) for (const value of bound) valueTexts(value, into);
  }
  boundValues((error as { cause?: unknown }).cause, into, seen);
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner)) for (const e of inner) boundValues(e, into, seen);
  return into;
}

function scrub(text: string, values: Set<string>): string {
  let out = text;
  // Longest first, so a value inside a longer one does not leave the rest of the longer behind.
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
    if (value === '') continue;
    out =
      value.length >= SCRUB_ANYWHERE_MIN
        ? out.split(value).join(REDACTED)
        : out.split(`"${value}"`).join(`"${REDACTED}"`);
  }
  return out;
}

function redactedErrorWith(error: unknown, values: Set<string>, seen: Set<unknown>): unknown {
  if (!(error instanceof Error)) {
    return typeof error === 'string' ? scrub(error, values) : error;
  }
  if (seen.has(error)) return '[circular]';
  seen.add(error);
  // drizzle's 'Failed query: {sql}\nparams: {values}': the statement stays, its values go.
  const message = scrub(error.message.split('\nparams: ')[0] ?? '', values);
  const out: Record<string, unknown> = {
    // A bundled class's name may be one letter ('O'): its own name says more then.
    type: (error.constructor?.name?.length ?? 0) > 2 ? error.constructor.name : error.name,
    message,
    stack: scrub((error.stack ?? '').replace(error.message, message), values),
  };
  for (const [key, value] of Object.entries(error)) {
    if (BOUND_KEYS.has(key) || QUOTING_KEYS.has(key) || key === 'message' || key === 'stack') continue;
    if (key === 'cause' || key === 'errors') continue;
    if (typeof value === 'string') out[key] = scrub(value, values);
    else if (value === null || typeof value !== 'object') out[key] = value;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined) out.cause = redactedErrorWith(cause, values, seen);
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner)) out.errors = inner.map((e) => redactedErrorWith(e, values, seen));
  return out;
}

/**
 * The log's error serialiser (issue 62): an error as pino writes one (type, message, stack, its own
 * fields, its cause), except that no value bound to a failed statement ever appears. drizzle's
 * DrizzleQueryError writes them into its message ('params: …') and PGlite's errors carry them as
 * `params`; those go, as do a database error's `detail`, `where` and `internalQuery`, which may quote a
 * row, and every bound value a message or stack still quotes reads `[redacted]`. The statement's
 * text stays: its values are placeholders ($1, $2).
 */
export function redactedError(error: unknown): SerializedError {
  const values = boundValues(error);
  const out = redactedErrorWith(error, values, new Set());
  if (out !== null && typeof out === 'object') return out as SerializedError;
  return { type: typeof error, message: scrub(String(error), values), stack: '' };
}

/** An error as the log writes it (pino's shape). */
export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/**
 * pino's logMethod hook: an error logged on its own (`log.error(error)`) is written under `err`
 * (redactedError) with its redacted message as the line's `msg`, never pino's copy of the raw
 * message, which for a failed query lists its values.
 */
export function logErrorsRedacted(
  this: unknown,
  args: unknown[],
  method: (...args: unknown[]) => void,
): void {
  const [first, ...rest] = args;
  if (!(first instanceof Error)) {
    method.apply(this, args);
    return;
  }
  const message = typeof rest[0] === 'string' ? rest : [redactedError(first).message];
  method.apply(this, [{ err: first }, ...message]);
}
