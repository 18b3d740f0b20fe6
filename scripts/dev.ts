import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'vite';
import { DEV_API_PORT } from '../vite.config';
import { bin, repoRoot } from './lib/paths';

// The API restarts on its own source changes; the client gets Vite's HMR and reaches the API through
// the proxy in vite.config.ts, so the browser sees one origin as in production.
const api = spawn(bin('tsx'), ['watch', '--clear-screen=false', 'src/server/index.ts'], {
  cwd: repoRoot,
  env: { ...process.env, PORT: String(DEV_API_PORT) },
  stdio: 'inherit',
});

const vite = await createServer({ configFile: `${repoRoot}/vite.config.ts`, root: repoRoot });
await vite.listen();

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  api.kill('SIGTERM');
  await vite.close();
  process.exit(code);
}

api.on('exit', (code) => {
  if (!stopping) console.error(`The API process exited (${code ?? 'signal'}); stopping the dev server.`);
  void stop(code ?? 1);
});
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

// The URLs are printed once the API answers (a fresh database migrates first), so the first page
// opened does not meet proxy errors.
const healthUrl = `http://127.0.0.1:${DEV_API_PORT}/api/health`;
for (let attempt = 0; attempt < 240 && !stopping; attempt++) {
  const healthy = await fetch(healthUrl).then(
    (response) => response.ok,
    () => false,
  );
  if (healthy) break;
  await sleep(250);
}
vite.printUrls();
console.log(`  ➜  API:     http://127.0.0.1:${DEV_API_PORT} (proxied at /api and /sanctum)`);
