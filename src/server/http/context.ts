import type { FastifyRequest } from 'fastify';
import type { TokenAccess } from '../../shared/tokens';
import type { Database } from '../db/client';
import type { AppConfig } from '../env';
import { HttpError } from './errors';
import type { WriteEffect } from './idempotency';
import type { ItemChildServers } from './itemChildren';
import type { RateLimits } from './rateLimits';
import type { ReadCache } from './readCache';
import type { Session, SessionCache, UserRow } from './session';

// What http/ knows of the app; what the resources add to it (the change bus, SMS, metrics) app.ts declares.
declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    /** The side effects every write runs (runWrite), registered by app.ts. */
    writeEffects: readonly WriteEffect[];
    /** Each child kind's rows for the sync page and the webhooks, registered by app.ts. */
    itemChildren: ItemChildServers;
    limits: RateLimits;
    sessionCache: SessionCache;
    readCache: ReadCache;
    /** The time for sign-in codes; tests move it forward. */
    clock: () => Date;
    config: AppConfig;
    /** Every route as registered, so tests can enumerate the state-changing ones. */
    routeTable: {
      method: string;
      url: string;
      public: boolean;
      /** The route checks a credential of its own (config.selfAuthenticated). */
      selfAuthenticated: boolean;
      tokenAccess: TokenAccess | null;
    }[];
    /** True once a shutdown began: readiness answers 503 (health/shutdown.ts). */
    draining: boolean;
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
    /**
     * The route checks a credential of its own (a signed token in the URL, or a bearer secret that is
     * not a personal access token): no session is looked up, no anti-forgery token or personal access
     * token is asked for. Mail programs' one-click unsubscribe and providers' inbound mail use it.
     */
    selfAuthenticated?: boolean;
  }
}

/** The signed-in user of a request that passed the auth hook. */
export function currentUser(request: FastifyRequest): UserRow {
  const user = request.session?.user;
  if (!user) throw new HttpError(401, 'Unauthenticated.');
  return user;
}
