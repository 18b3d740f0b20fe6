import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { signedIn, TestClient } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { REDACTED, redactSecretPaths } from './logRedaction';

describe('log redaction', () => {
  it('F8: replaces calendar and invite tokens in a path, percent-encoded ones too, and leaves other paths alone', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(redactSecretPaths(`/cal/${token}.ics`)).toBe(`/cal/${REDACTED}.ics`);
    expect(redactSecretPaths(`/cal/${token}.ics?x=1`)).toBe(`/cal/${REDACTED}.ics?x=1`);
    expect(redactSecretPaths(`/api/invites/${token}`)).toBe(`/api/invites/${REDACTED}`);
    expect(redactSecretPaths(`/api/invites/${token}/accept`)).toBe(`/api/invites/${REDACTED}/accept`);
    expect(redactSecretPaths(`/invite/${token}`)).toBe(`/invite/${REDACTED}`);
    expect(redactSecretPaths(`/%63al/${token}.ics`)).toBe(`/cal/${REDACTED}.ics`);
    expect(redactSecretPaths(`/api/invites/%41${token}`)).not.toContain(token);
    expect(redactSecretPaths('/api/items/12?per_page=20')).toBe('/api/items/12?per_page=20');
    expect(redactSecretPaths('/api/campaigns/3/invites')).toBe('/api/campaigns/3/invites');
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
});
