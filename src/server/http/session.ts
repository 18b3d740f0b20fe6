import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';

export const SESSION_COOKIE = 'outpost_session';
/** Over HTTPS the cookie takes the __Host- prefix: Secure, path /, no Domain, so no subdomain can plant it. */
export const SECURE_SESSION_COOKIE = '__Host-outpost_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
const ANONYMOUS_TTL_MS = 2 * 60 * 60 * 1000;
const USER_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface Session {
  id: string;
  xsrfToken: string;
  user: UserRow | null;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

const isSecure = (request: FastifyRequest) => request.protocol === 'https';
const sessionCookieName = (request: FastifyRequest) =>
  isSecure(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
/** Touch last_seen_at at most this often, so reads do not each cost a write. */
const TOUCH_AFTER_MS = 60_000;

/**
 * Sessions read in the last few seconds, so a burst of requests costs one lookup. Sign-out on this
 * instance drops the entry at once; on another instance it takes effect within `ttlMs`.
 */
export class SessionCache {
  private readonly entries = new Map<string, { session: Session; at: number }>();
  constructor(private readonly ttlMs: number) {}
  get(id: string): Session | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.ttlMs) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.session;
  }
  set(session: Session): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(session.id, { session, at: Date.now() });
  }
  delete(id: string): void {
    this.entries.delete(id);
  }
}

/** The session behind the request's cookie, if it exists, has not expired and has not idled out. */
export async function loadSession(
  db: Executor,
  request: FastifyRequest,
  idleMinutes: number,
  cache: SessionCache,
): Promise<Session | null> {
  const token = request.cookies[sessionCookieName(request)];
  if (!token || token.length > 128) return null;
  const id = hashToken(token);
  const cached = cache.get(id);
  if (cached) return cached;
  const [row] = await rows<{
    id: string;
    xsrf_token: string;
    user_id: number | null;
    name: string | null;
    phone: string | null;
    created_at: Date | null;
    updated_at: Date | null;
    last_seen_at: Date;
  }>(
    db,
    sql`SELECT s.id, s.xsrf_token, s.last_seen_at, u.id AS user_id, u.name, u.phone, u.created_at, u.updated_at
        FROM sessions s LEFT JOIN users u ON u.id = s.user_id
        WHERE s.id = ${id} AND s.expires_at > now()
          AND s.last_seen_at > now() - make_interval(mins => ${idleMinutes})`,
  );
  if (!row) return null;
  if (Date.now() - new Date(row.last_seen_at).getTime() > TOUCH_AFTER_MS) {
    await db.execute(sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${row.id}`);
  }
  const user =
    row.user_id === null
      ? null
      : {
          id: row.user_id,
          name: row.name ?? '',
          phone: row.phone ?? '',
          created_at: row.created_at!,
          updated_at: row.updated_at!,
        };
  const session = { id: row.id, xsrfToken: row.xsrf_token, user };
  cache.set(session);
  return session;
}

/** Starts a new session (a new id and a new anti-forgery token) and sets both cookies. */
export async function startSession(
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number | null,
): Promise<Session> {
  const token = newToken();
  const xsrfToken = newToken();
  const ttl = userId === null ? ANONYMOUS_TTL_MS : USER_TTL_MS;
  const expires = new Date(Date.now() + ttl);
  await db.execute(
    sql`INSERT INTO sessions (id, user_id, xsrf_token, expires_at) VALUES (${hashToken(token)}, ${userId}, ${xsrfToken}, ${expires})`,
  );
  const cookie = { path: '/', sameSite: 'lax' as const, expires, secure: isSecure(request) };
  reply.setCookie(sessionCookieName(request), token, { ...cookie, httpOnly: true });
  reply.setCookie(XSRF_COOKIE, xsrfToken, { ...cookie, httpOnly: false });
  return { id: hashToken(token), xsrfToken, user: null };
}

export async function endSession(
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  cache: SessionCache,
): Promise<void> {
  cache.delete(sessionId);
  await db.execute(sql`DELETE FROM sessions WHERE id = ${sessionId}`);
  const secure = isSecure(request);
  reply.clearCookie(sessionCookieName(request), { path: '/', secure });
  reply.clearCookie(XSRF_COOKIE, { path: '/', secure });
}

/** Re-sends the anti-forgery cookie of an existing session (it may have been cleared by script). */
export function sendXsrfCookie(request: FastifyRequest, reply: FastifyReply, session: Session): void {
  reply.setCookie(XSRF_COOKIE, session.xsrfToken, { path: '/', sameSite: 'lax', secure: isSecure(request) });
}

/** Constant-time comparison of the X-XSRF-TOKEN header with the session's token. */
export function xsrfMatches(session: Session | null, header: unknown): boolean {
  if (!session || typeof header !== 'string' || header.length === 0) return false;
  // Browsers may percent-encode cookie values they echo back.
  let value = header;
  try {
    value = decodeURIComponent(header);
  } catch {
    return false;
  }
  const a = Buffer.from(value);
  const b = Buffer.from(session.xsrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}
