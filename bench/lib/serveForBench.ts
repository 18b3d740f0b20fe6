/**
 * A server for the benchmark, run as a child process so the load generator (autocannon, in the
 * parent) does not share its event loop. Usage:
 *
 *   node --import tsx bench/lib/serveForBench.ts hello
 *   node --import tsx bench/lib/serveForBench.ts outpost [postgres://… | pglite] [bare] [webhooks]
 *
 * `outpost` opens the database (PGlite in memory, or an already created PostgreSQL database),
 * seeds the benchmark data (not with `bare`: the caller seeded its own) and serves the real app. Either mode listens on a random loopback port
 * and prints one JSON line, `{"url": …, …}`, when ready. It exits when its stdin closes, so it
 * never outlives the parent, or on SIGTERM. BENCH_SERVER_LOG=1 logs the app's errors to stderr.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { type Database, openDatabase } from '../../src/server/db/client';
import { loadConfig } from '../../src/server/env';
import { seedBenchData } from './seed';

export interface ReadyMessage {
  url: string;
  kind?: 'pglite' | 'pg';
  userId?: number;
  taskIds?: number[];
  todoIds?: number[];
  total?: number;
}

async function main(): Promise<void> {
  const [mode, target, seeding, hooks] = process.argv.slice(2);
  let app: FastifyInstance;
  let database: Database | null = null;
  let ready: Omit<ReadyMessage, 'url'> = {};
  if (mode === 'hello') {
    // The ceiling: the same framework and HTTP stack with no work behind the route.
    app = Fastify({ logger: false });
    app.get('/', async () => ({ hello: 'world' }));
  } else if (mode === 'outpost') {
    database =
      !target || target === 'pglite'
        ? await openDatabase({ dataDir: 'memory://' })
        : await openDatabase({ url: target });
    // Every instance on one database would add its own 10,000 items for the bench user otherwise.
    const seeded = seeding === 'bare' ? null : await seedBenchData(database.db);
    // Errors only, and only on request (BENCH_SERVER_LOG=1): logging every request would be measured too.
    const logger = process.env.BENCH_SERVER_LOG === '1';
    // Rate limits off (0): one benchmark session sends thousands of writes a minute on purpose.
    // Given as environment text so this compiles whether or not the config has those fields yet.
    const config = loadConfig({
      LOG_LEVEL: 'error',
      SEED_SAMPLE_USERS: 'false',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      RATE_LIMIT_LOGINS_PER_MINUTE: '0',
      // `webhooks`: webhook URLs on loopback allowed, for a bench's local receiver (webhook-delivery).
      WEBHOOK_ALLOW_LOOPBACK: hooks === 'webhooks' ? 'true' : 'false',
    });
    app = await buildApp({ database, config: { ...config, clientDir: null }, logger });
    ready = {
      kind: database.kind,
      userId: seeded?.user.id,
      taskIds: seeded?.taskIds,
      todoIds: seeded?.todoIds,
      total: seeded?.total,
    };
  } else {
    throw new Error(`unknown mode ${mode}; use "hello" or "outpost [url|pglite]"`);
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url, ...ready } satisfies ReadyMessage)}\n`);

  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await app.close().catch(() => {});
    await database?.close().catch(() => {});
    process.exit(0);
  };
  process.stdin.on('end', close);
  process.stdin.on('close', close);
  process.stdin.resume();
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
