import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRoutes } from '../../../testkit/fuzz';
import { createTestApp, testEngines } from '../../../testkit/server';

// Cases per token route; FUZZ_RUNS=1000 for a long run under vitest.
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) > 0 ? Number(process.env.FUZZ_RUNS) : 150;

describe.each(testEngines())('the token routes under random input (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('never answer 5xx, and every 4xx has a message, for cookie, forged, anonymous and bearer callers', async () => {
    // The token routes, and the item routes a token writes to (the scope checks and the write limit).
    const only = (route: { url: string }) =>
      route.url.startsWith('/api/tokens') || route.url === '/api/items';
    const routes = harness.app.routeTable.filter(only).length;
    const result = await fuzzRoutes(harness.app, { runsPerRoute: FUZZ_RUNS, only });
    const report = result.failures
      .map((f) => `${f.problem} ${f.status}: ${f.sent}\n  → ${f.answer}`)
      .join('\n');
    expect(routes).toBe(7);
    expect(result.cases).toBe(FUZZ_RUNS * routes);
    expect(result.serverErrors, report).toBe(0);
    expect(result.missingMessage, report).toBe(0);
    // The cases reached the handlers as well as the guards: listed, refused by scope, policy and schema.
    const seen = JSON.stringify([...result.statusCounts].sort());
    for (const status of [200, 401, 403, 422])
      expect(result.statusCounts.get(status) ?? 0, `${status} in ${seen}`).toBeGreaterThan(0);
  });
});
