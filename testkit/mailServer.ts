import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { type EmailConfig, loadConfig } from '../src/server/env';
import type { TestClient } from './testClient';

/** A mail the test server took, parsed, with the raw bytes. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

export interface TestMailServer {
  port: number;
  /** `smtp://user:pass@127.0.0.1:port` for SMTP_URL. */
  url(user?: string, password?: string): string;
  received: ReceivedMail[];
  /** Resolves once `count` mails (in all) have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** The next RCPT TO answers with this error (e.g. a 450 to make a send fail for now), for `times` tries. */
  failNext(times: number, message?: string, responseCode?: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) for tests: plain TCP on loopback, AUTH PLAIN/LOGIN with one
 * password (anything else gets its 535), every message parsed with mailparser.
 */
export async function startMailServer(
  options: { user?: string; password?: string } = {},
): Promise<TestMailServer> {
  const user = options.user ?? 'outpost';
  const password = options.password ?? 'secret';
  const received: ReceivedMail[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let failures = 0;
  let failure = { message: 'Mailbox busy, try later', code: 450 };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password)
        return callback(null, { user: auth.username });
      const error = Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 });
      return callback(error);
    },
    onRcptTo(_address, _session, callback) {
      if (failures > 0) {
        failures--;
        return callback(Object.assign(new Error(failure.message), { responseCode: failure.code }));
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
            });
            for (const waiter of waiters.filter((w) => received.length >= w.count)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve();
            }
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: (u = user, p = password) =>
      `smtp://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}`,
    received,
    failNext(times, message = 'Mailbox busy, try later', responseCode = 450) {
      failures = times;
      failure = { message, code: responseCode };
    },
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} mails, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Settings for a test app that mails through `server` (no tick: tests drive the outbox). */
export function testEmailConfig(
  server: Pick<TestMailServer, 'url'> | null,
  overrides: Partial<EmailConfig> = {},
): EmailConfig {
  return {
    ...loadConfig({}).email,
    smtpUrl: server ? server.url() : null,
    allowInsecure: true,
    tickMs: 0,
    batchMs: 0,
    retryScheduleMs: [300, 300],
    ...overrides,
  };
}

/** The verification link's token in a mail, or throws. */
export function verificationToken(mail: ReceivedMail): string {
  const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1];
  if (!token) throw new Error(`no verification link in: ${mail.parsed.text}`);
  return token;
}

/** Gives the client's person `email`, verified through the mailed link, as a person would. */
export async function verifyAddress(
  client: TestClient,
  email: string,
  server: TestMailServer,
): Promise<void> {
  const before = server.received.length;
  const put = await client.request({ method: 'PUT', url: '/api/me/email', body: { email } });
  if (put.status !== 202) throw new Error(`PUT /api/me/email: ${put.status} ${put.text}`);
  const mails = await server.waitFor(before + 1);
  const mail = mails
    .slice(before)
    .find((m) => m.envelope.to.includes(email.toLowerCase()) || m.envelope.to.includes(email));
  if (!mail) throw new Error(`no verification mail to ${email}`);
  const verified = await client.post('/api/me/email/verify', { token: verificationToken(mail) });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
}
