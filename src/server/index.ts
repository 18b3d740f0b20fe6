import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { loadConfig } from './env';
import { gracefulShutdown } from './health/shutdown';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

for (const warning of config.warnings) console.warn(warning);

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp({ config, logger: true });
} catch (error) {
  // A database it must not start on (newer, unreachable, a failed pre-upgrade backup): the reason, not a stack.
  console.error(`Outpost did not start: ${(error as Error).message}`);
  process.exit(1);
}
// Readiness goes 503, streams end with a reconnect hint, requests in flight finish (health/shutdown.ts).
const stop = (signal: string) => {
  app.log.info(`${signal}: shutting down`);
  void gracefulShutdown(app, { exit: (code) => process.exit(code), log: (line) => app.log.info(line) });
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
await app.listen({ port: config.port, host: config.host });
// The port actually bound: PORT=0 (tests, several instances on one machine) takes any free one.
const { port } = app.server.address() as AddressInfo;
console.log(
  `Outpost is running on http://localhost:${port} (${app.database.kind === 'pg' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`,
);
