import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import type { OidcConfig } from '../env';

const ACME: OidcConfig = {
  issuer: 'https://id.acme.example',
  clientId: 'outpost',
  clientSecret: undefined,
  name: 'Acme ID',
  scopes: 'openid profile',
  allowedEmailDomains: [],
  redirectUri: 'http://localhost:3000/api/auth/oidc/callback',
};

describe.each(testEngines())('GET /api/auth/methods on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(() => database?.close());

  /** The server on this database, with or without single sign-on (a restart with other settings). */
  const serverWith = async (oidc: OidcConfig | null) => {
    const app = await buildApp({ database, config: { seedSampleUsers: false, oidc } });
    await app.ready();
    return app;
  };

  it('is asked again on every page load and answered 304 while unchanged, so turning single sign-on on shows its button at the next reload', async () => {
    const before = await serverWith(null);
    let tag: string;
    try {
      const first = await before.inject({ method: 'GET', url: '/api/auth/methods' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ oidc: null });
      // Not kept for minutes: the browser must ask each time before it uses its copy.
      expect(first.headers['cache-control']).toBe('no-cache');
      tag = String(first.headers.etag);
      expect(tag).toMatch(/^W\/".+"$/);
      const again = await before.inject({
        method: 'GET',
        url: '/api/auth/methods',
        headers: { 'if-none-match': tag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    } finally {
      await before.close();
    }

    const after = await serverWith(ACME);
    try {
      const reload = await after.inject({
        method: 'GET',
        url: '/api/auth/methods',
        headers: { 'if-none-match': tag },
      });
      expect(reload.statusCode).toBe(200);
      expect(reload.json()).toEqual({ oidc: { name: 'Acme ID' } });
      expect(reload.headers.etag).not.toBe(tag);
    } finally {
      await after.close();
    }
  });
});
