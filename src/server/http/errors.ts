import type { z } from 'zod';
import { fieldErrors } from '../../shared/schemas';

/** An error that becomes an HTTP answer with a human `message` (and optional extra fields). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Item') => new HttpError(404, `${what} not found.`);

/** Most messages a 422 lists; the rest are only counted in its `message`. */
export const MAX_REPORTED_ERRORS = 20;

/**
 * A 422 in the spec's shape: `{message, errors: {field: [text]}}`. A body with thousands of unknown
 * fields would otherwise be answered with a list of every one, megabytes long; the first
 * MAX_REPORTED_ERRORS messages say what is wrong as well as all of them would.
 */
export function unprocessable(errors: Record<string, string[]>): HttpError {
  const reported: Record<string, string[]> = Object.create(null);
  let count = 0;
  let kept = 0;
  for (const [field, messages] of Object.entries(errors)) {
    count += messages.length;
    const room = MAX_REPORTED_ERRORS - kept;
    if (room <= 0) continue;
    reported[field] = messages.slice(0, room);
    kept += reported[field].length;
  }
  const first = Object.values(reported)[0]?.[0] ?? 'The given data was invalid.';
  const more = count - 1;
  const message = more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
  return new HttpError(422, message, { errors: reported });
}

/** Parses `value` with `schema`, or throws the 422 that names each bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw unprocessable(fieldErrors(result.error));
  return result.data;
}
