import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/freePort';
import { startChildServer } from '../../../testkit/childServer';
import { startMailServer, testEmailConfig } from '../../../testkit/mailServer';
import { openTestDatabase } from '../../../testkit/server';
import { buildApp } from '../app';
import { openDatabase } from '../db/client';
import { loadConfig } from '../env';

/** A settings problem is never a silently missing feature: start-up stops, or readiness names it. */

const ready = async (app: Awaited<ReturnType<typeof buildApp>>) => {
  const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
  return { status: response.statusCode, body: response.json() as { ready: boolean; message?: string } };
};
const live = async (app: Awaited<ReturnType<typeof buildApp>>) =>
  (await app.inject({ method: 'GET', url: '/api/health' })).statusCode;

const closing: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of closing.splice(0).reverse()) await thing.close();
});

describe('settings that fail loudly', () => {
  it('a malformed DATABASE_URL, OIDC_ISSUER, SMTP_URL or S3_* stops start-up naming the variable', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/outpost' })).toThrow(
      /DATABASE_URL: must be a postgres:\/\//,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://[oops' })).toThrow(
      /DATABASE_URL: must be a postgres:\/\//,
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'id.example.com', OIDC_CLIENT_ID: 'x' })).toThrow(
      /OIDC_ISSUER: must be/,
    );
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com:25' })).toThrow(/SMTP_URL: must be an smtp:\/\//);
    expect(() => loadConfig({ S3_BUCKET: 'UPPER_case' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ S3_ENDPOINT: 'ftp://s3.example.com' })).toThrow(
      /S3_ENDPOINT: must be the http/,
    );
  });

  it('a DATABASE_URL nobody answers stops start-up with its name and no password, and the process exits 1', async () => {
    const port = await freePort();
    const url = `postgres://outpost:hunter2@127.0.0.1:${port}/outpost`;
    await expect(openDatabase({ url })).rejects.toThrow(
      `DATABASE_URL: cannot connect to PostgreSQL at postgres://outpost:***@127.0.0.1:${port}/outpost: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    const started = startChildServer({ DATABASE_URL: url, AUTH_MODE: 'otp' }, 30_000);
    const error = (await started.then(
      () => null,
      (e: unknown) => e as Error,
    )) as Error;
    expect(error.message).toContain('exited with code 1');
    expect(error.message).toContain('Outpost did not start: DATABASE_URL: cannot connect to PostgreSQL');
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('an OIDC_ISSUER that cannot be discovered makes readiness 503 naming it, while liveness stays 200', async () => {
    const port = await freePort();
    const database = await openTestDatabase('pglite');
    closing.push(database);
    const app = await buildApp({
      database,
      config: {
        oidc: {
          issuer: `https://127.0.0.1:${port}/`,
          clientId: 'outpost',
          clientSecret: 'secret',
          name: 'Company',
          scopes: 'openid',
          allowedEmailDomains: [],
          redirectUri: 'http://localhost:3000/api/auth/oidc/callback',
        },
      },
    });
    closing.push(app);
    const answer = await ready(app);
    expect(answer.status).toBe(503);
    expect(answer.body.message).toMatch(
      new RegExp(
        `^OIDC_ISSUER: the OpenID provider at https://127\\.0\\.0\\.1:${port}/ cannot be discovered \\(.+\\)\\.$`,
      ),
    );
    expect(await live(app)).toBe(200);
  });

  it('an SMTP_URL whose server does not answer, or refuses the password, makes readiness 503 naming it; a working one is ready', async () => {
    const mail = await startMailServer();
    closing.push(mail);
    const port = await freePort();
    const database = await openTestDatabase('pglite');
    closing.push(database);
    const cases = [
      {
        smtpUrl: `smtp://outpost:secret@127.0.0.1:${port}`,
        status: 503,
        // nodemailer's code for a refused connection.
        message: `SMTP_URL: the mail server at 127.0.0.1:${port} does not take mail (ESOCKET).`,
      },
      {
        smtpUrl: mail.url('outpost', 'not-the-password'),
        status: 503,
        message: `SMTP_URL: the mail server at 127.0.0.1:${mail.port} does not take mail (EAUTH: the user or password is wrong).`,
      },
      { smtpUrl: mail.url(), status: 200, message: undefined },
    ];
    for (const expected of cases) {
      const app = await buildApp({
        database,
        config: { email: testEmailConfig(null, { smtpUrl: expected.smtpUrl }) },
      });
      try {
        const answer = await ready(app);
        expect(answer.status, expected.smtpUrl).toBe(expected.status);
        expect(answer.body.message).toBe(expected.message);
        expect(answer.body.message ?? '').not.toContain('secret');
        expect(await live(app)).toBe(200);
      } finally {
        await app.close();
      }
    }
  });
});
