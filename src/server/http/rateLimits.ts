import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizePhone } from '../../shared/phone';
import { HttpError } from './errors';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

export interface RateLimits {
  /** Sign-in attempts per address. */
  login: Limiter | null;
  /** Code requests per phone and per address. */
  codePerPhone: Limiter;
  codePerAddress: Limiter;
  /** Writes per session. */
  writes: Limiter | null;
}

const MINUTE = 60_000;

/** The limits of ARCHITECTURE §4: never in the way of normal use, in the way of guessing and floods. */
export function createRateLimits(app: FastifyInstance): RateLimits {
  const { loginsPerMinute, writesPerMinute } = app.config;
  return {
    login:
      loginsPerMinute > 0
        ? app.createRateLimit({
            max: loginsPerMinute,
            timeWindow: MINUTE,
            keyGenerator: (r) => `login:${r.ip}`,
          })
        : null,
    codePerPhone: app.createRateLimit({
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
    writes:
      writesPerMinute > 0
        ? app.createRateLimit({
            max: writesPerMinute,
            timeWindow: MINUTE,
            keyGenerator: (r) => `writes:${r.session?.id ?? r.ip}`,
          })
        : null,
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
