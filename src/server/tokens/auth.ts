import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  lacksScopeMessage,
  TOKEN_FORBIDDEN_MESSAGE,
  TOKEN_INVALID_MESSAGE,
  TOKEN_PATTERN,
  type TokenScope,
  tokenAllows,
} from '../../shared/tokens';
import { type Executor, rows, sql } from '../db/client';
import { HttpError } from '../http/errors';
import { enforce } from '../http/rateLimits';
import { hashToken, type Session, type SessionCache } from '../http/session';
import { declaredTokenAccess } from './policy';

/** A token's session id: its hash under its own prefix, so it never meets a cookie session's id. */
export const tokenSessionId = (tokenHash: string) => `pat:${tokenHash}`;

/** `last_used_at` moves at most this often, so a busy script does not cost a write per request. */
export const LAST_USED_EVERY_MS = 60_000;

/**
 * The session a personal access token stands for, or null when it is malformed, unknown, revoked or
 * expired. The last three are one query that finds no row, so they answer alike and in about the
 * same time. A token looked up in the last few seconds is trusted from the session cache, as cookie
 * sessions are; revoking drops it from this instance's cache at once (other instances within
 * SESSION_CACHE_MS).
 */
export async function tokenSession(
  db: Executor,
  secret: string,
  cache: SessionCache,
): Promise<Session | null> {
  if (!TOKEN_PATTERN.test(secret)) return null;
  const hash = hashToken(secret);
  const id = tokenSessionId(hash);
  const cached = cache.get(id);
  if (cached?.token) {
    if (cached.token.expiresAt > Date.now()) return cached;
    cache.delete(id);
    return null;
  }
  const [row] = await rows<{
    id: number;
    scopes: string[];
    expires_at: Date | string;
    last_used_at: Date | string | null;
    user_id: number;
    name: string;
    phone: string | null;
    created_at: Date;
    updated_at: Date;
  }>(
    db,
    sql`SELECT t.id, t.scopes, t.expires_at, t.last_used_at,
               u.id AS user_id, u.name, u.phone, u.created_at, u.updated_at
        FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = ${hash} AND t.revoked_at IS NULL AND t.expires_at > now()`,
  );
  if (!row) return null;
  const lastUsed = row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime();
  if (Date.now() - lastUsed > LAST_USED_EVERY_MS) {
    // The condition is the row's, so several instances at once still write it once a minute.
    await db.execute(
      sql`UPDATE personal_access_tokens SET last_used_at = now()
          WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    );
  }
  const session: Session = {
    id,
    xsrfToken: '',
    user: {
      id: row.user_id,
      name: row.name,
      phone: row.phone ?? '',
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    token: { id: row.id, scopes: row.scopes, expiresAt: new Date(row.expires_at).getTime() },
  };
  cache.set(session);
  return session;
}

/**
 * Authenticates an /api request by its bearer token and applies the route's declared policy
 * (policy.ts): 401 for a token that is not valid, 403 for a route no token may reach or one that
 * needs a scope the token lacks, 429 past the token's own write budget. The request's cookies are
 * never consulted: a bearer request carries no cookie authority, even when a browser sends both.
 */
export async function authenticateBearer(
  app: FastifyInstance,
  request: FastifyRequest,
  secret: string,
  route: string,
  writes: boolean,
): Promise<void> {
  const session = await tokenSession(app.database.db, secret, app.sessionCache);
  if (!session?.token) {
    throw new HttpError(
      401,
      TOKEN_INVALID_MESSAGE,
      {},
      { 'WWW-Authenticate': 'Bearer realm="outpost", error="invalid_token"' },
    );
  }
  request.session = session;
  const access = declaredTokenAccess(request.method, route, request.routeOptions.config) ?? 'never';
  if (access === 'never') throw new HttpError(403, TOKEN_FORBIDDEN_MESSAGE);
  if (!tokenAllows(session.token.scopes, access)) {
    throw new HttpError(403, lacksScopeMessage(access satisfies TokenScope));
  }
  if (writes) await enforce(app.limits.tokenWrites, request, 'changes with this token in a short time');
}
