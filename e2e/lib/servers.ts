import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../scripts/lib/freePort';
import { bin, repoRoot } from '../../scripts/lib/paths';

/** A server process of the spec's own (the harness's shared one cannot be stopped mid-spec). */
export interface OwnServer {
  url: string;
  port: number;
  /** Stops the process (SIGTERM, so the embedded database closes cleanly). */
  stop(): Promise<void>;
  /** Starts it again on the same port and database, as after a crash or a deploy. */
  start(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server at ${url} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server at ${url} did not answer /api/health within ${timeoutMs / 1000} s`);
}

/**
 * `tsx src/server/index.ts` on a free port with the embedded database in `dataDir`, or on PostgreSQL
 * at `databaseUrl`. Resolves once /api/health answers.
 */
export async function startOwnServer(options: {
  dataDir?: string;
  databaseUrl?: string;
  /** Another copy of the built client to serve (a spec that deploys a new version edits its copy). */
  clientDir?: string;
}): Promise<OwnServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  if (options.clientDir) env.CLIENT_DIR = options.clientDir;
  let child: ChildProcess | null = null;

  const start = async () => {
    const next = spawn(bin('tsx'), ['src/server/index.ts'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child = next;
    await waitHealthy(url, next, 60_000);
  };
  const stop = async () => {
    const current = child;
    child = null;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once('exit', () => resolve());
      current.kill('SIGTERM');
      setTimeout(() => current.kill('SIGKILL'), 10_000).unref();
    });
  };
  await start();
  return { url, port, stop, start };
}

/** A fresh folder for an embedded database; the returned function removes it. */
export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-e2e-own-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A throwaway database on the PostgreSQL of TEST_DATABASE_URL; `drop` removes it (and its connections). */
export async function throwawayPostgres(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `outpost_e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
