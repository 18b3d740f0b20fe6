import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const childScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mailSinkChild.ts');

/** A counting SMTP server in its own process (bench/lib/mailSinkChild.ts), shaped like testkit's for benches. */
export interface MailSink {
  url(): string;
  /** Mails taken so far (only the count is kept). */
  received: { length: number };
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the counting mail server and waits for its port. */
export function startMailSink(): Promise<MailSink> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const received = { length: 0 };
  const waiters: { count: number; resolve: () => void }[] = [];
  return new Promise((resolve, reject) => {
    let buffer = '';
    let port: number | null = null;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (port === null) {
          port = (JSON.parse(line) as { port: number }).port;
          const bound = port;
          resolve({
            url: () => `smtp://outpost:secret@127.0.0.1:${bound}`,
            received,
            waitFor(count, timeoutMs = 30_000) {
              if (received.length >= count) return Promise.resolve();
              return new Promise((done, fail) => {
                const timer = setTimeout(
                  () => fail(new Error(`expected ${count} mails, got ${received.length}`)),
                  timeoutMs,
                );
                waiters.push({
                  count,
                  resolve: () => {
                    clearTimeout(timer);
                    done();
                  },
                });
              });
            },
            close: () =>
              new Promise<void>((closed) => {
                child.once('exit', () => closed());
                child.stdin.end();
                setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
              }),
          });
        } else if (line === 'mail') {
          received.length += 1;
          for (const waiter of waiters.filter((w) => received.length >= w.count)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      }
    });
    child.once('exit', (code) => {
      if (port === null) reject(new Error(`mail sink exited with ${code} before it was ready`));
    });
  });
}
