import type { FastifyRequest } from 'fastify';
import type { TokenAccess } from '../../shared/tokens';
import type { SmsProvider } from '../auth/sms';
import type { UserRow } from '../auth/users';
import type { Database } from '../db/client';
import type { AppConfig } from '../env';
import type { ChangeBus } from '../events/changeBus';
import type { Metrics } from '../metrics/registry';
import { HttpError } from './errors';
import type { RateLimits } from './rateLimits';
import type { ReadCache } from './readCache';
import type { Session, SessionCache } from './session';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    changes: ChangeBus;
    limits: RateLimits;
    sessionCache: SessionCache;
    readCache: ReadCache;
    sms: SmsProvider;
    /** The time for sign-in codes; tests move it forward. */
    clock: () => Date;
    config: AppConfig;
    /** Every route as registered, so tests can enumerate the state-changing ones. */
    routeTable: { method: string; url: string; public: boolean; tokenAccess: TokenAccess | null }[];
    /** True once a shutdown began: readiness answers 503 (health/shutdown.ts). */
    draining: boolean;
    metrics: Metrics;
  }
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** Routes open without a signed-in session. */
    public?: boolean;
    /**
     * What a personal access token may do here (ARCHITECTURE §4); routes that leave it out take
     * tokens/policy.ts's table, and a route in neither admits no token.
     */
    tokenAccess?: TokenAccess;
    /** The API reference page and its files (openapi/plugin.ts): public, and no session is looked up. */
    referencePage?: boolean;
  }
}

/** The signed-in user of a request that passed the auth hook. */
export function currentUser(request: FastifyRequest): UserRow {
  const user = request.session?.user;
  if (!user) throw new HttpError(401, 'Unauthenticated.');
  return user;
}
