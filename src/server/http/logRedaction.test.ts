import { DrizzleQueryError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn, TestClient } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { type Database, sql } from '../db/client';
import { REDACTED, redactedError, redactSecretPaths } from './logRedaction';

describe('log redaction', () => {
  it('F8: replaces calendar and invite tokens in a path, percent-encoded ones too, and leaves other paths alone', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(redactSecretPaths(`/cal/${token}.ics`)).toBe(`/cal/${REDACTED}.ics`);
    expect(redactSecretPaths(`/cal/${token}.ics?x=1`)).toBe(`/cal/${REDACTED}.ics`);
    expect(redactSecretPaths(`/api/invites/${token}`)).toBe(`/api/invites/${REDACTED}`);
    expect(redactSecretPaths(`/api/invites/${token}/accept`)).toBe(`/api/invites/${REDACTED}/accept`);
    expect(redactSecretPaths(`/invite/${token}`)).toBe(`/invite/${REDACTED}`);
    expect(redactSecretPaths(`/%63al/${token}.ics`)).toBe(`/cal/${REDACTED}.ics`);
    expect(redactSecretPaths(`/api/invites/%41${token}`)).not.toContain(token);
    expect(redactSecretPaths('/api/items/12')).toBe('/api/items/12');
    expect(redactSecretPaths('/api/campaigns/3/invites')).toBe('/api/campaigns/3/invites');
  });

  it('F8: keeps the path of a URL and drops its query string and fragment', () => {
    expect(redactSecretPaths('/api/items/12?per_page=20')).toBe('/api/items/12');
    expect(redactSecretPaths('/api/items/search?q=salary%20review&access_token=op_abc#x')).toBe(
      '/api/items/search',
    );
    expect(redactSecretPaths('/api/me#frag')).toBe('/api/me');
  });

  it('writes a failed statement’s text but none of its values, wherever the error quotes them', () => {
    const secret = 'whsec_c2VjcmV0LXZhbHVlLW9mLWEtd2ViaG9vaw';
    const cause = Object.assign(new Error(`invalid input syntax for type integer: "${secret}"`), {
      code: '22P02',
      detail: `Failing row contains (7, https://x.example/hook, ${secret}).`,
      params: [secret, 7],
      queryOptions: { rowMode: 'object' },
    });
    const failed = new DrizzleQueryError('insert into "webhooks" values ($1, $2)', [secret, 'ab'], cause);
    const logged = JSON.stringify(redactedError(failed));
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain('"ab"');
    expect(logged).toContain('insert into \\"webhooks\\" values ($1, $2)');
    expect(logged).toContain('22P02');
    expect(redactedError(failed)).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "webhooks" values ($1, $2)',
      cause: { message: `invalid input syntax for type integer: "${REDACTED}"`, code: '22P02' },
    });
  });
});

describe.each(testEngines())('server log (%s)', (engine) => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const lines: string[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: { seedSampleUsers: true, logLevel: 'info' },
      logger: true,
      logStream: { write: (line) => void lines.push(line) },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('F8: never holds an invite or calendar token, on any of their routes', async () => {
    const owner = await signedIn(app, 'Log Owner');
    const guest = await signedIn(app, 'Log Guest');
    const { campaign } = await sharedCampaign(owner, 'editor');
    const feed = (await owner.post<{ url: string }>('/api/calendar/token')).body.url;
    const calToken = /\/cal\/(.+)\.ics$/.exec(feed)![1]!;
    const invite = await owner.post<{ token: string }>(`/api/campaigns/${campaign.id}/invites`, {
      role: 'viewer',
    });
    expect(invite.status).toBe(201);
    const inviteToken = invite.body.token;
    lines.length = 0;

    expect((await new TestClient(app).get(`/cal/${calToken}.ics`)).status).toBe(200);
    expect((await guest.get(`/api/invites/${inviteToken}`)).status).toBe(200);
    expect((await guest.post(`/api/invites/${inviteToken}/accept`)).status).toBe(200);
    await new TestClient(app).get(`/invite/${inviteToken}`);
    expect((await owner.delete(`/api/invites/${inviteToken}`)).status).toBe(204);

    const log = lines.join('');
    expect(log).toContain(`/cal/${REDACTED}.ics`);
    expect(log).toContain(`/api/invites/${REDACTED}/accept`);
    expect(log).toContain(`"method":"DELETE","url":"/api/invites/${REDACTED}"`);
    expect(log).toContain(`/invite/${REDACTED}`);
    expect(log).not.toContain(calToken);
    expect(log).not.toContain(inviteToken);
  });

  it('F8: holds the path of a request but never its query string (a token, the words searched)', async () => {
    const person = await signedIn(app, 'Log Searcher');
    lines.length = 0;
    await person.get('/api/items/search?q=confidential%20merger&access_token=op_notInTheLog');
    await person.get('/api/items?per_page=5&label=layoffs');
    const log = lines.join('');
    expect(log).toContain('"url":"/api/items/search"');
    expect(log).toContain('"url":"/api/items"');
    for (const word of ['confidential', 'merger', 'op_notInTheLog', 'access_token', 'layoffs', 'per_page'])
      expect(log).not.toContain(word);
  });

  it('logs a query that fails with its statement, never its values (a webhook’s whsec_ secret, its URL)', async () => {
    const person = await signedIn(app, 'Log Hooker');
    const url = 'https://hooks.example.com/private-path-4711';
    // Any insert into webhooks fails in the database: the statement carries the new secret.
    await database.db.execute(
      sql`ALTER TABLE webhooks ADD CONSTRAINT log_test_refuses CHECK (secret NOT LIKE 'whsec_%') NOT VALID`,
    );
    try {
      lines.length = 0;
      const created = await person.post('/api/webhooks', { url, events: ['item.created'] });
      expect(created.status).toBe(503);
      const log = lines.join('');
      expect(log).toContain('log_test_refuses');
      expect(log).toContain('Failed query: INSERT INTO webhooks');
      expect(log).not.toContain('whsec_');
      expect(log).not.toContain('private-path-4711');
    } finally {
      await database.db.execute(sql`ALTER TABLE webhooks DROP CONSTRAINT log_test_refuses`);
    }
  });
});
