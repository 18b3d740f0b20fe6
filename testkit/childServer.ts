import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `npm start`'s server entry (src/server/index.ts) running in its own Node process. */
export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its exit code (null when a signal ended it) and how long after `signal()` it came. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Starts src/server/index.ts with `env` (on top of a minimal environment: PORT=0 on loopback) and
 * resolves once it prints the address it listens on.
 */
export function startChildServer(env: Record<string, string>, timeoutMs = 90_000): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      AUTH_MODE: 'demo',
      CLIENT_DIR: path.join(root, '.tmp', 'no-client'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /Outpost is running on (http:\/\/localhost:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', read);
      child.stdout?.on('data', (more: Buffer) => {
        output += more.toString('utf8');
      });
      resolve({
        url: match[1]!.replace('localhost', '127.0.0.1'),
        child,
        output: () => output,
        exited,
        kill: (signal = 'SIGTERM') => child.kill(signal),
      });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code} before it listened:\n${output}`));
    });
  });
}

/**
 * A TCP relay in front of a database, to take it away and give it back: `down()` cuts every relayed
 * connection and refuses new ones (what clients see of a stopped server), `up()` relays again.
 */
export interface TcpRelay {
  port: number;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((incoming) => {
    if (!open) {
      incoming.destroy();
      return;
    }
    const outgoing = tcpConnect(target.port, target.host);
    sockets.add(incoming);
    sockets.add(outgoing);
    const drop = () => {
      incoming.destroy();
      outgoing.destroy();
      sockets.delete(incoming);
      sockets.delete(outgoing);
    };
    incoming.on('error', drop).on('close', drop);
    outgoing.on('error', drop).on('close', drop);
    incoming.pipe(outgoing);
    outgoing.pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    down() {
      open = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    up() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = false;
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A signed-in session against a server over HTTP: its Cookie and X-XSRF-TOKEN headers. */
export interface HttpSession {
  headers: Record<string, string>;
  userId: number;
}

/** Signs in over HTTP (demo mode) as a new user with `phone`, as the browser does. */
export async function signInOverHttp(url: string, phone: string, name = 'Ops Tester'): Promise<HttpSession> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  keep(await fetch(`${url}/sanctum/csrf-cookie`));
  const xsrf = () => decodeURIComponent(jar.get('XSRF-TOKEN') ?? '');
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookie(), 'x-xsrf-token': xsrf() },
    body: JSON.stringify({ phone, name }),
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  keep(login);
  const { user } = (await login.json()) as { user: { id: number } };
  return { headers: { cookie: cookie(), 'x-xsrf-token': xsrf() }, userId: user.id };
}
