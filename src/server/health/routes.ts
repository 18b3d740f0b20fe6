import type { FastifyInstance } from 'fastify';
import { healthSchema, notReadySchema, readySchema } from '../../shared/apiSchemas';
import { sql } from '../db/client';
import { pendingMigrations } from '../db/migrations';
import { errorAnswer, routeDoc } from '../openapi/routeDoc';

const TAGS = ['Running it'];

/** A readiness check slower than this counts as a database that does not answer. */
export const READY_TIMEOUT_MS = 2_000;

/** Why an instance is not ready, or null when it is. */
async function notReadyBecause(app: FastifyInstance): Promise<string | null> {
  if (app.draining) return 'The server is shutting down.';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    const check = (async () => {
      await app.database.db.execute(sql`SELECT 1`);
      return pendingMigrations(app.database.db);
    })();
    // The check may still fail after the timeout won: nobody waits for it then.
    check.catch(() => {});
    const pending = await Promise.race([check, timeout]);
    if (pending === 'timeout') return `The database did not answer within ${READY_TIMEOUT_MS / 1000} s.`;
    if (pending.length > 0) {
      return `The database lacks ${pending.length} migration${pending.length > 1 ? 's' : ''} (${pending.map((m) => m.tag).join(', ')}).`;
    }
    return null;
  } catch {
    return 'The database does not answer.';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /api/health`: the process lives (and its database answers); `GET /api/health/ready`: this
 * instance should get traffic, for load balancers and rolling restarts: 200 only while the database
 * answers with every committed migration applied and the server is not shutting down, else 503
 * with the reason.
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Liveness',
        description: 'Answers while the process lives and its database answers.',
        tags: TAGS,
        answers: {
          200: { description: 'Alive.', schema: healthSchema },
          503: errorAnswer('The database does not answer.'),
        },
      }),
    },
    async () => {
      await app.database.db.execute(sql`SELECT 1`);
      return { ok: true };
    },
  );
  app.get(
    '/api/health/ready',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Readiness',
        description:
          'For load balancers and rolling restarts: 200 only while the database answers with every migration applied and the server is not shutting down, else 503 with the reason. Never cached.',
        tags: TAGS,
        answers: {
          200: { description: 'Ready for traffic.', schema: readySchema },
          503: { description: 'Not ready, and why.', schema: notReadySchema },
        },
      }),
    },
    async (_request, reply) => {
      const problem = await notReadyBecause(app);
      // Never cached: a balancer's probe must see the instance as it is now.
      reply.header('Cache-Control', 'no-store');
      if (problem === null) return { ready: true };
      return reply.status(503).send({ ready: false, message: problem });
    },
  );
}
