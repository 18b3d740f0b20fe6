import { isIP } from 'node:net';
import { z } from 'zod';
import { ATTACHMENT_DEFAULT_MAX_BYTES } from '../shared/attachments';
import { BURST_MS } from '../shared/notifications';
import { parseEmailDomains } from '../shared/oidc';
import { RETRY_SCHEDULE_MS } from '../shared/webhooks';

/** Waits before each retry of a mail the SMTP server did not take: 1 min, 5 min, 30 min, 2 h, 6 h. */
export const EMAIL_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** Printed when TRUST_PROXY=true is read as one hop. */
export const TRUST_PROXY_TRUE_WARNING =
  'WARNING: TRUST_PROXY=true would believe every X-Forwarded-For entry, so any client could name its own address and walk past the per-address limits. It is read as TRUST_PROXY=1 (one proxy in front of the server). Set TRUST_PROXY to the number of proxies, or to their addresses, to silence this.';

/** Who may set X-Forwarded-*: nobody, the nearest `n` hops, or the listed addresses and ranges. */
export type TrustProxy = false | number | string[];

const TRUST_PROXY_PROBLEM =
  'must be false, a number of proxies in front of the server (such as 1), or a comma list of their addresses or CIDR ranges';
/** The names proxy-addr knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxySetting = z
  .string()
  .optional()
  .transform((raw, ctx): { value: TrustProxy; trueGiven: boolean } => {
    const value = (raw ?? '').trim().toLowerCase();
    if (['', 'false', '0', 'no', 'off'].includes(value)) return { value: false, trueGiven: false };
    // Trusting every hop is what lets a client rotate X-Forwarded-For past the rate limits; the
    // setting most deployments meant by it is the one proxy they run.
    if (['true', 'yes', 'on'].includes(value)) return { value: 1, trueGiven: true };
    if (/^\d+$/.test(value) && Number(value) <= 32) return { value: Number(value), trueGiven: false };
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return { value: entries, trueGiven: false };
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_PROBLEM });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * The embedded engine's shared buffers (PostgreSQL's own default, 128MB, when unset): most of an
   * idle embedded server's memory; the image sets 16MB (Dockerfile).
   */
  EMBEDDED_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9]\d*(MB|GB)$/, 'must be a size such as 16MB or 1GB')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .refine(
      (v) => URL.canParse(v),
      'must be a postgres:// URL such as postgres://user:password@host:5432/outpost',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  AUTH_MODE: z.enum(['demo', 'otp'], { error: 'must be demo or otp' }).default('demo'),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as US')
    .default('US'),
  SEED_SAMPLE_USERS: flag.optional(),
  TRUST_PROXY: trustProxySetting,
  SESSION_IDLE_MINUTES: z.coerce
    .number({ error: 'must be a number of minutes' })
    .int()
    .min(1)
    .default(14 * 24 * 60),
  SMS_PROVIDER: z.enum(['console', 'webhook'], { error: 'must be console or webhook' }).default('console'),
  SMS_WEBHOOK_URL: z.url({ error: 'must be an http(s) URL' }).optional(),
  SMS_WEBHOOK_TOKEN: z.string().optional(),
  SESSION_CACHE_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).default(5000),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) address people open Outpost at' })
    .default('http://localhost:3000'),
  RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(1200),
  /** Writes per minute per personal access token (each token its own budget). */
  RATE_LIMIT_TOKEN_WRITES_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(0)
    .default(600),
  RATE_LIMIT_LOGINS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(60),
  /** Most live items one account may own (F0); batches past it are refused. */
  USER_MAX_ITEMS: z.coerce.number({ error: 'must be a number' }).int().min(1).default(250_000),
  /** Most people one campaign may hold, its owner included (issue 48). */
  CAMPAIGN_MAX_MEMBERS: z.coerce.number({ error: 'must be a number' }).int().min(2).max(100_000).default(500),
  RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(0)
    .default(120),
  /** The built client the server serves; a deploy may point it at another build. */
  CLIENT_DIR: z.string().min(1).default('dist/client'),
  /** Web Push (VAPID) keys, base64url; without them the server generates a pair once and keeps it. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'must be a base64url P-256 private key')
    .optional(),
  /** Who push services may contact about our pushes: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// URL')
    .default('mailto:outpost@example.com'),
  /** Lets push endpoints on loopback (and plain http) through: for tests' local receivers only. */
  PUSH_ALLOW_LOOPBACK: flag.default(false),
  /** Lets webhook URLs on loopback (and plain http) through: for tests' local receivers only. */
  WEBHOOK_ALLOW_LOOPBACK: flag.default(false),
  PUSH_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(100)
    .default(10_000),
  REMINDER_TICK_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(50)
    .default(1000),
  /** The bearer token GET /metrics asks for; without it there are no metrics (a 404). */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Single sign-on (ARCHITECTURE §4): on when OIDC_ISSUER and OIDC_CLIENT_ID are both set. */
  OIDC_ISSUER: z
    .url({ protocol: /^https$/, error: 'must be the https:// address of your OpenID provider (its issuer)' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  OIDC_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  OIDC_NAME: z.string().trim().max(40, 'must be at most 40 characters (it is the button’s label)').optional(),
  OIDC_SCOPES: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be scopes separated by spaces')
    .refine((v) => v.split(' ').includes('openid'), 'must include openid')
    .optional(),
  OIDC_ALLOWED_EMAIL_DOMAINS: z
    .string()
    .regex(/^[\s,@a-zA-Z0-9.-]*$/, 'must be a comma list of domains such as example.com')
    .optional(),
  /** The largest file one upload may carry, in bytes (ARCHITECTURE §4 'Files on items'). */
  ATTACHMENT_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .min(1, 'must be at least 1 byte')
    .max(Number.MAX_SAFE_INTEGER)
    .default(ATTACHMENT_DEFAULT_MAX_BYTES),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Files on items go to this S3-compatible bucket instead of DATA_DIR/files (ARCHITECTURE §4). */
  S3_BUCKET: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name (3-63 lower-case letters, digits, dots and dashes)',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) address of the S3-compatible service' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_ACCESS_KEY_ID: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  S3_FORCE_PATH_STYLE: flag.optional(),
  /** Mail out (ARCHITECTURE §4 'Email'): on when set. */
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587',
    })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/, 'must be an address such as Outpost <outpost@example.com>')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Lets the mailer reach an SMTP server on loopback without TLS checks: for tests' local servers only. */
  SMTP_ALLOW_INSECURE: flag.default(false),
  /** Mail in over SMTP on this port (ARCHITECTURE §4 'Email'); unset listens for none. */
  INBOUND_SMTP_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).optional(),
  /** The domain of the campaigns' secret addresses and of the reply addresses. */
  INBOUND_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
      'must be a domain such as in.example.com',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The bearer token of POST /api/inbound/email; without it that route answers 404. */
  INBOUND_EMAIL_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Accepts mail without DMARC alignment: for tests only. */
  INBOUND_TRUST_UNAUTHENTICATED: flag.default(false),
  /** CalDAV at /dav/ (ARCHITECTURE §4 'CalDAV'): on unless `off`, which answers 404 on every DAV path. */
  CALDAV: flag.default(true),
  /** The largest inbound message, in bytes (attachments included). */
  INBOUND_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024)
    .default(25 * 1024 * 1024),
});

export interface AppConfig {
  sessionIdleMinutes: number;
  /** How long a looked-up session is trusted without asking the database again; 0 always asks. */
  sessionCacheMs: number;
  sms: { provider: 'console' | 'webhook'; webhookUrl: string | undefined; webhookToken: string | undefined };
  /** Per session; 0 turns the limit off (benchmarks). */
  writesPerMinute: number;
  /** Per personal access token, apart from the session's; 0 turns the limit off. */
  tokenWritesPerMinute: number;
  /** Per address; 0 turns the limit off. */
  loginsPerMinute: number;
  /**
   * Refused writes (POST, PATCH, PUT, DELETE) without a signed-in session, per address; past it every
   * such write from the address is a 429 until the minute is over. 0 turns the limit off.
   */
  anonymousWritesPerMinute: number;
  /**
   * Most live items one account may own (issue 29 F0). Checked where creating is cheap, the batch
   * (200 a request); single creates are bounded by writesPerMinute.
   */
  userMaxItems: number;
  /** Most people one campaign may hold, its owner included; a member past it is a 422 (M13). */
  campaignMaxMembers: number;
  /**
   * The address people open Outpost at (no path): passkeys belong to its host (the relying party)
   * and are only accepted from its origin.
   */
  publicUrl: { origin: string; host: string };
  port: number;
  host: string;
  dataDir: string;
  /** The embedded engine's shared_buffers, or null for PostgreSQL's default. */
  embeddedSharedBuffers: string | null;
  databaseUrl: string | undefined;
  authMode: 'demo' | 'otp';
  defaultCountry: string;
  seedSampleUsers: boolean;
  /**
   * Whose X-Forwarded-* headers are believed: false (none), the nearest `n` hops (only safe when the
   * server cannot be reached but through its proxies), or the proxies' addresses and ranges.
   */
  trustProxy: TrustProxy;
  logLevel: string;
  /** The bearer token of GET /metrics; undefined answers it 404. */
  metricsToken: string | undefined;
  /** CalDAV at /dav/ (caldav/routes.ts); false answers 404 on every DAV path. */
  caldav: boolean;
  push: {
    vapidPublicKey: string | undefined;
    vapidPrivateKey: string | undefined;
    subject: string;
    /** Accept push endpoints on loopback and over plain http (tests' local receivers). */
    allowLoopback: boolean;
    /** How long one push may take before it is abandoned. */
    timeoutMs: number;
    /** Pushes under way at once, over all push services, and to any one endpoint (F4). */
    maxConcurrent: number;
    maxPerEndpoint: number;
    /** The first retry's wait after a 429 or 5xx without Retry-After; each next one waits 4× longer. */
    retryBaseMs: number;
  };
  webhooks: {
    /** Accept webhook URLs on loopback and over plain http (tests' local receivers). */
    allowLoopback: boolean;
    /** How long one delivery may take before it counts as failed (10 s). */
    timeoutMs: number;
    /** How long a sender's claim on a delivery lasts; past it another sender may send it again. */
    leaseMs: number;
    /** Deliveries under way at once to one webhook. */
    maxPerEndpoint: number;
    /** The waits before each retry (ARCHITECTURE §4); tests shorten them. */
    retryScheduleMs: readonly number[];
  };
  /** How often due reminders are looked for; 0 turns the loop off (tests that drive it by hand). */
  reminderTickMs: number;
  /** Where the built client lives; null serves no pages (tests). */
  clientDir: string | null;
  /** Single sign-on with OpenID Connect; null when OIDC_ISSUER and OIDC_CLIENT_ID are not set. */
  oidc: OidcConfig | null;
  /** Where files on items live: an S3-compatible bucket, or null for DATA_DIR/files. */
  s3: S3Config | null;
  /** The largest file one upload may carry; past it the upload is a 413 naming the limit. */
  attachmentMaxBytes: number;
  /** Mail out and in (ARCHITECTURE §4 'Email'). */
  email: EmailConfig;
  /** Things an operator must hear about at start-up (printed by index.ts). */
  warnings: string[];
}

/** Mail out (`SMTP_URL`, null when unset) and in (`INBOUND_*`). */
export interface EmailConfig {
  smtpUrl: string | null;
  /** The From of every mail Outpost sends. */
  from: string;
  /** Loopback SMTP servers without TLS checks (tests). */
  allowInsecure: boolean;
  /** How often the mailer looks for due digests and work left by other instances; 0 turns it off. */
  tickMs: number;
  /**
   * How long an assignment rests before it is mailed: a run of assignments folds into one entry
   * within this time (SYNC.md P8), so it is one mail ('Alex assigned you 12 items'), not twelve.
   * Other kinds never fold and go at once.
   */
  batchMs: number;
  /** The waits before each retry of a failed send; after the last, the mail is given up. */
  retryScheduleMs: readonly number[];
  /** How long a sender's claim on a mail lasts; past it another instance may send it again. */
  leaseMs: number;
  inbound: {
    /** The SMTP listener's port; null listens for none. */
    smtpPort: number | null;
    /** The domain of the secret and reply addresses; null when mail in is off. */
    domain: string | null;
    /** The bearer token of POST /api/inbound/email; null answers that route 404. */
    httpToken: string | null;
    trustUnauthenticated: boolean;
    maxBytes: number;
  };
}

/** An S3-compatible bucket for files on items (`S3_*`). */
export interface S3Config {
  bucket: string;
  /** The service's address; undefined is Amazon S3 itself. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`. */
  forcePathStyle: boolean;
}

/** The `S3_*` settings read together: a bucket needs its keys, and keys without a bucket are a mistake. */
function s3Config(e: z.infer<typeof envSchema>): S3Config | null {
  const named = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => e[k]);
  if (!e.S3_BUCKET) {
    // Files would quietly go to DATA_DIR/files while the operator believes they go to S3.
    if (named.length > 0) {
      throw new Error(
        `Invalid environment:\n  S3_BUCKET: is required when ${named.join(', ')} ${named.length > 1 ? 'are' : 'is'} set`,
      );
    }
    return null;
  }
  for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
    if (!e[key]) throw new Error(`Invalid environment:\n  ${key}: is required when S3_BUCKET is set`);
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION ?? 'us-east-1',
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    // Services other than Amazon's (MinIO, Garage, s3rver) mostly answer only by path.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
  };
}

/** The OpenID provider Outpost signs people in with (ARCHITECTURE §4 'Other ways to sign in'). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Undefined for a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** The button's 'Sign in with {name}'. */
  name: string;
  scopes: string;
  /** Lower-case domains an email must end in; empty allows anyone the provider signs in. */
  allowedEmailDomains: string[];
  /** `{PUBLIC_URL}/api/auth/oidc/callback`, registered at the provider. */
  redirectUri: string;
}

/** Printed when mail in believes any sender (a test setting that must never reach a deployment). */
export const INBOUND_TRUST_WARNING =
  'WARNING: INBOUND_TRUST_UNAUTHENTICATED=true takes mail in without checking DMARC, so anyone can send as a member and create tasks in their campaigns. It is for tests only: unset it.';

/** Printed when a shared database runs with demo sign-in only because AUTH_MODE was left out. */
export const DEMO_AUTH_WARNING =
  'WARNING: DATABASE_URL is set but AUTH_MODE is not, so demo sign-in is on: anyone can sign in as any phone number without a code. Set AUTH_MODE=otp for a real deployment, or AUTH_MODE=demo to keep demo sign-in on purpose.';

/** Reads and validates the environment; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY) {
    throw new Error(
      'Invalid environment:\n  VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together',
    );
  }
  if (!e.OIDC_ISSUER !== !e.OIDC_CLIENT_ID) {
    const missing = e.OIDC_ISSUER ? 'OIDC_CLIENT_ID' : 'OIDC_ISSUER';
    throw new Error(
      `Invalid environment:\n  ${missing}: OIDC_ISSUER and OIDC_CLIENT_ID go together (single sign-on needs both)`,
    );
  }
  if (e.SMS_PROVIDER === 'webhook' && !e.SMS_WEBHOOK_URL) {
    throw new Error('Invalid environment:\n  SMS_WEBHOOK_URL: is required when SMS_PROVIDER is webhook');
  }
  const s3 = s3Config(e);
  return {
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionCacheMs: e.SESSION_CACHE_MS,
    publicUrl: { origin: new URL(e.PUBLIC_URL).origin, host: new URL(e.PUBLIC_URL).hostname },
    sms: { provider: e.SMS_PROVIDER, webhookUrl: e.SMS_WEBHOOK_URL, webhookToken: e.SMS_WEBHOOK_TOKEN },
    writesPerMinute: e.RATE_LIMIT_WRITES_PER_MINUTE,
    tokenWritesPerMinute: e.RATE_LIMIT_TOKEN_WRITES_PER_MINUTE,
    loginsPerMinute: e.RATE_LIMIT_LOGINS_PER_MINUTE,
    anonymousWritesPerMinute: e.RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE,
    userMaxItems: e.USER_MAX_ITEMS,
    campaignMaxMembers: e.CAMPAIGN_MAX_MEMBERS,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    embeddedSharedBuffers: e.EMBEDDED_SHARED_BUFFERS ?? null,
    databaseUrl: e.DATABASE_URL,
    authMode: e.AUTH_MODE,
    defaultCountry: e.DEFAULT_COUNTRY,
    // Sample assignees exist by default on the embedded database only; a shared deployment opts in.
    seedSampleUsers: e.SEED_SAMPLE_USERS ?? !e.DATABASE_URL,
    trustProxy: e.TRUST_PROXY.value,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    caldav: e.CALDAV,
    push: {
      vapidPublicKey: e.VAPID_PUBLIC_KEY,
      vapidPrivateKey: e.VAPID_PRIVATE_KEY,
      subject: e.VAPID_SUBJECT,
      allowLoopback: e.PUSH_ALLOW_LOOPBACK,
      timeoutMs: e.PUSH_TIMEOUT_MS,
      maxConcurrent: 32,
      maxPerEndpoint: 2,
      retryBaseMs: 1_000,
    },
    webhooks: {
      allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK,
      timeoutMs: 10_000,
      leaseMs: 60_000,
      maxPerEndpoint: 5,
      retryScheduleMs: RETRY_SCHEDULE_MS,
    },
    reminderTickMs: e.REMINDER_TICK_MS,
    clientDir: e.CLIENT_DIR,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME || 'single sign-on',
            scopes: e.OIDC_SCOPES ?? 'openid profile email',
            allowedEmailDomains: parseEmailDomains(e.OIDC_ALLOWED_EMAIL_DOMAINS),
            redirectUri: `${new URL(e.PUBLIC_URL).origin}/api/auth/oidc/callback`,
          }
        : null,
    s3,
    attachmentMaxBytes: e.ATTACHMENT_MAX_BYTES,
    email: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `Outpost <outpost@${new URL(e.PUBLIC_URL).hostname}>`,
      allowInsecure: e.SMTP_ALLOW_INSECURE,
      tickMs: 15_000,
      batchMs: BURST_MS,
      retryScheduleMs: EMAIL_RETRY_SCHEDULE_MS,
      leaseMs: 60_000,
      inbound: {
        smtpPort: e.INBOUND_SMTP_PORT ?? null,
        domain:
          e.INBOUND_DOMAIN ??
          (e.INBOUND_SMTP_PORT !== undefined || e.INBOUND_EMAIL_TOKEN
            ? new URL(e.PUBLIC_URL).hostname
            : null),
        httpToken: e.INBOUND_EMAIL_TOKEN ?? null,
        trustUnauthenticated: e.INBOUND_TRUST_UNAUTHENTICATED,
        maxBytes: e.INBOUND_MAX_BYTES,
      },
    },
    warnings: [
      ...(e.DATABASE_URL && !env.AUTH_MODE ? [DEMO_AUTH_WARNING] : []),
      ...(e.TRUST_PROXY.trueGiven ? [TRUST_PROXY_TRUE_WARNING] : []),
      ...(e.INBOUND_TRUST_UNAUTHENTICATED ? [INBOUND_TRUST_WARNING] : []),
    ],
  };
}
