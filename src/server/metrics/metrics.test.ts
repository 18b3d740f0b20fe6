import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PromFamily, parsePrometheusText, sampleValue } from '../../../testkit/promText';
import { openTestDatabase, pullsCaughtUp, testEngines } from '../../../testkit/server';
import { signedIn } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { type Database, sql } from '../db/client';
import { UNMATCHED_ROUTE } from './registry';

const TOKEN = 'metrics-token-for-tests-0123456789';

async function scrape(app: FastifyInstance): Promise<Map<string, PromFamily>> {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(response.body);
}

const requests = (families: Map<string, PromFamily>, route: string, method = 'GET', status = '200') =>
  sampleValue(families, 'http_request_duration_seconds_count', { route, method, status });

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is a 404, whatever is sent', async () => {
    const database = await openTestDatabase('pglite');
    const app = await buildApp({ database });
    try {
      for (const authorization of [undefined, 'Bearer anything-at-all-long-enough']) {
        const response = await app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'No route GET /metrics.' });
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe.each(testEngines())('GET /metrics on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true, metricsToken: TOKEN } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers a missing or wrong token as the route that does not exist', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', `Basic ${TOKEN}`, TOKEN]) {
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode, authorization).toBe(404);
    }
  });

  it('parses as Prometheus text with process metrics and every Outpost family', async () => {
    const families = await scrape(app);
    expect(families.get('http_request_duration_seconds')?.type).toBe('histogram');
    expect(families.get('outpost_event_streams')?.type).toBe('gauge');
    expect(families.get('outpost_sync_pull_rows_total')?.type).toBe('counter');
    expect(families.get('outpost_push_outbox_depth')?.type).toBe('gauge');
    expect(families.get('outpost_db_pool_waiting')?.type).toBe('gauge');
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
    expect(families.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // A real reading: the scrape's own outbox count may be the one query waiting for the session.
    expect(Number.isInteger(sampleValue(families, 'outpost_db_pool_waiting'))).toBe(true);
    expect(sampleValue(families, 'outpost_db_pool_waiting')).toBeGreaterThanOrEqual(0);
  });

  it('counts requests by route pattern, never by raw path, and pull rows with real traffic', async () => {
    const before = await scrape(app);
    const alice = await signedIn(app, 'Alice');
    const a = await alice.create({ title: 'First', type: 'task' });
    const b = await alice.create({ title: 'Second', type: 'task' });
    await alice.item(a.id);
    await alice.item(b.id);
    // On a shared PostgreSQL another test's open transaction may hold the pull's horizon back.
    await pullsCaughtUp(database);
    const pulled = await alice.get<{ items: unknown[]; comments: unknown[] }>('/api/sync?cursor=');
    expect(pulled.status).toBe(200);
    const rowsSent = pulled.body.items.length + pulled.body.comments.length;
    expect(rowsSent).toBeGreaterThanOrEqual(2);
    await app.inject({ method: 'GET', url: `/api/no/such/${a.id}` });
    await app.inject({ method: 'GET', url: '/api/no/such/route-two' });

    const after = await scrape(app);
    expect(requests(after, '/api/items/:id') - requests(before, '/api/items/:id')).toBe(2);
    expect(requests(after, '/api/items', 'POST', '201') - requests(before, '/api/items', 'POST', '201')).toBe(
      2,
    );
    expect(requests(after, '/api/sync') - requests(before, '/api/sync')).toBe(1);
    expect(
      requests(after, UNMATCHED_ROUTE, 'GET', '404') - requests(before, UNMATCHED_ROUTE, 'GET', '404'),
    ).toBe(2);
    expect(
      sampleValue(after, 'outpost_sync_pull_rows_total') -
        sampleValue(before, 'outpost_sync_pull_rows_total'),
    ).toBe(rowsSent);
    // Every route label is a registered pattern (or the one unmatched label): no ids, no junk paths.
    const patterns = new Set([...app.routeTable.map((r) => r.url), UNMATCHED_ROUTE]);
    const routes = new Set(after.get('http_request_duration_seconds')!.samples.map((s) => s.labels.route));
    for (const route of routes) expect(patterns.has(route!), route).toBe(true);
    expect([...routes].some((route) => route?.includes(String(a.id)))).toBe(false);
    // The buckets of one series are cumulative and end at +Inf with the count.
    const series = after
      .get('http_request_duration_seconds')!
      .samples.filter((s) => s.labels.route === '/api/items/:id' && s.name.endsWith('_bucket'));
    expect(series.at(-1)?.labels.le).toBe('+Inf');
    expect(series.at(-1)?.value).toBe(requests(after, '/api/items/:id'));
  });

  it('counts open event streams and the push outbox', async () => {
    const bob = await signedIn(app, 'Bob');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await new Promise<http.ClientRequest>((resolve) => {
      const request = http.get(
        `${address}/api/events`,
        { headers: { cookie: bob.cookieHeader() } },
        (res) => {
          res.once('data', () => resolve(request));
        },
      );
    });
    expect(sampleValue(await scrape(app), 'outpost_event_streams')).toBe(1);
    stream.destroy();
    await expect.poll(async () => sampleValue(await scrape(app), 'outpost_event_streams')).toBe(0);

    const depth = sampleValue(await scrape(app), 'outpost_push_outbox_depth');
    await database.db.execute(
      sql`INSERT INTO notifications (user_id, kind, text) VALUES (${bob.user!.id}, 'due', 'Waiting to be pushed')`,
    );
    expect(sampleValue(await scrape(app), 'outpost_push_outbox_depth')).toBe(depth + 1);
  });
});
