import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  AUTH_MODE: z.enum(['demo', 'otp'], { error: 'must be demo or otp' }).default('demo'),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as US')
    .default('US'),
  SEED_SAMPLE_USERS: flag.optional(),
  TRUST_PROXY: flag.default(false),
  SESSION_IDLE_MINUTES: z.coerce
    .number({ error: 'must be a number of minutes' })
    .int()
    .min(1)
    .default(14 * 24 * 60),
  SMS_PROVIDER: z.enum(['console', 'webhook'], { error: 'must be console or webhook' }).default('console'),
  SMS_WEBHOOK_URL: z.url({ error: 'must be an http(s) URL' }).optional(),
  SMS_WEBHOOK_TOKEN: z.string().optional(),
  SESSION_CACHE_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).default(5000),
  RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(1200),
  RATE_LIMIT_LOGINS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(60),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface AppConfig {
  sessionIdleMinutes: number;
  /** How long a looked-up session is trusted without asking the database again; 0 always asks. */
  sessionCacheMs: number;
  sms: { provider: 'console' | 'webhook'; webhookUrl: string | undefined; webhookToken: string | undefined };
  /** Per session; 0 turns the limit off (benchmarks). */
  writesPerMinute: number;
  /** Per address; 0 turns the limit off. */
  loginsPerMinute: number;
  /**
   * Refused writes (POST, PATCH, PUT, DELETE) without a signed-in session, per address; past it every
   * such write from the address is a 429 until the minute is over. 0 turns the limit off.
   */
  anonymousWritesPerMinute: number;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  authMode: 'demo' | 'otp';
  defaultCountry: string;
  seedSampleUsers: boolean;
  trustProxy: boolean;
  logLevel: string;
  push: {
    vapidPublicKey: string | undefined;
    vapidPrivateKey: string | undefined;
    subject: string;
    /** Accept push endpoints on loopback and over plain http (tests' local receivers). */
    allowLoopback: boolean;
    /** How long one push may take before it is abandoned. */
    timeoutMs: number;
  };
  /** How often due reminders are looked for; 0 turns the loop off (tests that drive it by hand). */
  reminderTickMs: number;
  /** Where the built client lives; null serves no pages (tests). */
  clientDir: string | null;
  /** Things an operator must hear about at start-up (printed by index.ts). */
  warnings: string[];
}

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
  if (e.SMS_PROVIDER === 'webhook' && !e.SMS_WEBHOOK_URL) {
    throw new Error('Invalid environment:\n  SMS_WEBHOOK_URL: is required when SMS_PROVIDER is webhook');
  }
  return {
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionCacheMs: e.SESSION_CACHE_MS,
    sms: { provider: e.SMS_PROVIDER, webhookUrl: e.SMS_WEBHOOK_URL, webhookToken: e.SMS_WEBHOOK_TOKEN },
    writesPerMinute: e.RATE_LIMIT_WRITES_PER_MINUTE,
    loginsPerMinute: e.RATE_LIMIT_LOGINS_PER_MINUTE,
    anonymousWritesPerMinute: e.RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    authMode: e.AUTH_MODE,
    defaultCountry: e.DEFAULT_COUNTRY,
    // Sample assignees exist by default on the embedded database only; a shared deployment opts in.
    seedSampleUsers: e.SEED_SAMPLE_USERS ?? !e.DATABASE_URL,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    push: {
      vapidPublicKey: e.VAPID_PUBLIC_KEY,
      vapidPrivateKey: e.VAPID_PRIVATE_KEY,
      subject: e.VAPID_SUBJECT,
      allowLoopback: e.PUSH_ALLOW_LOOPBACK,
      timeoutMs: e.PUSH_TIMEOUT_MS,
    },
    reminderTickMs: e.REMINDER_TICK_MS,
    clientDir: e.CLIENT_DIR,
    warnings: e.DATABASE_URL && !env.AUTH_MODE ? [DEMO_AUTH_WARNING] : [],
  };
}
