import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signInOverHttp, startChildServer } from '../../../testkit/childServer';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { uniquePhone } from '../../../testkit/testClient';

/** An open GET /api/events: what it has received, and a promise of its end. */
function openStream(url: string, headers: Record<string, string>) {
  let received = '';
  let opened!: () => void;
  const connected = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const ended = new Promise<string>((resolve, reject) => {
    const request = http.get(`${url}/api/events`, { headers }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        received += chunk;
        if (received.includes(': connected')) opened();
      });
      response.on('end', () => resolve(received));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  return { connected, ended };
}

/** A POST whose body is sent in two halves, so it is in flight for as long as the caller waits. */
function slowPost(url: string, pathname: string, headers: Record<string, string>, body: string) {
  const bytes = Buffer.from(body);
  let status = 0;
  let text = '';
  const request = http.request(`${url}${pathname}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(bytes.length) },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status, text }));
    });
    request.on('error', reject);
  });
  request.write(bytes.subarray(0, 10));
  return { finish: () => request.end(bytes.subarray(10)), answered };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(testEngines())('SIGTERM on a real server process (%s)', (engine) => {
  it('finishes the request in flight, ends event streams with a reconnect hint and exits within 10 s', async () => {
    const database = engine === 'pg' ? await openTestDatabase('pg') : null;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'outpost-shutdown-'));
    dirs.push(dataDir);
    const server = await startChildServer(database ? { DATABASE_URL: database.url! } : { DATA_DIR: dataDir });
    try {
      const session = await signInOverHttp(server.url, uniquePhone());
      const stream = openStream(server.url, session.headers);
      await stream.connected;
      const post = slowPost(
        server.url,
        '/api/items',
        session.headers,
        JSON.stringify({ title: 'Half sent', type: 'task' }),
      );
      // The request has reached the server (its headers and part of its body) before the signal.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const signalled = Date.now();
      server.kill('SIGTERM');

      const last = await stream.ended;
      expect(last).toMatch(/retry: \d+\n: server restarting, reconnect\n\n$/);

      // New connections are refused while the one in flight is still being served.
      await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 300));
      post.finish();
      const answer = await post.answered;
      expect(answer.status, answer.text).toBe(201);
      expect(JSON.parse(answer.text)).toMatchObject({ title: 'Half sent', type: 'task' });

      const exit = await server.exited;
      expect(exit.code, server.output()).toBe(0);
      expect(exit.at - signalled).toBeLessThan(10_000);
    } finally {
      server.kill('SIGKILL');
      await database?.close();
    }
  }, 120_000);
});
