import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import { errorAnswer, routeDoc } from '../openapi/routeDoc';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // Digests of equal length whatever was sent, so the comparison's time says nothing of the token.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * `GET /metrics` in Prometheus's text format, only with `METRICS_TOKEN` set and sent as a bearer
 * token. Without the setting, and with a missing or wrong token, it answers the 404 of a route that
 * does not exist: a scanner learns neither that metrics are on nor that its guess was close (a 401
 * would confirm the endpoint and invite guessing), the project's rule of 404 for what the caller
 * may not see.
 */
export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const metricsDoc = routeDoc({
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text format, only when METRICS_TOKEN is set and sent as `Authorization: Bearer`; otherwise the 404 of a route that does not exist.',
    tags: ['Running it'],
    answers: {
      200: { description: 'The metrics.', media: 'text/plain' },
      404: errorAnswer('Metrics are off, or the token is missing or wrong.'),
    },
  });
  app.get('/metrics', { config: { public: true }, schema: metricsDoc }, async (request, reply) => {
    const token = app.config.metricsToken;
    if (!token || !bearerMatches(request, token)) throw new HttpError(404, 'No route GET /metrics.');
    reply.header('Cache-Control', 'no-store');
    return reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics());
  });
}
