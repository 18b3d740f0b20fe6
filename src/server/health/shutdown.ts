import type { FastifyInstance } from 'fastify';

/**
 * How long a shutdown waits for in-flight requests before the process exits anyway: under the 10 s
 * that orchestrators (Kubernetes' default grace is 30 s, many balancers' drain 10 s) and ARCHITECTURE
 * §4 give a stopping instance, with room for the exit itself.
 */
export const SHUTDOWN_DEADLINE_MS = 8_000;

export interface ShutdownOptions {
  deadlineMs?: number;
  exit: (code: number) => void;
  log?: (message: string) => void;
}

/**
 * A graceful stop (SIGTERM, SIGINT): readiness answers 503 at once, the server stops accepting
 * connections, event streams end with a reconnect hint (events/routes.ts), requests in flight
 * finish, then the database closes and the process exits 0. Past the deadline it exits 1 whatever
 * is still running. A second call while one is under way does nothing.
 */
export function gracefulShutdown(app: FastifyInstance, options: ShutdownOptions): Promise<void> {
  if (app.draining) return Promise.resolve();
  app.draining = true;
  const deadline = options.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const started = Date.now();
  const forced = setTimeout(() => {
    options.log?.(`Shutdown took longer than ${deadline / 1000} s: exiting with work unfinished.`);
    options.exit(1);
  }, deadline);
  return app.close().then(
    () => {
      clearTimeout(forced);
      options.log?.(`Shut down cleanly in ${Date.now() - started} ms.`);
      options.exit(0);
    },
    (error: unknown) => {
      clearTimeout(forced);
      options.log?.(`Shutdown failed: ${(error as Error).message}`);
      options.exit(1);
    },
  );
}
