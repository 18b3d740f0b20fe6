import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../../../testkit/childServer';
import { RedirectWalker, startOidcProvider, type TestOidcProvider } from '../../../testkit/oidcProvider';
import { type Engine, openTestDatabase, PGLITE_TEMPLATE_ENV, testEngines } from '../../../testkit/server';
import { type Database, openDatabase, rows, sql } from '../db/client';

/*
 * Single sign-on against a real OpenID provider (oidc-provider) over https on a certificate made for
 * this run, which the Outpost server (its own process, so NODE_EXTRA_CA_CERTS is read at its start)
 * trusts and nothing else does: no TLS check is turned off anywhere.
 */

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const engines = testEngines();
const ports = new Map<Engine, number>();
let provider: TestOidcProvider;

beforeAll(async () => {
  for (const engine of engines) ports.set(engine, await freePort());
  provider = await startOidcProvider(
    [...ports.values()].map((port) => `http://127.0.0.1:${port}/api/auth/oidc/callback`),
  );
  provider.accounts.set('ann', { name: 'Ann Lee', email: 'ann@example.com', email_verified: true });
  provider.accounts.set('eve', { name: 'Eve Out', email: 'eve@elsewhere.test', email_verified: true });
  provider.accounts.set('bob', { preferred_username: 'bob', email: 'bob@EXAMPLE.com' });
});
afterAll(async () => {
  await provider?.close();
});

describe.each(engines)('OpenID Connect sign-in against a real provider (%s)', (engine) => {
  let server: ChildServer;
  let database: Database | null = null;
  let dataDir: string | null = null;
  let url: string;

  beforeAll(async () => {
    const port = ports.get(engine)!;
    url = `http://127.0.0.1:${port}`;
    if (engine === 'pg') database = await openTestDatabase('pg');
    else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'outpost-oidc-server-'));
      // The run's migrated copy, so the server process starts without running every migration.
      const template = process.env[PGLITE_TEMPLATE_ENV];
      if (template) {
        const seeded = await openDatabase({ dataDir, loadDataDir: new Blob([await readFile(template)]) });
        await seeded.close();
      }
    }
    server = await startChildServer({
      ...(database ? { DATABASE_URL: database.url! } : { DATA_DIR: dataDir! }),
      PORT: String(port),
      PUBLIC_URL: url,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: 'Acme ID',
      OIDC_ALLOWED_EMAIL_DOMAINS: 'example.com',
      NODE_EXTRA_CA_CERTS: provider.caFile,
    });
  }, 120_000);
  afterAll(async () => {
    server?.kill();
    await server?.exited;
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const onOutpost = (next: URL) => next.origin === url;
  const atCallback = (next: URL) => onOutpost(next) && next.pathname === '/api/auth/oidc/callback';
  /** Walks from start to the provider's redirect back to our callback, and stops there. */
  const toCallback = async (walker: RedirectWalker, returnTo = '/') => {
    const visited = await walker.walk(
      `${url}/api/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}`,
      atCallback,
    );
    const callback = visited.at(-1)!;
    expect(new URL(callback).pathname).toBe('/api/auth/oidc/callback');
    return callback;
  };
  const me = async (walker: RedirectWalker) => {
    const cookie = walker.cookie(url, 'outpost_session');
    const answer = await fetch(`${url}/api/me`, {
      headers: cookie ? { cookie: `outpost_session=${cookie}` } : {},
    });
    return {
      status: answer.status,
      body: (await answer.json()) as { user?: { id: number; name: string; phone: string } },
    };
  };
  const oidcUsers = async () =>
    database
      ? (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM oidc_identities`))[0]!.n
      : 0;

  it('names the button at GET /api/auth/methods', async () => {
    const answer = await fetch(`${url}/api/auth/methods`);
    expect(await answer.json()).toEqual({ oidc: { name: 'Acme ID' } });
  });

  it('signs in through the whole code flow, finds the same person again by (issuer, sub), and records the device as oidc', async () => {
    provider.signInAs('ann');
    const walker = new RedirectWalker(provider.ca);
    const start = await walker.get(
      `${url}/api/auth/oidc/start?return_to=${encodeURIComponent('/campaigns/4?tab=board')}`,
    );
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${url}/api/auth/oidc/callback`);

    const visited = await walker.walk(
      start.location!,
      (next) => onOutpost(next) && !next.pathname.startsWith('/api/'),
    );
    expect(visited.at(-1)).toBe(`${url}/campaigns/4?tab=board`);
    const first = await me(walker);
    expect(first.status).toBe(200);
    // The name came from the userinfo endpoint: this provider keeps the profile out of the ID token.
    expect(first.body.user).toMatchObject({ name: 'Ann Lee', phone: '' });

    const sessions = await fetch(`${url}/api/sessions`, {
      headers: { cookie: `outpost_session=${walker.cookie(url, 'outpost_session')}` },
    });
    const { sessions: list } = (await sessions.json()) as { sessions: { via: string; current: boolean }[] };
    expect(list.find((s) => s.current)?.via).toBe('oidc');
    // The provider vouched for Ann's email (email_verified), so it is her verified address for mail.
    const email = await fetch(`${url}/api/me/email`, {
      headers: { cookie: `outpost_session=${walker.cookie(url, 'outpost_session')}` },
    });
    expect(await email.json()).toMatchObject({ email: 'ann@example.com', verified: true });

    const again = new RedirectWalker(provider.ca);
    await again.walk(
      await toCallback(again),
      (next) => onOutpost(next) && !next.pathname.startsWith('/api/'),
    );
    expect((await me(again)).body.user?.id).toBe(first.body.user!.id);
  });

  it('refuses a wrong state with the expired sentence and signs nobody in', async () => {
    provider.signInAs('ann');
    const walker = new RedirectWalker(provider.ca);
    const callback = new URL(await toCallback(walker));
    callback.searchParams.set('state', 'not-the-state');
    const answer = await walker.get(callback.href);
    expect(answer.location).toBe(`${url}/login?error=oidc_expired`);
    expect((await me(walker)).status).toBe(401);
  });

  it('refuses a replayed callback and a replayed code', async () => {
    provider.signInAs('ann');
    const walker = new RedirectWalker(provider.ca);
    const callback = await toCallback(walker);
    expect((await walker.get(callback)).location).toBe(`${url}/`);
    // The same answer again: its state was taken.
    expect((await walker.get(callback)).location).toBe(`${url}/login?error=oidc_expired`);
    // The used code under a fresh sign-in's state: the provider refuses to exchange it twice.
    const fresh = new URL(await toCallback(walker));
    fresh.searchParams.set('code', new URL(callback).searchParams.get('code')!);
    expect((await walker.get(fresh.href)).location).toBe(`${url}/login?error=oidc_rejected`);
  });

  it('lands on / for a return_to on another origin', async () => {
    provider.signInAs('bob');
    const walker = new RedirectWalker(provider.ca);
    const callback = await toCallback(walker, 'https://evil.example/steal');
    expect((await walker.get(callback)).location).toBe(`${url}/`);
    expect((await me(walker)).body.user?.name).toBe('bob');
    // Bob's provider did not say his email is verified: it is not an address Outpost mails or trusts.
    const email = await fetch(`${url}/api/me/email`, {
      headers: { cookie: `outpost_session=${walker.cookie(url, 'outpost_session')}` },
    });
    expect(await email.json()).toMatchObject({ email: null, verified: false });
  });

  it('refuses an email outside OIDC_ALLOWED_EMAIL_DOMAINS and creates nothing', async () => {
    const before = await oidcUsers();
    provider.signInAs('eve');
    const walker = new RedirectWalker(provider.ca);
    const callback = await toCallback(walker);
    expect((await walker.get(callback)).location).toBe(`${url}/login?error=oidc_domain`);
    expect((await me(walker)).status).toBe(401);
    expect(await oidcUsers()).toBe(before);
  });

  it('refuses an ID token signed by the provider for another audience', async () => {
    const before = await oidcUsers();
    provider.signInAs('ann');
    provider.tamper.audience = 'someone-else';
    try {
      const walker = new RedirectWalker(provider.ca);
      const callback = await toCallback(walker);
      expect((await walker.get(callback)).location).toBe(`${url}/login?error=oidc_rejected`);
      expect((await me(walker)).status).toBe(401);
    } finally {
      provider.tamper.audience = null;
    }
    expect(await oidcUsers()).toBe(before);
  });
});
