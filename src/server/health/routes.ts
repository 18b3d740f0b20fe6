import type { FastifyInstance } from 'fastify';
import { healthSchema, notReadySchema, readySchema } from '../../shared/apiSchemas';
import { pendingMigrations } from '../db/migrations';
import { routeDoc } from '../openapi/routeDoc';
import { readinessCheckProblem } from './checks';
import { pingDatabase } from './store';

const TAGS = ['Running it'];

/** A readiness check slower than this counts as a database that does not answer. */
export const READY_TIMEOUT_MS = 2_000;

/** How long a file store's answer to its check stands: a balancer's probes do not each ask S3. */
export const FILES_CHECK_CACHE_MS = 5_000;
const fileChecks = new WeakMap<FastifyInstance, { at: number; problem: Promise<string | null> }>();

/** Why the file store cannot be used (its message names the setting), or null; asked once per window. */
function fileStoreProblem(app: FastifyInstance): Promise<string | null> {
  const cached = fileChecks.get(app);
  if (cached && Date.now() - cached.at < FILES_CHECK_CACHE_MS) return cached.problem;
  const problem = app.files.check().then(
    () => null,
    (error: unknown) => (error as Error).message,
  );
  fileChecks.set(app, { at: Date.now(), problem });
  return problem;
}

/** Why an instance is not ready, or null when it is. */
async function notReadyBecause(app: FastifyInstance): Promise<string | null> {
  if (app.draining) return 'The server is shutting down.';
  const files = fileStoreProblem(app);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    const check = (async () => {
      await pingDatabase(app.database.db);
      return pendingMigrations(app.database.db);
    })();
    // The check may still fail after the timeout won: nobody waits for it then.
    check.catch(() => {});
    const pending = await Promise.race([check, timeout]);
    if (pending === 'timeout') {
      const setting = app.database.kind === 'pg' ? 'DATABASE_URL' : 'DATA_DIR';
      return `${setting}: the database did not answer within ${READY_TIMEOUT_MS / 1000} s.`;
    }
    if (pending.length > 0) {
      return `The database lacks ${pending.length} migration${pending.length > 1 ? 's' : ''} (${pending.map((m) => m.tag).join(', ')}).`;
    }
    const problem = await Promise.race([files, timeout]);
    if (problem === 'timeout') {
      const setting = app.files.kind === 's3' ? 'S3_ENDPOINT' : 'DATA_DIR';
      return `${setting}: the file store did not answer within ${READY_TIMEOUT_MS / 1000} s.`;
    }
    // Then the services settings name (OIDC_ISSUER, SMTP_URL): checks.ts.
    return problem ?? (await readinessCheckProblem(app, READY_TIMEOUT_MS));
  } catch (error) {
    // The setting to look at, and the driver's error code (ECONNREFUSED, 28P01 a password, 3D000 no
    // such database): this answer is public, so never the message, which may name hosts and users.
    const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: unknown };
    const code =
      typeof cause.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(cause.code) ? ` (${cause.code})` : '';
    const setting = app.database.kind === 'pg' ? 'DATABASE_URL' : 'DATA_DIR';
    app.log.warn({ err: error }, 'readiness: the database does not answer');
    return `${setting}: the database does not answer${code}.`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /api/health`: the process lives (200 even while its database is down); `GET /api/health/ready`: this
 * instance should get traffic, for load balancers and rolling restarts: 200 only while the database
 * answers with every committed migration applied, the file store answers its check (cached
 * briefly) and the server is not shutting down, else 503 with the reason.
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Liveness',
        description:
          'Answers 200 while the process lives, whatever its database does: an orchestrator restarts a process whose liveness fails, and restarting it would not bring a database back (readiness says 503 then).',
        tags: TAGS,
        answers: { 200: { description: 'Alive.', schema: healthSchema } },
      }),
    },
    async () => ({ ok: true as const }),
  );
  app.get(
    '/api/health/ready',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Readiness',
        description:
          'For load balancers and rolling restarts: 200 only while the database answers with every migration applied, the file store answers, the OpenID provider and the SMTP server (when set) answer, and the server is not shutting down, else 503 with the reason, naming the setting to look at (DATABASE_URL, S3_BUCKET, OIDC_ISSUER, SMTP_URL…). Never cached.',
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
