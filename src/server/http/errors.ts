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

/** A 422 in the spec's shape: `{message, errors: {field: [text]}}`. */
export function unprocessable(errors: Record<string, string[]>): HttpError {
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  const more = Object.values(errors).flat().length - 1;
  const message = more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
  return new HttpError(422, message, { errors });
}

/** Parses `value` with `schema`, or throws the 422 that names each bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw unprocessable(fieldErrors(result.error));
  return result.data;
}
