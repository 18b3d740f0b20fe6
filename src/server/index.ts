import { buildApp } from './app';
import { loadConfig } from './env';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

for (const warning of config.warnings) console.warn(warning);

const app = await buildApp({ config, logger: true });
const close = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGINT', close);
process.once('SIGTERM', close);
await app.listen({ port: config.port, host: config.host });
console.log(
  `Outpost is running on http://localhost:${config.port} (${app.database.kind === 'pg' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`,
);
