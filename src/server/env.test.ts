import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_AUTH_WARNING, INBOUND_TRUST_WARNING, loadConfig, TRUST_PROXY_TRUE_WARNING } from './env';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts `npm start`'s server entry with `env` and collects what it prints until it exits or `until` shows. */
function startServer(env: Record<string, string>, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const done = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(output);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server printed no matching line in time:\n${output}`));
    }, 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) done();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', done);
  });
}

describe('start-up settings', () => {
  it('warns that demo sign-in is on when DATABASE_URL is set and AUTH_MODE is not', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/outpost' }).warnings).toEqual([DEMO_AUTH_WARNING]);
  });

  it('does not warn when AUTH_MODE is chosen, or on the embedded database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/outpost', AUTH_MODE: 'otp' }).warnings).toEqual([]);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/outpost', AUTH_MODE: 'demo' }).warnings).toEqual([]);
    expect(loadConfig({}).warnings).toEqual([]);
  });

  it('prints the demo sign-in warning when the server starts on PostgreSQL without AUTH_MODE', async () => {
    // A database nobody listens on: the warning must come before the server even tries to connect.
    const output = await startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, /AUTH_MODE/);
    expect(output).toContain(DEMO_AUTH_WARNING);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset or turned off (F12)', () => {
    for (const value of [undefined, '', 'false', '0', 'no', 'off']) {
      const config = loadConfig(value === undefined ? {} : { TRUST_PROXY: value });
      expect(config.trustProxy, String(value)).toBe(false);
      expect(config.warnings).toEqual([]);
    }
  });

  it('reads a number as the count of proxy hops in front of the server (F12)', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '1' }).warnings).toEqual([]);
  });

  it('reads a comma list of proxy addresses and ranges (F12)', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.1.0/24,::1 ,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.1.0/24',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('reads true as one proxy hop and warns, since trusting every hop lets a client choose its own address (F12)', () => {
    for (const value of ['true', 'yes', 'on', 'TRUE']) {
      const config = loadConfig({ TRUST_PROXY: value });
      expect(config.trustProxy, value).toBe(1);
      expect(config.warnings).toEqual([TRUST_PROXY_TRUE_WARNING]);
    }
    expect(TRUST_PROXY_TRUE_WARNING).toContain('TRUST_PROXY=1');
  });

  it('refuses anything else with a message naming TRUST_PROXY (F12)', () => {
    for (const value of [
      'maybe',
      '-1',
      '1.5',
      '10.0.0.300',
      '10.0.0.0/33',
      '10.0.0.1,,',
      'proxy.example.com',
      '1000',
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: must be/);
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('is off when unset or empty, and refuses a token too short to be a secret', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 16 characters/,
    );
  });
});

describe('OIDC_*', () => {
  it('is off unless issuer and client id are both set, and each mistake names its variable', () => {
    expect(loadConfig({}).oidc).toBeNull();
    const on = loadConfig({
      OIDC_ISSUER: 'https://id.example.com/',
      OIDC_CLIENT_ID: 'outpost',
      OIDC_ALLOWED_EMAIL_DOMAINS: 'Example.com, @team.org',
      PUBLIC_URL: 'https://outpost.example.com/app',
    }).oidc;
    expect(on).toMatchObject({
      issuer: 'https://id.example.com/',
      clientId: 'outpost',
      clientSecret: undefined,
      name: 'single sign-on',
      scopes: 'openid profile email',
      allowedEmailDomains: ['example.com', 'team.org'],
      redirectUri: 'https://outpost.example.com/api/auth/oidc/callback',
    });
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID: /);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'outpost' })).toThrow(/OIDC_ISSUER: /);
    expect(() => loadConfig({ OIDC_ISSUER: 'http://id.example.com', OIDC_CLIENT_ID: 'x' })).toThrow(
      /OIDC_ISSUER: must be the https/,
    );
    expect(() =>
      loadConfig({
        OIDC_ISSUER: 'https://id.example.com',
        OIDC_CLIENT_ID: 'x',
        OIDC_SCOPES: 'profile email',
      }),
    ).toThrow(/OIDC_SCOPES: must include openid/);
    expect(() =>
      loadConfig({
        OIDC_ISSUER: 'https://id.example.com',
        OIDC_CLIENT_ID: 'x',
        OIDC_ALLOWED_EMAIL_DOMAINS: 'a;b',
      }),
    ).toThrow(/OIDC_ALLOWED_EMAIL_DOMAINS: /);
  });
});

describe('S3_*', () => {
  const keys = { S3_ACCESS_KEY_ID: 'AKIA1', S3_SECRET_ACCESS_KEY: 'secret' };
  it('keeps files on disk unless S3_BUCKET is set, and reads the bucket with its keys', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: 'outpost-files', ...keys }).s3).toEqual({
      bucket: 'outpost-files',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    // A service of one's own answers by path unless told otherwise.
    const own = { S3_BUCKET: 'files', S3_ENDPOINT: 'http://127.0.0.1:9000', ...keys };
    expect(loadConfig(own).s3).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
    expect(loadConfig({ ...own, S3_FORCE_PATH_STYLE: 'false', S3_REGION: 'eu-west-3' }).s3).toMatchObject({
      forcePathStyle: false,
      region: 'eu-west-3',
    });
  });

  it('stops start-up naming the variable: a bucket without keys, keys without a bucket, a bad endpoint', () => {
    expect(() => loadConfig({ S3_BUCKET: 'files' })).toThrow(/S3_ACCESS_KEY_ID: is required when S3_BUCKET/);
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'a' })).toThrow(
      /S3_SECRET_ACCESS_KEY: is required when S3_BUCKET/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', ...keys })).toThrow(
      /S3_BUCKET: is required when S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are set/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000', ...keys })).toThrow(
      /S3_ENDPOINT: must be the http\(s\) address/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'Files_2', ...keys })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'maybe', ...keys })).toThrow(
      /S3_FORCE_PATH_STYLE: must be true or false/,
    );
  });
});

describe('SMTP_URL, MAIL_FROM and INBOUND_*', () => {
  it('sends no mail and takes none unless told to, and reads the settings when given', () => {
    const off = loadConfig({});
    expect(off.email).toMatchObject({ smtpUrl: null, from: 'Outpost <outpost@localhost>' });
    expect(off.email.inbound).toMatchObject({
      smtpPort: null,
      domain: null,
      httpToken: null,
      trustUnauthenticated: false,
    });
    const on = loadConfig({
      SMTP_URL: 'smtps://outpost:pw@mail.example.com:465',
      MAIL_FROM: 'Acme Tasks <tasks@example.com>',
      PUBLIC_URL: 'https://tasks.example.com',
      INBOUND_SMTP_PORT: '2525',
      INBOUND_EMAIL_TOKEN: 'a-secret-of-sixteen-or-more',
    });
    expect(on.email).toMatchObject({
      smtpUrl: 'smtps://outpost:pw@mail.example.com:465',
      from: 'Acme Tasks <tasks@example.com>',
    });
    // The secret addresses are at PUBLIC_URL's host unless INBOUND_DOMAIN says otherwise.
    expect(on.email.inbound).toMatchObject({
      smtpPort: 2525,
      domain: 'tasks.example.com',
      httpToken: 'a-secret-of-sixteen-or-more',
    });
    expect(
      loadConfig({ INBOUND_SMTP_PORT: '25', INBOUND_DOMAIN: 'In.Example.com' }).email.inbound.domain,
    ).toBe('in.example.com');
  });

  it('stops start-up naming the variable for a malformed address, port, domain or token', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com:587' })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL: /);
    expect(() => loadConfig({ MAIL_FROM: 'Outpost\r\nBcc: x@example.com <a@example.com>' })).toThrow(
      /MAIL_FROM: /,
    );
    expect(() => loadConfig({ INBOUND_SMTP_PORT: 'twenty-five' })).toThrow(
      /INBOUND_SMTP_PORT: must be a port number/,
    );
    expect(() => loadConfig({ INBOUND_DOMAIN: 'not a domain' })).toThrow(/INBOUND_DOMAIN: must be a domain/);
    expect(() => loadConfig({ EMBEDDED_SHARED_BUFFERS: '16' })).toThrow(
      /EMBEDDED_SHARED_BUFFERS: must be a size such as 16MB/,
    );
    expect(loadConfig({ EMBEDDED_SHARED_BUFFERS: '16MB' }).embeddedSharedBuffers).toBe('16MB');
    expect(loadConfig({}).embeddedSharedBuffers).toBeNull();
    expect(() => loadConfig({ INBOUND_EMAIL_TOKEN: 'short' })).toThrow(
      /INBOUND_EMAIL_TOKEN: must be at least 16/,
    );
  });

  it('warns when mail in is told to believe unauthenticated senders', () => {
    expect(loadConfig({ INBOUND_TRUST_UNAUTHENTICATED: 'true' }).warnings).toContain(INBOUND_TRUST_WARNING);
    expect(loadConfig({}).warnings).not.toContain(INBOUND_TRUST_WARNING);
  });
});
