/**
 * The real app (`tsx src/server/index.ts`, serving dist/client) as a child process on a free port
 * and a temporary DATA_DIR, for the browser benchmarks (bundle, lighthouse, home-10k): they measure
 * what a visitor gets from `npm start`, not a dev server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureClientBuild } from '../../scripts/lib/clientBuild';
import { freePort } from '../../scripts/lib/freePort';
import { repoRoot } from '../../scripts/lib/paths';
import { benchNodeArgs } from './child';

export interface AppServer {
  url: string;
  stop(): Promise<void>;
}

export interface AppServerOptions {
  /** A client folder to serve instead of dist/client (CLIENT_DIR); no app build is made then. */
  clientDir?: string;
  /** An existing (already seeded) PGlite data folder; removed on stop like the temporary one. */
  dataDir?: string;
  /** Extra environment, e.g. rate limits off. */
  env?: Record<string, string>;
}

export async function startAppServer(
  timeoutMs = 120_000,
  options: AppServerOptions = {},
): Promise<AppServer> {
  if (!options.clientDir) await ensureClientBuild();
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'outpost-bench-')));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [...benchNodeArgs(), '--import', 'tsx', path.join(repoRoot, 'src/server/index.ts')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'error',
        SEED_SAMPLE_USERS: 'false',
        ...(options.clientDir ? { CLIENT_DIR: options.clientDir } : {}),
        ...options.env,
      },
    },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      });
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the app did not start within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Outpost is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with code ${code} before it was ready`));
    });
  });
  return { url, stop };
}

/** localStorage as the onboarding store (zustand persist, src/client/stores/onboardingStore.ts) keeps it when done. */
export const ONBOARDED_STORAGE = {
  key: 'onboarding-storage',
  value: JSON.stringify({
    state: {
      hasCompletedOnboarding: true,
      currentStep: 0,
      skippedAt: '2026-01-01T00:00:00.000Z',
      completedAt: null,
    },
    version: 0,
  }),
};

/**
 * The real server over a fresh database seeded with the bench account, serving `clientDir` (a bench
 * page), with rate limits off: the browser benches' one set-up.
 */
export async function startSeededAppServer(clientDir: string, dataDir: string) {
  const { openDatabase } = await import('../../src/server/db/client');
  const { seedBenchData } = await import('./seed');
  const database = await openDatabase({ dataDir });
  await seedBenchData(database.db);
  await database.close();
  return startAppServer(120_000, {
    clientDir,
    dataDir,
    env: {
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      RATE_LIMIT_LOGINS_PER_MINUTE: '0',
      RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '0',
    },
  });
}
