import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadyMessage } from './serveForBench';

const serveScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serveForBench.ts');

export interface BenchServer {
  ready: ReadyMessage;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** BENCH_NODE_ARGS: flags for a bench server's Node, e.g. "--cpu-prof --cpu-prof-dir=.tmp/prof". */
export function benchNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

/**
 * Starts bench/lib/serveForBench.ts in its own Node process (tsx as a loader, not the tsx CLI, so
 * there is no extra wrapper process) and waits for its ready line.
 */
export function startBenchServer(args: string[], timeoutMs = 120_000): Promise<BenchServer> {
  const nodeArgs = benchNodeArgs();
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', serveScript, ...args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: process.env,
    },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      // Closing stdin asks it to close the app and the database; SIGKILL if it hangs.
      child.stdin?.end();
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`bench server (${args.join(' ')}) did not start within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        const ready = JSON.parse(buffer.slice(0, newline)) as ReadyMessage;
        resolve({ ready, pid: child.pid, stop });
      } catch (error) {
        void stop();
        reject(error);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench server (${args.join(' ')}) exited with code ${code} before it was ready`));
    });
  });
}
