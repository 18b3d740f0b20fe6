import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMailServer,
  type TestMailServer,
  testEmailConfig,
  verificationToken,
  verifyAddress,
} from '../../../testkit/mailServer';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, TestClient } from '../../../testkit/testClient';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { rows, sql } from '../db/client';
import type { AppConfig } from '../env';
import { sweepExpired } from '../maintenance/sweep';

const ORIGIN = 'http://outpost.test:3000';
const METRICS_TOKEN = 'metrics-token-for-email-tests';

function configWith(server: TestMailServer | null, overrides: Partial<AppConfig> = {}): Partial<AppConfig> {
  return {
    seedSampleUsers: true,
    reminderTickMs: 0,
    publicUrl: { origin: ORIGIN, host: 'outpost.test' },
    metricsToken: METRICS_TOKEN,
    email: testEmailConfig(server, {
      inbound: {
        smtpPort: null,
        domain: 'in.outpost.test',
        httpToken: null,
        trustUnauthenticated: false,
        maxBytes: 1 << 20,
      },
    }),
    ...overrides,
  };
}

/** Waits until the app's mailer has nothing in hand. */
async function drained(app: FastifyInstance): Promise<void> {
  app.emailOutbox.poke(true);
  await app.emailOutbox.settled();
}

describe.each(testEngines())('email out on %s', (engine) => {
  let database: Database;
  let mail: TestMailServer;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  const logLines: string[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: { ...configWith(mail), logLevel: 'info' },
      logger: true,
      logStream: { write: (line) => void logLines.push(line) },
    });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    await makeMutual(alex, blair);
    await verifyAddress(blair, 'blair@example.test', mail);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await mail.close();
  });

  it('verifies an address through the mailed link, once, and only for the person it was sent to', async () => {
    const casey = await signedIn(app, 'Casey');
    expect((await casey.get('/api/me/email')).body).toEqual({ email: null, verified: false, sending: true });
    const before = mail.received.length;
    const put = await casey.request({
      method: 'PUT',
      url: '/api/me/email',
      body: { email: 'casey@Example.TEST' },
    });
    expect(put.status, put.text).toBe(202);
    const [sent] = (await mail.waitFor(before + 1)).slice(before);
    expect(sent!.envelope.to).toEqual(['casey@example.test']);
    expect(sent!.parsed.subject).toBe('Confirm your email address for Outpost');
    const token = verificationToken(sent!);
    expect(sent!.parsed.text).toContain(`${ORIGIN}/verify-email?token=${token}`);
    expect((await casey.get('/api/me/email')).body).toMatchObject({
      email: 'casey@example.test',
      verified: false,
    });

    // Someone else's session cannot use the link, and learns nothing from trying.
    const stranger = await alex.post('/api/me/email/verify', { token });
    expect(stranger.status).toBe(422);
    expect(stranger.text).toContain('That link has expired or was already used.');
    const verified = await casey.post('/api/me/email/verify', { token });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ email: 'casey@example.test', verified: true, sending: true });
    expect((await casey.post('/api/me/email/verify', { token })).status).toBe(422);
    expect((await casey.post('/api/me/email/verify', { token: 'x' })).status).toBe(422);
  });

  it('refuses an address another account verified, and a malformed one, with a message', async () => {
    const dana = await signedIn(app, 'Dana');
    const taken = await dana.request({
      method: 'PUT',
      url: '/api/me/email',
      body: { email: 'BLAIR@example.test' },
    });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('Another account already uses this email address.');
    for (const email of [
      'no-at-sign',
      'a@b',
      'x@example.test\r\nBcc: victim@example.test',
      '<a@example.test>',
    ]) {
      const bad = await dana.request({ method: 'PUT', url: '/api/me/email', body: { email } });
      expect(bad.status, email).toBe(422);
    }
  });

  it('mails an assignment once, with the title and a link that opens the item, replying by mail included', async () => {
    const campaign = await alex.create({ title: 'Garden', type: 'campaign' });
    await alex.post(`/api/campaigns/${campaign.id}/members`, { user_id: blair.user!.id, role: 'editor' });
    const before = mail.received.length;
    const task = await alex.create({
      title: 'Order the bulbs',
      type: 'task',
      parent_id: campaign.id,
      assigned_to: blair.user!.id,
    });
    await drained(app);
    const mails = (await mail.waitFor(before + 1))
      .slice(before)
      .filter((m) => m.envelope.to.includes('blair@example.test'));
    const assigned = mails.filter((m) => m.parsed.headers.get('x-outpost-kind') === 'assigned');
    expect(assigned).toHaveLength(1);
    const message = assigned[0]!;
    expect(message.parsed.subject).toContain('Order the bulbs');
    const link = `${ORIGIN}/tasks/${task.id}`;
    expect(message.parsed.text).toContain(link);
    expect(message.parsed.html).toContain(`href="${link}"`);
    expect(message.parsed.html).toContain('Open in Outpost');
    expect(message.parsed.text).toContain('Garden');
    expect(message.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(message.parsed.replyTo?.value[0]?.address).toMatch(/^r-[a-z2-7]{32}@in\.outpost\.test$/);
    // The link's item opens for its reader.
    expect((await blair.get(`/api/items/${task.id}`)).status).toBe(200);
    // Nothing more for the same notification on another drain.
    await drained(app);
    const [count] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM email_outbox WHERE kind = 'notification' AND to_address = 'blair@example.test'
          AND subject LIKE '%Order the bulbs%'`,
    );
    expect(count?.n).toBe(1);
  });

  it('sends nothing for a kind whose switch is off, and nothing to someone without a verified address', async () => {
    const off = await blair.patch('/api/me/email/preferences', { kinds: { assigned: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ kinds: { assigned: false, mentioned: true, due: true } });
    // A fresh entry, not one folded into an earlier unread run of assignments (P8).
    await blair.post('/api/notifications/read');
    const before = mail.received.length;
    await alex.create({ title: 'Quietly assigned', type: 'task', assigned_to: blair.user!.id });
    await drained(app);
    await new Promise((r) => setTimeout(r, 300));
    expect(mail.received.slice(before).filter((m) => m.parsed.subject?.includes('Quietly assigned'))).toEqual(
      [],
    );
    await blair.patch('/api/me/email/preferences', { kinds: { assigned: true } });
  });

  it('keeps a title with line breaks out of the headers: no header of its own, no second recipient', async () => {
    await blair.post('/api/notifications/read');
    const before = mail.received.length;
    await alex.create({
      title: 'Pay\r\nBcc: victim@example.test\r\nSubject: forged',
      type: 'task',
      assigned_to: blair.user!.id,
    });
    await drained(app);
    const [message] = (await mail.waitFor(before + 1)).slice(before);
    expect(message!.envelope.to).toEqual(['blair@example.test']);
    expect(message!.parsed.bcc).toBeUndefined();
    expect(message!.parsed.subject).not.toContain('\n');
    expect(message!.parsed.subject).toContain('Pay Bcc: victim@example.test Subject: forged');
    expect(message!.raw.toString()).not.toMatch(/^Bcc:/im);
  });

  it('retries a mail the server put off (450) and delivers it once, counting the failure in /metrics with the answer logged', async () => {
    await blair.post('/api/notifications/read');
    mail.failNext(1, 'Greylisted, try again later', 451);
    const before = mail.received.length;
    await alex.create({ title: 'Retry me', type: 'task', assigned_to: blair.user!.id });
    await drained(app);
    await new Promise((r) => setTimeout(r, 500));
    await drained(app);
    const arrived = (await mail.waitFor(before + 1)).slice(before);
    expect(arrived.filter((m) => m.parsed.subject?.includes('Retry me'))).toHaveLength(1);
    const metrics = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toMatch(/outpost_email_failures_total\{kind="notification"\} [1-9]/);
    expect(
      logLines.some(
        (l) => l.includes('Greylisted, try again later') && l.includes('the SMTP server did not take a mail'),
      ),
    ).toBe(true);
  });

  it('answers the test mail with the SMTP server’s own words when it refuses (a wrong password: 535)', async () => {
    const ok = await blair.post('/api/email/test');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ sent: true });
    const wrong = await buildApp({
      database,
      config: configWith(null, {
        email: testEmailConfig(null, { smtpUrl: mail.url('outpost', 'not-the-password') }),
      }),
    });
    await wrong.ready();
    try {
      const again = new TestClient(wrong);
      for (const [k, v] of blair.jar) again.jar.set(k, v);
      const refused = await again.post<{ message: string }>('/api/email/test');
      expect(refused.status).toBe(502);
      expect(refused.body.message).toMatch(/535/);
      expect(refused.body.message).toContain('Authentication credentials invalid');
    } finally {
      await wrong.close();
    }
    const guest = await signedIn(app, 'No Address');
    expect((await guest.post('/api/email/test')).status).toBe(409);
  });

  it('writes exactly one digest a person a day at their hour, across two instances and a restart, and none when empty', async () => {
    const erin = await signedIn(app, 'Erin');
    await verifyAddress(erin, 'erin@example.test', mail);
    const prefs = await erin.patch('/api/me/email/preferences', {
      digest_hour: 8,
      time_zone: 'Europe/Paris',
    });
    expect(prefs.status, prefs.text).toBe(200);
    // 07:10 UTC is 08:10 in Paris in winter.
    const at = new Date('2026-12-01T07:10:00Z');
    const nothingYet = await app.emailOutbox.runDigests(at);
    expect(nothingYet).toBeGreaterThanOrEqual(0);
    const [skipped] = await rows<{ status: string }>(
      database.db,
      sql`SELECT status FROM email_outbox WHERE dedupe_key = ${`digest:${erin.user!.id}:2026-12-01`}`,
    );
    expect(skipped?.status).toBe('skipped');

    await erin.create({ title: 'Late report', type: 'task', due_date: '2026-11-28', priority: 1 });
    await erin.create({ title: 'Call the florist', type: 'task', due_date: '2026-12-02' });
    await erin.create({ title: 'Not yet', type: 'task', due_date: '2026-12-09' });
    const second = await buildApp({ database, config: configWith(mail) });
    await second.ready();
    const next = new Date('2026-12-02T07:30:00Z');
    const before = mail.received.length;
    try {
      await Promise.all([app.emailOutbox.runDigests(next), second.emailOutbox.runDigests(next)]);
      await Promise.all([drained(app), drained(second)]);
    } finally {
      await second.close();
    }
    // A restarted instance in the same hour writes nothing more; another hour writes nothing either.
    const restarted = await buildApp({ database, config: configWith(mail) });
    await restarted.ready();
    try {
      expect(await restarted.emailOutbox.runDigests(new Date('2026-12-02T07:50:00Z'))).toBe(0);
      expect(await restarted.emailOutbox.runDigests(new Date('2026-12-02T09:00:00Z'))).toBe(0);
      await drained(restarted);
    } finally {
      await restarted.close();
    }
    await drained(app);
    const digests = mail.received
      .slice(before)
      .filter(
        (m) =>
          m.parsed.headers.get('x-outpost-kind') === 'digest' && m.envelope.to.includes('erin@example.test'),
      );
    expect(digests).toHaveLength(1);
    const digest = digests[0]!;
    expect(digest.parsed.subject).toBe('Your day: 1 overdue, 1 due today');
    expect(digest.parsed.text).toContain('Late report');
    expect(digest.parsed.text).toContain('4 days overdue');
    expect(digest.parsed.text).toContain('Call the florist');
    expect(digest.parsed.text).not.toContain('Not yet');
    const raw = digest.raw.toString();
    const unsubscribe = /^List-Unsubscribe:\s+(<[^>]+>)/m.exec(raw)?.[1] ?? '';
    expect(unsubscribe).toMatch(/^<http:\/\/outpost\.test:3000\/api\/email\/unsubscribe\?token=[^>]+>$/);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    // One click from the mail program: a form POST without a session turns the digest off.
    const url = new URL(unsubscribe.slice(1, -1));
    const click = await app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode, click.body).toBe(200);
    expect((await erin.get('/api/me/email/preferences')).body).toMatchObject({ digest_hour: null });
    // A GET only leads to the page that asks; a forged token changes nothing.
    const opened = await app.inject({ url: `${url.pathname}${url.search}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toMatch(/^\/unsubscribe\?token=/);
    const forged = await app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe?token=${erin.user!.id + 1}.AAAAAAAAAAAAAAAAAAAAAA`,
    });
    expect(forged.statusCode).toBe(422);
  });

  it('mails a run of assignments once, with their count, after it rests (P8), and other kinds at once', async () => {
    // A rest long enough that three creates in a row never take it on a loaded machine: with 1.5 s a
    // fresh-clone run's first assignment rested before the second and went out alone.
    const restMs = 4000;
    const resting = await buildApp({
      database,
      config: configWith(null, { email: testEmailConfig(mail, { batchMs: restMs }) }),
    });
    await resting.ready();
    try {
      const giver = new TestClient(resting);
      for (const [k, v] of alex.jar) giver.jar.set(k, v);
      giver.user = alex.user;
      const taker = new TestClient(resting);
      for (const [k, v] of blair.jar) taker.jar.set(k, v);
      await taker.post('/api/notifications/read');
      const before = mail.received.length;
      for (const title of ['Rake', 'Sow', 'Weed'])
        await giver.create({ title, type: 'todo', assigned_to: blair.user!.id });
      resting.emailOutbox.poke(true);
      await resting.emailOutbox.settled();
      expect(mail.received.length).toBe(before);
      await new Promise((r) => setTimeout(r, restMs + 200));
      resting.emailOutbox.poke(true);
      await resting.emailOutbox.settled();
      const [run] = (await mail.waitFor(before + 1)).slice(before);
      expect(run!.parsed.subject).toMatch(/assigned you 3 /);
      await new Promise((r) => setTimeout(r, 200));
      expect(mail.received.length).toBe(before + 1);
    } finally {
      await resting.close();
    }
  });

  it('keeps finished mails 30 days and never takes one still waiting to go', async () => {
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    const made = await rows<{ id: string; status: string }>(
      database.db,
      sql`INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, status, created_at, next_attempt_at)
          VALUES ('test', 'old@example.test', 'old sent', '', '', 'sent', ${old}, now() + interval '1 day'),
                 ('test', 'old@example.test', 'old waiting', '', '', 'pending', ${old}, now() + interval '1 day')
          RETURNING id::text, status`,
    );
    await sweepExpired(database.db, new Date());
    const left = await rows<{ id: string }>(
      database.db,
      sql`SELECT id::text FROM email_outbox WHERE to_address = 'old@example.test'`,
    );
    expect(left.map((r) => r.id)).toEqual(made.filter((m) => m.status === 'pending').map((m) => m.id));
    await database.db.execute(sql`DELETE FROM email_outbox WHERE to_address = 'old@example.test'`);
  });

  it('answers 404 on the sending routes and sends nothing when SMTP_URL is not set', async () => {
    const quiet = await buildApp({ database, config: configWith(null) });
    await quiet.ready();
    try {
      const person = await signedIn(quiet, 'Quiet');
      expect((await person.get('/api/me/email')).body).toMatchObject({ sending: false });
      expect(
        (await person.request({ method: 'PUT', url: '/api/me/email', body: { email: 'q@example.test' } }))
          .status,
      ).toBe(404);
      expect((await person.post('/api/email/test')).status).toBe(404);
    } finally {
      await quiet.close();
    }
  });
});
