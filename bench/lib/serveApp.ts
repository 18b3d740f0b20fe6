/**
 * The real app in a child process for the fault benchmark, with no seed data and on a fixed port when
 * asked, so it can be killed and started again where clients expect it:
 *
 *   node --import tsx bench/lib/serveApp.ts (--url postgres://… | --data-dir <dir>) [--port <n>]
 *
 * Prints one JSON line `{"url": …}` when it listens. Exits when its stdin closes (so it never outlives
 * the parent) or on SIGTERM; the fault benchmark also kills it with SIGKILL on purpose.
 */
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { benchConfig } from './benchConfig';

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(): Promise<void> {
  const url = option('--url');
  const dataDir = option('--data-dir');
  const port = Number(option('--port') ?? 0);
  if (!url && !dataDir) throw new Error('pass --url postgres://… or --data-dir <dir>');
  const database = url ? await openDatabase({ url }) : await openDatabase({ dataDir: dataDir ?? '' });
  // Limits off: a benchmark session sends far more writes and sign-ins a minute than a person.
  const config = benchConfig();
  const app = await buildApp({
    database,
    config: { ...config, clientDir: null },
    logger: process.env.BENCH_SERVER_LOG === '1',
  });
  const address = await app.listen({ port, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url: address })}\n`);
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.stdin.on('end', close);
  process.stdin.on('close', close);
  process.stdin.resume();
  process.once('SIGTERM', close);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
