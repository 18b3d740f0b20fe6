import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpSession, signInOverHttp } from '../../../testkit/childServer';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { uniquePhone } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';

/** Writes a minute per person (over every session), and per token. */
const PER_PERSON = 10;
const PER_TOKEN = 5;

describe.each(testEngines())('write limits over sessions, tokens and instances (%s)', (engine) => {
  let database: Database;
  /** Two instances on one database, as two servers behind a load balancer. */
  const instances: { app: FastifyInstance; url: string }[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    for (let n = 0; n < 2; n++) {
      const app = await buildApp({
        database,
        config: { writesPerMinute: PER_PERSON, tokenWritesPerMinute: PER_TOKEN, loginsPerMinute: 0 },
      });
      instances.push({ app, url: await app.listen({ port: 0, host: '127.0.0.1' }) });
    }
  });
  afterAll(async () => {
    for (const { app } of instances) await app.close();
    await database?.close();
  });

  const create = (url: string, headers: Record<string, string>, title: string) =>
    fetch(`${url}/api/items`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title, type: 'todo' }),
    });

  /** Sends all `requests` at once and answers their statuses (and one 429's Retry-After). */
  async function inParallel(requests: (() => Promise<Response>)[]) {
    const answers = await Promise.all(requests.map((send) => send()));
    const statuses = answers.map((a) => a.status);
    const limited = answers.find((a) => a.status === 429);
    await Promise.all(answers.map((a) => a.text()));
    return {
      created: statuses.filter((s) => s === 201).length,
      limited: statuses.filter((s) => s === 429).length,
      retryAfter: Number(limited?.headers.get('retry-after')),
    };
  }

  it('one person signed in six times on two instances shares one budget: parallel writes get exactly the limit through', async () => {
    const phone = uniquePhone();
    const sessions: { url: string; session: HttpSession }[] = [];
    for (let n = 0; n < 6; n++) {
      const { url } = instances[n % 2]!;
      sessions.push({ url, session: await signInOverHttp(url, phone, 'Many Devices') });
    }
    expect(new Set(sessions.map((s) => s.session.userId)).size).toBe(1);
    expect(new Set(sessions.map((s) => s.session.headers.cookie)).size).toBe(6);
    const result = await inParallel(
      Array.from({ length: 3 * PER_PERSON }, (_, i) => {
        const { url, session } = sessions[i % sessions.length]!;
        return () => create(url, session.headers, `Flood ${i}`);
      }),
    );
    expect(result).toMatchObject({ created: PER_PERSON, limited: 2 * PER_PERSON });
    expect(result.retryAfter).toBeGreaterThan(0);
    expect(result.retryAfter).toBeLessThanOrEqual(60);
    // A new sign-in is no new budget, on either instance.
    for (const { url } of instances) {
      const again = await signInOverHttp(url, phone, 'Many Devices');
      expect((await create(url, again.headers, 'One more')).status).toBe(429);
    }
    // Reads are not counted, and someone else's budget is their own.
    const first = sessions[0]!;
    expect((await fetch(`${first.url}/api/items`, { headers: first.session.headers })).status).toBe(200);
    const other = await signInOverHttp(instances[1]!.url, uniquePhone(), 'Someone Else');
    expect((await create(instances[1]!.url, other.headers, 'Mine')).status).toBe(201);
  });

  it('each token has its own budget, apart from its person’s sessions, held over both instances', async () => {
    const { url } = instances[0]!;
    const owner = await signInOverHttp(url, uniquePhone(), 'Scripter');
    const mint = async () => {
      const response = await fetch(`${url}/api/tokens`, {
        method: 'POST',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Script', scopes: ['read', 'write'] }),
      });
      expect(response.status).toBe(201);
      return `Bearer ${((await response.json()) as { token: string }).token}`;
    };
    const [a, b] = [await mint(), await mint()];
    const result = await inParallel(
      Array.from(
        { length: 3 * PER_TOKEN },
        (_, i) => () => create(instances[i % 2]!.url, { authorization: a }, `Token ${i}`),
      ),
    );
    expect(result).toMatchObject({ created: PER_TOKEN, limited: 2 * PER_TOKEN });
    expect((await create(instances[1]!.url, { authorization: b }, 'Other token')).status).toBe(201);
    // Two mints so far: the person's own budget has room left.
    expect((await create(instances[1]!.url, owner.headers, 'From the app')).status).toBe(201);
  });
});
