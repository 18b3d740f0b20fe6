import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { dkimSign } from 'mailauth';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDiskStore } from '../../../testkit/files';
import { type Engine, openTestDatabase, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Attachment } from '../../shared/attachments';
import type { Item } from '../../shared/item';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadReplyKey, replyLocalPart } from '../email/replyAddress';
import { loadConfig } from '../env';
import type { DnsResolver } from './service';

const DOMAIN = 'in.outpost.test';
const HTTP_TOKEN = 'inbound-secret-0123456789abcdef';
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

// The sender's domain publishes a DKIM key and a DMARC policy; another domain has a key of its own.
const senderKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = (keys: typeof senderKeys) =>
  keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privateKey = (keys: typeof senderKeys) =>
  keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const DNS: Record<string, string[]> = {
  'TXT _dmarc.example.test': ['v=DMARC1; p=reject'],
  'TXT s1._domainkey.example.test': [`v=DKIM1; k=rsa; p=${publicKey(senderKeys)}`],
  'TXT s1._domainkey.other.test': [`v=DKIM1; k=rsa; p=${publicKey(otherKeys)}`],
};

/** A resolver that knows only the records above: everything else does not exist. */
const testDns: DnsResolver = async (name, type) => {
  const found = DNS[`${type} ${name.toLowerCase()}`];
  if (!found) throw Object.assign(new Error(`query${type} ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return found.map((record) => [record]);
};

interface MailApp {
  app: FastifyInstance;
  database: Database;
  log: string[];
  smtpPort: number;
  close(): Promise<void>;
}

/** A real app with mail in on (SMTP on a free port, the HTTP route), its log kept in `log`. */
async function mailApp(
  engine: Engine,
  inbound: Partial<ReturnType<typeof loadConfig>['email']['inbound']> = {},
): Promise<MailApp> {
  const database = await openTestDatabase(engine);
  const files = await tempDiskStore();
  const log: string[] = [];
  const email = loadConfig({}).email;
  const app = await buildApp({
    database,
    files: files.store,
    logger: true,
    logStream: { write: (line) => log.push(line) },
    dnsResolver: testDns,
    config: {
      seedSampleUsers: true,
      host: '127.0.0.1',
      email: {
        ...email,
        inbound: {
          smtpPort: 0,
          domain: DOMAIN,
          httpToken: HTTP_TOKEN,
          trustUnauthenticated: true,
          maxBytes: 200_000,
          ...inbound,
        },
      },
    },
  });
  await app.ready();
  return {
    app,
    database,
    log,
    smtpPort: app.inboundSmtp.port ?? 0,
    async close() {
      await app.close();
      await database.close();
      await files.close();
    },
  };
}

/** Gives a person a verified address, as a verification link or an OIDC sign-in would. */
async function verify(database: Database, client: TestClient, email: string): Promise<void> {
  await database.db.execute(
    sql`INSERT INTO user_emails (user_id, email, verified_at) VALUES (${client.user!.id}, ${email}, now())`,
  );
}

/** A raw MIME message. */
async function compose(options: Mail.Options): Promise<Buffer> {
  return new MailComposer({ messageId: `<${randomUUID()}@example.test>`, ...options }).compile().build();
}

/** The message with a DKIM signature of `domain`'s key prepended. */
async function signed(raw: Buffer, domain = 'example.test', keys = senderKeys): Promise<Buffer> {
  const result = await dkimSign(raw, {
    signatureData: [{ signingDomain: domain, selector: 's1', privateKey: privateKey(keys) }],
  } as unknown as Parameters<typeof dkimSign>[1]);
  expect(result.errors).toEqual([]);
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}

/** Sends over real SMTP to the app's listener; the server's answer, or the error it refused with. */
async function sendSmtp(
  port: number,
  raw: Buffer,
  envelope: { from: string; to: string[] },
): Promise<{ ok: boolean; code: number | undefined; response: string }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    const info = await transport.sendMail({ envelope, raw });
    return { ok: true, code: 250, response: info.response };
  } catch (error) {
    const e = error as { responseCode?: number; response?: string; message: string };
    return { ok: false, code: e.responseCode, response: e.response ?? e.message };
  } finally {
    transport.close();
  }
}

/** Alex's campaign 'Fence' with its inbound address; Alex's verified address is alex@example.test. */
async function fenceCampaign(m: MailApp): Promise<{ alex: TestClient; campaign: Item; address: string }> {
  const alex = await signedIn(m.app, 'Alex');
  const campaign = await alex.create({ title: 'Fence', type: 'campaign' });
  await verify(m.database, alex, `alex.${campaign.id}@example.test`);
  const answer = await alex.get<{ address: string }>(`/api/campaigns/${campaign.id}/inbound_address`);
  expect(answer.status, answer.text).toBe(200);
  return { alex, campaign, address: answer.body.address };
}

const senderOf = (campaign: Item) => `alex.${campaign.id}@example.test`;

async function tasksIn(database: Database, campaignId: number): Promise<{ id: number; title: string }[]> {
  return rows(
    database.db,
    sql`SELECT id, title FROM items WHERE parent_id = ${campaignId} AND type = 'task' ORDER BY id`,
  );
}

async function inboundRows(database: Database, to: string) {
  return rows<{
    outcome: string;
    reason: string | null;
    item_id: number | null;
    from_address: string | null;
  }>(
    database.db,
    sql`SELECT outcome, reason, item_id, from_address FROM inbound_emails WHERE to_address = ${to} ORDER BY id`,
  );
}

/** POSTs a raw message to the HTTP route. */
function postRaw(app: FastifyInstance, raw: Buffer, options: { token?: string | null; query?: string } = {}) {
  const token = options.token === undefined ? HTTP_TOKEN : options.token;
  return app.inject({
    method: 'POST',
    url: `/api/inbound/email${options.query ?? ''}`,
    headers: {
      'content-type': 'message/rfc822',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    payload: raw,
  });
}

describe.each(testEngines())('mail in (%s)', (engine) => {
  describe('trusting senders (INBOUND_TRUST_UNAUTHENTICATED)', () => {
    let m: MailApp;
    beforeAll(async () => {
      m = await mailApp(engine);
    });
    afterAll(() => m.close());

    it("turns a member's mail with a PDF, over SMTP, into a task with the subject, the words without the quoted history, and the file", async () => {
      const { alex, campaign, address } = await fenceCampaign(m);
      const raw = await compose({
        from: `Alex <${senderOf(campaign)}>`,
        to: address,
        subject: 'Re: Fix the fence',
        text: 'Please fix the fence by Friday.\n\nOn Mon, 3 Mar 2025 at 10:00, Blair <blair@example.test> wrote:\n> the old words\n> more old words\n',
        attachments: [{ filename: 'quote.pdf', content: PDF, contentType: 'application/pdf' }],
      });
      const sent = await sendSmtp(m.smtpPort, raw, { from: senderOf(campaign), to: [address] });
      expect(sent, sent.response).toMatchObject({ ok: true, code: 250 });

      const [task] = await tasksIn(m.database, campaign.id);
      expect(task?.title).toBe('Fix the fence');
      const item = await alex.item(task!.id);
      expect(item.description).toBe('Please fix the fence by Friday.');
      expect(item.user_id).toBe(alex.user!.id);
      const files = await alex.get<{ data: Attachment[] }>(`/api/items/${task!.id}/attachments`);
      expect(files.body.data).toHaveLength(1);
      expect(files.body.data[0]).toMatchObject({
        name: 'quote.pdf',
        type: 'application/pdf',
        size: PDF.length,
      });
      const bytes = await m.app.inject({
        url: files.body.data[0]!.url,
        headers: { cookie: alex.cookieHeader() },
      });
      expect(bytes.statusCode).toBe(200);
      expect(Buffer.compare(bytes.rawPayload, PDF)).toBe(0);
      // Through the API's write path: the campaign's feed has it, made by mail.
      const feed = await alex.get<{ data: { action: string; item: { id: number }; via?: string | null }[] }>(
        `/api/campaigns/${campaign.id}/activity`,
      );
      expect(feed.body.data.find((e) => e.item.id === task!.id)).toMatchObject({
        action: 'created',
        via: 'email',
      });
      expect(await inboundRows(m.database, address)).toEqual([
        { outcome: 'task', reason: null, item_id: task!.id, from_address: senderOf(campaign) },
      ]);
    });

    it("makes nothing of a stranger's mail, records and logs why, and never logs the message's words", async () => {
      const { campaign, address } = await fenceCampaign(m);
      const raw = await compose({
        from: 'mallory@example.test',
        to: address,
        subject: 'Buy now',
        text: 'secret words of the stranger',
      });
      const sent = await sendSmtp(m.smtpPort, raw, { from: 'mallory@example.test', to: [address] });
      expect(sent.ok).toBe(false);
      expect(sent.code).toBe(550);
      expect(sent.response).toContain('not a verified address');

      expect(await tasksIn(m.database, campaign.id)).toEqual([]);
      const [row] = await inboundRows(m.database, address);
      expect(row).toMatchObject({ outcome: 'refused', from_address: 'mallory@example.test', item_id: null });
      expect(row?.reason).toContain('not a verified address');
      const lines = m.log.filter((line) => line.includes(address));
      expect(
        lines.some(
          (line) => line.includes('inbound mail refused') && line.includes('not a verified address'),
        ),
      ).toBe(true);
      expect(m.log.some((line) => line.includes('secret words'))).toBe(false);
    });

    it("refuses a campaign's viewer and a verified person who is not a member: only owners and editors add tasks", async () => {
      const { alex, campaign, address } = await fenceCampaign(m);
      const casey = await signedIn(m.app, 'Casey');
      const dana = await signedIn(m.app, 'Dana');
      await share(alex, campaign, 'viewer', casey);
      await verify(m.database, casey, `casey.${campaign.id}@example.test`);
      await verify(m.database, dana, `dana.${campaign.id}@example.test`);
      for (const [who, why] of [
        ['casey', 'only views'],
        ['dana', 'not a member'],
      ] as const) {
        const from = `${who}.${campaign.id}@example.test`;
        const raw = await compose({ from, to: address, subject: 'Hi', text: 'x' });
        const sent = await sendSmtp(m.smtpPort, raw, { from, to: [address] });
        expect(sent.code).toBe(550);
        expect(sent.response).toContain(why);
      }
      expect(await tasksIn(m.database, campaign.id)).toEqual([]);
    });

    it('bounces a replaced address at RCPT and makes nothing of it; an address at another domain is no relay', async () => {
      const { alex, campaign, address } = await fenceCampaign(m);
      const rotated = await alex.post<{ address: string }>(
        `/api/campaigns/${campaign.id}/inbound_address/rotate`,
      );
      expect(rotated.status).toBe(200);
      expect(rotated.body.address).not.toBe(address);
      expect(rotated.body.address).toMatch(new RegExp(`^c-[a-z0-9]{22}@${DOMAIN.replaceAll('.', '\\.')}$`));
      const raw = await compose({ from: senderOf(campaign), to: address, subject: 'Old address', text: 'x' });
      const old = await sendSmtp(m.smtpPort, raw, { from: senderOf(campaign), to: [address] });
      expect(old.ok).toBe(false);
      expect(old.code).toBe(550);
      expect(old.response).toContain('5.1.1');

      const relay = await sendSmtp(m.smtpPort, raw, {
        from: senderOf(campaign),
        to: ['someone@elsewhere.test'],
      });
      expect(relay.code).toBe(550);
      const lookalike = await sendSmtp(m.smtpPort, raw, {
        from: senderOf(campaign),
        to: [`${rotated.body.address.split('@')[0]}@elsewhere.test`],
      });
      expect(lookalike.code).toBe(550);
      expect(m.log.filter((line) => line.includes('refused at RCPT') && line.includes(address))).toHaveLength(
        1,
      );

      // The old address by HTTP too: refused, and nothing made.
      const http = await postRaw(m.app, raw);
      expect(http.json().results).toEqual([
        { to: address, outcome: 'refused', reason: expect.stringContaining('No campaign or reply') },
      ]);
      expect(await tasksIn(m.database, campaign.id)).toEqual([]);

      // The new one works.
      const fresh = await compose({
        from: senderOf(campaign),
        to: rotated.body.address,
        subject: 'New',
        text: 'y',
      });
      const ok = await sendSmtp(m.smtpPort, fresh, { from: senderOf(campaign), to: [rotated.body.address] });
      expect(ok.code).toBe(250);
      expect((await tasksIn(m.database, campaign.id)).map((t) => t.title)).toEqual(['New']);
    });

    it('refuses a message over the size cap and keeps nothing of it', async () => {
      const { campaign, address } = await fenceCampaign(m);
      const raw = await compose({
        from: senderOf(campaign),
        to: address,
        subject: 'Huge',
        text: 'big',
        attachments: [{ filename: 'big.bin', content: Buffer.alloc(300_000, 7) }],
      });
      const sent = await sendSmtp(m.smtpPort, raw, { from: senderOf(campaign), to: [address] });
      expect(sent.ok).toBe(false);
      expect(sent.code).toBe(552);
      const http = await postRaw(m.app, raw);
      expect(http.statusCode).toBe(413);
      expect(http.json().message).toContain('INBOUND_MAX_BYTES');
      expect(await tasksIn(m.database, campaign.id)).toEqual([]);
      expect(await inboundRows(m.database, address)).toEqual([]);
    });

    it('turns a reply to a notification into a comment by that person, and refuses another sender or someone who lost access', async () => {
      const { alex, campaign } = await fenceCampaign(m);
      const blair = await signedIn(m.app, 'Blair');
      await share(alex, campaign, 'editor', blair);
      await verify(m.database, blair, `blair.${campaign.id}@example.test`);
      const task = await alex.create({ title: 'Paint it', type: 'task', parent_id: campaign.id });
      const key = await loadReplyKey(m.database.db);
      const replyTo = `${replyLocalPart(key, blair.user!.id, task.id)}@${DOMAIN}`;
      const blairMail = `blair.${campaign.id}@example.test`;

      const reply = await compose({
        from: blairMail,
        to: replyTo,
        subject: 'Re: Paint it',
        text: 'Done, green it is.\n\n-- \nBlair\n\nOn Tue, Alex wrote:\n> Paint it',
      });
      const sent = await sendSmtp(m.smtpPort, reply, { from: blairMail, to: [replyTo] });
      expect(sent.code, sent.response).toBe(250);
      const comments = await alex.get<{ data: { body: string; user: { id: number } }[] }>(
        `/api/items/${task.id}/comments`,
      );
      expect(comments.body.data.map((c) => [c.body, c.user.id])).toEqual([
        ['Done, green it is.', blair.user!.id],
      ]);

      // Alex's address on Blair's reply token: not the person it was made for.
      const forged = await compose({ from: senderOf(campaign), to: replyTo, subject: 'Re', text: 'sneaky' });
      const refused = await sendSmtp(m.smtpPort, forged, { from: senderOf(campaign), to: [replyTo] });
      expect(refused.code).toBe(550);
      expect(refused.response).toContain('not the person');

      // Blair removed from the campaign: the reply makes nothing.
      const removed = await alex.delete(`/api/campaigns/${campaign.id}/members/${blair.user!.id}`);
      expect(removed.status).toBe(204);
      const late = await compose({ from: blairMail, to: replyTo, subject: 'Re', text: 'one more thing' });
      const lost = await sendSmtp(m.smtpPort, late, { from: blairMail, to: [replyTo] });
      expect(lost.code).toBe(550);
      expect(lost.response).toContain('no longer sees');
      const after = await alex.get<{ data: unknown[] }>(`/api/items/${task.id}/comments`);
      expect(after.body.data).toHaveLength(1);
      expect((await inboundRows(m.database, replyTo)).map((r) => r.outcome)).toEqual([
        'comment',
        'refused',
        'refused',
      ]);
    });

    it('takes raw MIME by HTTP with the bearer secret, and the same message twice makes one task', async () => {
      const { campaign, address } = await fenceCampaign(m);
      const raw = await compose({ from: senderOf(campaign), to: address, subject: 'By HTTP', text: 'hello' });

      expect((await postRaw(m.app, raw, { token: null })).statusCode).toBe(401);
      expect((await postRaw(m.app, raw, { token: 'opk_not-the-secret' })).statusCode).toBe(401);
      expect(await tasksIn(m.database, campaign.id)).toEqual([]);

      const first = await postRaw(m.app, raw);
      expect(first.statusCode, first.body).toBe(200);
      const [task] = await tasksIn(m.database, campaign.id);
      expect(first.json()).toEqual({ results: [{ to: address, outcome: 'task', item_id: task!.id }] });

      const again = await postRaw(m.app, raw);
      expect(again.statusCode).toBe(200);
      expect(again.json().results[0]).toMatchObject({ to: address, outcome: 'task', item_id: task!.id });
      expect(await tasksIn(m.database, campaign.id)).toHaveLength(1);

      // Over SMTP too: a redelivery is answered 250 and makes nothing more.
      const redelivered = await sendSmtp(m.smtpPort, raw, { from: senderOf(campaign), to: [address] });
      expect(redelivered.code).toBe(250);
      expect(await tasksIn(m.database, campaign.id)).toHaveLength(1);

      // `?to=` names the recipient when the headers do not.
      const bcc = await compose({
        from: senderOf(campaign),
        to: 'list@example.test',
        subject: 'Bcc',
        text: 'z',
      });
      expect((await postRaw(m.app, bcc)).statusCode).toBe(422);
      const named = await postRaw(m.app, bcc, { query: `?to=${encodeURIComponent(address)}` });
      expect(named.json().results[0]).toMatchObject({ outcome: 'task' });
      expect(await tasksIn(m.database, campaign.id)).toHaveLength(2);
      // A forwarder's Delivered-To names it too.
      const forwarded = await compose({
        from: senderOf(campaign),
        to: 'list@example.test',
        subject: 'Forwarded',
        text: 'z',
        headers: { 'Delivered-To': address },
      });
      expect((await postRaw(m.app, forwarded)).json().results).toEqual([
        { to: address, outcome: 'task', item_id: expect.any(Number) },
      ]);
    });

    it('keeps a subject with CR, LF or NUL one clean title, an empty one becomes "(no subject)", and a message without a Message-ID still makes one task', async () => {
      const { campaign, address } = await fenceCampaign(m);
      const nasty = Buffer.from('Buy\r\nBcc: eve@example.test\0 now').toString('base64');
      const raw = Buffer.from(
        [
          `From: ${senderOf(campaign)}`,
          `To: ${address}`,
          `Subject: =?UTF-8?B?${nasty}?=`,
          'Content-Type: text/plain; charset=utf-8',
          '',
          'body with a NUL =00 here',
          '',
        ].join('\r\n'),
      );
      const answer = await postRaw(m.app, raw);
      expect(answer.statusCode, answer.body).toBe(200);
      // Without a Message-ID the message is known by its bytes: again, it makes nothing more.
      expect((await postRaw(m.app, raw)).json().results[0].reason).toContain('received before');
      const empty = await compose({ from: senderOf(campaign), to: address, text: 'no subject here' });
      expect((await postRaw(m.app, empty)).statusCode).toBe(200);
      expect((await tasksIn(m.database, campaign.id)).map((t) => t.title)).toEqual([
        'Buy Bcc: eve@example.test now',
        '(no subject)',
      ]);
    });

    it("gives a campaign's address to its owner and editors only", async () => {
      const { alex, campaign, address } = await fenceCampaign(m);
      const blair = await signedIn(m.app, 'Blair');
      const casey = await signedIn(m.app, 'Casey');
      const dana = await signedIn(m.app, 'Dana');
      await share(alex, campaign, 'editor', blair);
      await share(alex, campaign, 'viewer', casey);
      const url = `/api/campaigns/${campaign.id}/inbound_address`;
      expect((await blair.get(url)).body).toEqual({ address });
      expect((await casey.get(url)).status).toBe(403);
      expect((await dana.get(url)).status).toBe(404);
      expect((await casey.post(`${url}/rotate`)).status).toBe(403);
      expect((await dana.post(`${url}/rotate`)).status).toBe(404);
      expect((await alex.get(url)).body).toEqual({ address });
    });
  });

  describe('checking DMARC', () => {
    let m: MailApp;
    beforeAll(async () => {
      m = await mailApp(engine, { trustUnauthenticated: false });
    });
    afterAll(() => m.close());

    it("accepts a member's mail signed with its domain's key, and refuses it unsigned or signed by another domain", async () => {
      const { campaign, address } = await fenceCampaign(m);
      const mail = (subject: string) =>
        compose({ from: senderOf(campaign), to: address, subject, text: 'words' });

      const good = await sendSmtp(m.smtpPort, await signed(await mail('Signed')), {
        from: senderOf(campaign),
        to: [address],
      });
      expect(good.code, good.response).toBe(250);

      const unsigned = await sendSmtp(m.smtpPort, await mail('Unsigned'), {
        from: senderOf(campaign),
        to: [address],
      });
      expect(unsigned.code).toBe(550);
      expect(unsigned.response).toContain('DMARC');

      const foreign = await sendSmtp(
        m.smtpPort,
        await signed(await mail('Foreign'), 'other.test', otherKeys),
        {
          from: senderOf(campaign),
          to: [address],
        },
      );
      expect(foreign.code).toBe(550);

      // By HTTP only an aligned DKIM signature counts, as over SMTP here.
      const byHttp = await postRaw(m.app, await signed(await mail('Signed by HTTP')));
      expect(byHttp.json().results[0]).toMatchObject({ outcome: 'task' });
      const unsignedHttp = await postRaw(m.app, await mail('Unsigned by HTTP'));
      expect(unsignedHttp.json().results[0]).toMatchObject({ outcome: 'refused' });

      expect((await tasksIn(m.database, campaign.id)).map((t) => t.title)).toEqual([
        'Signed',
        'Signed by HTTP',
      ]);
      expect(
        m.log.filter((line) => line.includes('inbound mail refused') && line.includes('DMARC')),
      ).toHaveLength(3);
    });
  });

  describe('with mail in off', () => {
    let m: MailApp;
    beforeAll(async () => {
      m = await mailApp(engine, { smtpPort: null, domain: null, httpToken: null });
    });
    afterAll(() => m.close());

    it('answers 404 for the address routes and the HTTP route, and listens for no SMTP', async () => {
      const alex = await signedIn(m.app, 'Alex');
      const campaign = await alex.create({ title: 'Quiet', type: 'campaign' });
      expect((await alex.get(`/api/campaigns/${campaign.id}/inbound_address`)).status).toBe(404);
      expect((await alex.post(`/api/campaigns/${campaign.id}/inbound_address/rotate`)).status).toBe(404);
      expect((await postRaw(m.app, Buffer.from('From: a@b.test\r\n\r\nx'))).statusCode).toBe(404);
      expect(m.app.inboundSmtp.port).toBeNull();
    });
  });
});
