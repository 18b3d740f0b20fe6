import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizePhone } from '../../shared/phone';
import { rows, sql } from '../db/client';
import { HttpError } from './errors';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

export interface RateLimits {
  /** Sign-in attempts per address. */
  login: Limiter | null;
  /** Code requests per phone and per address. */
  codePerPhone: Limiter;
  codePerAddress: Limiter;
  /** Writes per person over all their sessions, on every instance. */
  writes: Limiter | null;
  /** Writes per personal access token: each token has its own budget, apart from the sessions'. */
  tokenWrites: Limiter | null;
}

const MINUTE = 60_000;

/** The limits of ARCHITECTURE §4: never in the way of normal use, in the way of guessing and floods. */
export function createRateLimits(app: FastifyInstance): RateLimits {
  const { loginsPerMinute, writesPerMinute, tokenWritesPerMinute } = app.config;
  return {
    login:
      loginsPerMinute > 0
        ? app.createRateLimit({
            max: loginsPerMinute,
            timeWindow: MINUTE,
            keyGenerator: (r) => `login:${r.ip}`,
          })
        : null,
    // In the database, so the budget is one for all instances (it guards a phone's owner from floods
    // of texts and an attacker from fresh codes).
    codePerPhone: sharedRateLimit(app, {
      max: 5,
      timeWindow: 15 * MINUTE,
      // The normalised phone, so '+1 (555) 123-4567' and '5551234567' share one budget.
      keyGenerator: (r) => {
        const raw = String((r.body as { phone?: unknown } | null)?.phone ?? '');
        return `code-phone:${normalizePhone(raw, app.config.defaultCountry) ?? raw}`;
      },
    }),
    codePerAddress: app.createRateLimit({
      max: 20,
      timeWindow: 15 * MINUTE,
      keyGenerator: (r) => `code-ip:${r.ip}`,
    }),
    // Per person, not per session (issue 62: nine sign-ins made nine budgets, 10,000 comments in
    // 133 s), and in the database, so neither another session nor another instance is a new budget.
    // Enforced only on signed-in cookie writes (app.ts), so a session always has its user.
    writes:
      writesPerMinute > 0
        ? sharedRateLimit(app, {
            max: writesPerMinute,
            timeWindow: MINUTE,
            keyGenerator: (r) => `writes:user:${r.session?.user?.id ?? r.ip}`,
          })
        : null,
    // Per token (its own budget, apart from its person's sessions), likewise shared by the instances.
    tokenWrites:
      tokenWritesPerMinute > 0
        ? sharedRateLimit(app, {
            max: tokenWritesPerMinute,
            timeWindow: MINUTE,
            keyGenerator: (r) => `writes:token:${r.session?.token?.id ?? r.ip}`,
          })
        : null,
  };
}

/**
 * A fixed-window limit kept in the shared `rate_buckets` table, so it holds across instances. One
 * atomic upsert counts the hit and starts a new window when the old one is over; concurrent hits on
 * one key serialise on its row, so none is lost. The time is the app's clock (tests move it).
 * Same answer shape as @fastify/rate-limit's limiters, so `enforce` takes either.
 */
export function sharedRateLimit(
  app: FastifyInstance,
  options: { max: number; timeWindow: number; keyGenerator: (request: FastifyRequest) => string },
): Limiter {
  const { max, timeWindow } = options;
  return async (request) => {
    const key = options.keyGenerator(request);
    const now = app.clock();
    const over = new Date(now.getTime() - timeWindow);
    const [bucket] = await rows<{ hits: number; window_started_at: Date | string }>(
      app.database.db,
      sql`INSERT INTO rate_buckets (key, window_started_at, hits) VALUES (${key}, ${now}, 1)
          ON CONFLICT (key) DO UPDATE SET
            hits = CASE WHEN rate_buckets.window_started_at <= ${over} THEN 1 ELSE rate_buckets.hits + 1 END,
            window_started_at = CASE WHEN rate_buckets.window_started_at <= ${over}
              THEN EXCLUDED.window_started_at ELSE rate_buckets.window_started_at END
          RETURNING hits, window_started_at`,
    );
    const hits = bucket?.hits ?? 1;
    if (hits <= max) return { isAllowed: true, key };
    const started = new Date(bucket?.window_started_at ?? now).getTime();
    // Clamped: a window started "in the future" (another instance's clock ahead) never waits longer.
    const ttl = Math.min(timeWindow, Math.max(1000, started + timeWindow - now.getTime()));
    return {
      isAllowed: false,
      key,
      max,
      timeWindow,
      remaining: 0,
      ttl,
      ttlInSeconds: Math.ceil(ttl / 1000),
      isExceeded: true,
      isBanned: false,
    };
  };
}

/** Counts the request against `limiter`; over the limit it is a 429 with Retry-After. */
export async function enforce(limiter: Limiter | null, request: FastifyRequest, what: string): Promise<void> {
  if (!limiter) return;
  const result = await limiter(request);
  if (result.isAllowed || !result.isExceeded) return;
  const seconds = Math.max(1, result.ttlInSeconds);
  throw new HttpError(
    429,
    `Too many ${what}. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
    {},
    {
      'Retry-After': String(seconds),
    },
  );
}
