import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

let on = false;

/** Turns the check on for every app built from now on in this process (testkit/responseCheck.ts, in tests). */
export function checkEveryResponse(): void {
  on = true;
}

export const responseCheckOn = (): boolean => on;

/** An answer that does not say what its route documents. */
export interface ResponseMismatch {
  method: string;
  route: string;
  status: number;
  problem: string;
}

/**
 * Every mismatch seen in this process, until a test takes them (testkit/responseCheck.ts fails the
 * test that produced one, after it ends).
 */
export const responseMismatches: ResponseMismatch[] = [];

interface ContentEntry {
  content: Record<string, { schema: z.ZodType }>;
}

const isContentEntry = (value: unknown): value is ContentEntry =>
  typeof value === 'object' && value !== null && 'content' in value;

/** The documented schema of an answer of `status` and media type `media`, or why there is none. */
function documented(
  response: Record<string, unknown>,
  status: number,
  media: string,
): { schema: z.ZodType | null } | { problem: string } {
  const entry = response[status] ?? response[`${String(status)[0]}XX`] ?? response.default;
  if (entry === undefined) return { problem: `status ${status} is not documented` };
  if (entry instanceof z.ZodType) return { schema: entry._zod.def.type === 'undefined' ? null : entry };
  if (!isContentEntry(entry)) return { problem: `status ${status} has a schema this check cannot read` };
  // `*/*`: bytes of whatever type they are (a file's content), never checked as JSON.
  const found = entry.content[media] ?? entry.content['*/*'];
  if (!found) {
    return {
      problem: `status ${status} is documented as ${Object.keys(entry.content).join(', ')}, not ${media}`,
    };
  }
  return { schema: media === 'application/json' && entry.content[media] ? found.schema : null };
}

/**
 * In tests ({@link checkEveryResponse}), holds every answer of a documented route to what the route
 * documents: its status must be documented, a JSON answer must validate against its schema, an
 * answer documented as empty must be empty. A mismatch is recorded (and logged), never changes the
 * answer: the test that caused it fails when it ends, with the route and the problem.
 */
export function registerResponseCheck(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const response = documentedResponses(request);
    if (!response) return payload;
    const status = reply.statusCode;
    // A 304 carries no body by definition, whatever its route documents.
    if (status === 304 || request.method === 'HEAD') return payload;
    const media = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim();
    const record = (problem: string) => {
      const mismatch = {
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        status,
        problem,
      };
      responseMismatches.push(mismatch);
      request.log.error({ mismatch }, 'an answer does not match its documented schema');
    };
    const empty = payload === undefined || payload === null || payload === '';
    const found = documented(response, status, media || 'application/json');
    if ('problem' in found) {
      if (!(empty && status === 204)) record(found.problem);
      return payload;
    }
    if (found.schema === null) {
      if (!empty && media === '') record(`status ${status} is documented without a body but has one`);
      return payload;
    }
    if (typeof payload !== 'string') return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      record(`status ${status} is not JSON`);
      return payload;
    }
    const result = found.schema.safeParse(body);
    if (!result.success) {
      const issues = result.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
      record(`status ${status}: ${issues.join('; ')}`);
    }
    return payload;
  });
}

/** The response map a route declared, when it declared one. */
function documentedResponses(request: FastifyRequest): Record<string, unknown> | null {
  if (request.is404) return null;
  const schema = request.routeOptions.schema as
    | { response?: Record<string, unknown>; hide?: boolean }
    | undefined;
  if (!schema?.response || schema.hide) return null;
  return schema.response;
}
