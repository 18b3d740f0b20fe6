import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../testkit/server';
import { isApiPath } from '../http/paths';
import { TOKEN_ROUTE_POLICY } from './policy';

describe('the token policy of every route', () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp('pglite');
  });
  afterAll(() => harness?.close());

  const apiRoutes = () => harness.app.routeTable.filter((route) => isApiPath(route.url));

  it('fails when an /api route declares no token policy (a new route must say what a token may do there)', () => {
    expect(apiRoutes().length).toBeGreaterThan(40);
    const undeclared = apiRoutes()
      .filter((route) => route.tokenAccess === null)
      .map((route) => `${route.method} ${route.url}`);
    expect(undeclared, 'add these to TOKEN_ROUTE_POLICY or their config.tokenAccess').toEqual([]);
  });

  it('names only routes that exist, so the table cannot rot', () => {
    const registered = new Set(apiRoutes().map((route) => `${route.method} ${route.url}`));
    const stale = Object.keys(TOKEN_ROUTE_POLICY).filter((key) => !registered.has(key));
    expect(stale).toEqual([]);
  });

  it('lets no token read with a write scope or write with the read scope', () => {
    for (const route of apiRoutes()) {
      const reads = route.method === 'GET' || route.method === 'HEAD';
      const key = `${route.method} ${route.url}`;
      if (reads) expect(['read', 'webhooks', 'never'], key).toContain(route.tokenAccess);
      else expect(['write', 'webhooks', 'never'], key).toContain(route.tokenAccess);
    }
  });

  it('keeps tokens, members, invites, sessions and the account out of every token’s reach', () => {
    const guarded =
      /^\/api\/(tokens|campaigns\/:id\/(members|invites)|invites|login|logout|contacts|calendar|push|passkeys|sessions|events)\b/;
    const reachable = apiRoutes()
      .filter(
        (route) =>
          guarded.test(route.url) || (route.url === '/api/me' && !['GET', 'HEAD'].includes(route.method)),
      )
      .filter((route) => route.tokenAccess !== 'never')
      .map((route) => `${route.method} ${route.url}`);
    expect(reachable).toEqual([]);
  });
});
