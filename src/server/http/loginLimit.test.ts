import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { TestClient } from '../../../testkit/testClient';
import { OIDC_FAILURES } from '../../shared/oidc';
import { buildApp } from '../app';
import type { Database } from '../db/client';

/*
 * The sign-in attempts' limit (ARCHITECTURE §4) speaks to whoever meets it: a browser sent to a
 * single sign-on route lands on the sign-in page with the sentence, a script calling a JSON route
 * gets a JSON 429 with a message, both with Retry-After. One budget for all sign-in routes.
 */
describe.each(testEngines())('the sign-in attempts’ limit (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  const LIMIT = 3;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: {
        loginsPerMinute: LIMIT,
        // Never reached: the callback without a state fails before the provider is asked anything.
        oidc: {
          issuer: 'https://127.0.0.1:9',
          clientId: 'outpost',
          clientSecret: 'secret',
          name: 'Acme ID',
          scopes: 'openid profile email',
          allowedEmailDomains: [],
          redirectUri: 'http://localhost:3000/api/auth/oidc/callback',
        },
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('over the limit, the OIDC routes redirect to the sentence and the JSON routes answer 429 with a message', async () => {
    const browser = new TestClient(app);
    for (let i = 0; i < LIMIT; i++) {
      const answer = await browser.get('/api/auth/oidc/callback?code=x');
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe('/login?error=oidc_expired');
    }
    for (const url of ['/api/auth/oidc/callback?code=x&state=y', '/api/auth/oidc/start?return_to=/']) {
      const limited = await browser.get(url);
      expect(limited.status, url).toBe(302);
      expect(limited.headers.location).toBe('/login?error=oidc_rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(OIDC_FAILURES.oidc_rate_limited).toMatch(/Too many sign-in attempts/);

    await browser.csrf();
    for (const [url, body] of [
      ['/api/login', { phone: '+12025550123', name: 'Limited' }],
      ['/api/passkeys/login/options', {}],
    ] as const) {
      const refused = await browser.post<{ message: string }>(url, body);
      expect(refused.status, url).toBe(429);
      expect(refused.headers['content-type']).toMatch(/application\/json/);
      expect(refused.body.message).toMatch(
        /^Too many sign-in attempts\. Please wait \d+ seconds? and try again\.$/,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
