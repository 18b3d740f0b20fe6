import type { FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';
import { errorSchema, validationErrorSchema } from '../../shared/apiSchemas';
import { parseOrThrow } from '../http/errors';

/**
 * How a route is documented (ARCHITECTURE §4 'The documented API'). A route declares
 *
 *   app.get('/things/:id', { schema: routeDoc({ summary, tags, params, querystring, body, answers }) }, handler)
 *
 * with the zod schemas of src/shared: the same objects it validates with, so the OpenAPI document
 * (generated from them by fastify-type-provider-zod, ./plugin.ts) cannot drift from what it accepts,
 * and `answers` with the schemas of src/shared/apiSchemas.ts, which tests hold every real answer to
 * (./responseCheck.ts). What every route shares is added for it from its config, never repeated:
 * security (cookie session, anti-forgery header on writes, bearer token), the 401, 419 and 429 of
 * the request hooks, and the `Idempotency-Key` header of writes (./plugin.ts `crossCutting`).
 * A route that is not documented fails src/server/openapi/openapi.test.ts.
 *
 * Validation. A `querystring` or `body` given here is validated before the handler runs, with the
 * 422 of parseOrThrow (the same `{message, errors}`, the same texts). Two kinds stay in the handler,
 * wrapped in {@link checkedInHandler} so the document still shows them:
 * - path parameters, always: an id that is not an id is a 404 that names it (items/routes.ts
 *   `pathId`), never a 422;
 * - a body or query that the handler reads only after a check that must answer first (the path's
 *   404, a rate limit that counts every attempt): validating it earlier would change that answer.
 */

/** One documented answer: a JSON body of `schema`, no body (no `schema`), or `media` of another type. */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  /**
   * The content type when it is not JSON (`text/calendar`, `text/event-stream`); `*\/*` for bytes of
   * whatever type they are (a file's content).
   */
  media?: string;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  tags: readonly string[];
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** The body's media types when it is not JSON (an upload's `multipart/form-data`). */
  consumes?: readonly string[];
  headers?: z.ZodType;
  /** The route's own answers, success and errors; any other error answer has the `Error` shape. */
  answers: Record<number, Answer>;
}

const JSON_MEDIA = 'application/json';

/**
 * A route's `schema`: the document's view of it, and what fastify validates. Its `querystring` and
 * `body` keep their zod types, so under `withTypeProvider<ZodTypeProvider>()` the handler's
 * `request.query` and `request.body` are the parsed values.
 */
export function routeDoc<const D extends RouteDoc>(
  doc: D,
): FastifySchema & Pick<D, Extract<keyof D, 'querystring' | 'body'>> {
  const response: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(doc.answers)) response[status] = responseEntry(answer);
  response.default = responseEntry({
    description: 'Any other error (see the Errors section of the description).',
    schema: errorSchema,
  });
  const schema: FastifySchema = {
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [...doc.tags],
    ...(doc.params ? { params: checkedInHandler(doc.params) } : {}),
    ...(doc.querystring ? { querystring: doc.querystring } : {}),
    ...(doc.body ? { body: doc.body } : {}),
    ...(doc.consumes ? { consumes: [...doc.consumes] } : {}),
    ...(doc.headers ? { headers: checkedInHandler(doc.headers) } : {}),
    response,
  };
  return schema as FastifySchema & Pick<D, Extract<keyof D, 'querystring' | 'body'>>;
}

function responseEntry(answer: Answer): unknown {
  if (!answer.schema && !answer.media) return z.undefined().describe(answer.description);
  return {
    description: answer.description,
    content: { [answer.media ?? JSON_MEDIA]: { schema: answer.schema ?? z.string() } },
  };
}

/** An error answer of the `Error` shape. */
export const errorAnswer = (description: string): Answer => ({ description, schema: errorSchema });

/** The 422 of bad input, `{message, errors}`. */
export const invalidAnswer = (
  description = 'The input is not valid: `errors` names each field.',
): Answer => ({
  description,
  schema: validationErrorSchema,
});

export const noContent = (description: string): Answer => ({ description });

const inHandler = new WeakSet<object>();

/**
 * The same schema, for the document only: the handler validates with the original at the point its
 * answers require (see the file's comment). A copy, so the original may be validated elsewhere.
 */
export function checkedInHandler(schema: z.ZodType): z.ZodType<unknown, unknown> {
  const copy = schema.clone();
  inHandler.add(copy);
  // Typed as unknown: the handler receives the value unparsed and parses it itself.
  return copy as z.ZodType<unknown, unknown>;
}

/**
 * Validates a route's `querystring` and `body` as the handlers did by hand (parseOrThrow): a missing
 * body reads as `{}`, and a failure is the 422 `{message, errors}` (an HttpError, which fastify passes
 * to the error handler with its status). Schemas kept for the handler pass through untouched.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  if (httpPart === 'params' || httpPart === 'headers' || inHandler.has(schema)) {
    return (data) => ({ value: data });
  }
  return (data) => {
    try {
      return { value: parseOrThrow(schema, data) };
    } catch (error) {
      return { error: error as Error };
    }
  };
};

/**
 * Answers are serialised as before any schema was declared: JSON.stringify of what the handler sent.
 * The declared answer schemas document and (in tests) check the answers; they never reshape one, so
 * declaring a schema cannot drop a field a client reads.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

/** Path parameters for the document; the handler reads them (items/routes.ts `pathId`: a bad id is a 404). */
export const idParams = (description: string) =>
  z.object({ id: z.number().int().min(1).describe(description) });
