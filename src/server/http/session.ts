import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type SignInMethod, USER_AGENT_MAX } from '../../shared/devices';
import type { SignOutReason } from '../../shared/serverEvents';
import { VISITOR_XSRF_PREFIX } from '../../shared/visitorXsrf';
import { type Executor, rows, sql } from '../db/client';

/** A users row: the signed-in person of a session. */
export interface UserRow {
  id: number;
  name: string;
  /** Null for a person who came by single sign-on and has added no phone. */
  phone: string | null;
  created_at: Date;
  updated_at: Date;
}

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
  /** Set for a visitor who has not signed in: such a session has no row (see `anonymousSession`). */
  anonymous?: { expiresAt: Date };
  /**
   * Set when a personal access token authenticated the request (tokens/auth.ts): no cookie, no
   * anti-forgery token, and only what the token's scopes and the route's policy allow.
   */
  token?: { id: number; scopes: readonly string[]; expiresAt: number };
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
 *
 * It also keeps who must hear when a session ends on this instance (open event streams), so they
 * close at once; other instances notice when they next look the session up (`sessionAlive`).
 */
export class SessionCache {
  private readonly entries = new Map<string, { session: Session; at: number }>();
  private readonly endWatchers = new Map<string, Set<(reason?: SignOutReason) => void>>();
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
  /**
   * Calls `listener` once when session `id` ends on this instance, or on another one that said so
   * (E7), with the reason when it was a sign-out; the returned function unsubscribes.
   */
  onEnd(id: string, listener: (reason?: SignOutReason) => void): () => void {
    let set = this.endWatchers.get(id);
    if (!set) {
      set = new Set();
      this.endWatchers.set(id, set);
    }
    set.add(listener);
    return () => {
      const current = this.endWatchers.get(id);
      current?.delete(listener);
      if (current?.size === 0) this.endWatchers.delete(id);
    };
  }
  /**
   * The session ended (a sign-out, with its `reason`, or a sign-in that replaced it, without one):
   * forget it and tell its watchers.
   */
  ended(id: string, reason?: SignOutReason): void {
    this.entries.delete(id);
    const listeners = this.endWatchers.get(id);
    this.endWatchers.delete(id);
    for (const listener of listeners ?? []) listener(reason);
  }
  /** Sessions with a watcher, for tests. */
  watchedCount(): number {
    return this.endWatchers.size;
  }
}

/*
 * Anonymous sessions are stateless, so a visitor who only fetches the anti-forgery cookie costs no
 * row. The cookie token is `a.<issued at, base 36 ms>.<random>.<mac>`, the MAC an HMAC of the rest
 * under a server secret kept in `server_secrets` (the same for every instance), and the anti-forgery
 * token is an HMAC of the whole token. Only the server can mint either, a token lives ANONYMOUS_TTL_MS
 * from its issue, and its id is the token's SHA-256 as for real sessions. Signing in retires the
 * token: a row with its id and no usable anti-forgery token (removed by the sweeper once the token
 * would have expired anyway), checked on state-changing requests only.
 */
const ANONYMOUS_PREFIX = 'a.';
/** Tolerance for a token issued by an instance whose clock runs ahead. */
const ANONYMOUS_CLOCK_SKEW_MS = 5 * 60 * 1000;
const SECRET_NAME = 'anonymous_session_key';
const secrets = new WeakMap<object, Promise<Buffer>>();

/**
 * The anonymous-session key: generated by whichever instance comes first, then read by all. Loaded
 * once per database handle (buildApp loads it at start-up).
 */
export function sessionSecret(db: Executor): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      await db.execute(
        sql`INSERT INTO server_secrets (name, value) VALUES (${SECRET_NAME}, ${newToken()})
            ON CONFLICT (name) DO NOTHING`,
      );
      const [row] = await rows<{ value: string }>(
        db,
        sql`SELECT value FROM server_secrets WHERE name = ${SECRET_NAME}`,
      );
      if (!row) throw new Error('the anonymous session key could not be stored');
      return Buffer.from(row.value, 'base64url');
    })();
    secrets.set(db, secret);
    // A failure (the database away at start-up) is not remembered: the next request tries again.
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

const mac = (key: Buffer, purpose: string, value: string) =>
  createHmac('sha256', key).update(`${purpose}\0${value}`).digest('base64url');
/** An anonymous session's anti-forgery token, marked as a visitor's for the client (shared/visitorXsrf.ts). */
const visitorXsrf = (key: Buffer, token: string) =>
  `${VISITOR_XSRF_PREFIX}${mac(key, 'anonymous-xsrf', token)}`;

/** A token for an anonymous session issued at `issuedAt` (ms), with its anti-forgery token. */
export function anonymousToken(key: Buffer, issuedAt: number): { token: string; xsrfToken: string } {
  const body = `${ANONYMOUS_PREFIX}${issuedAt.toString(36)}.${randomBytes(16).toString('base64url')}`;
  const token = `${body}.${mac(key, 'anonymous-session', body)}`;
  return { token, xsrfToken: visitorXsrf(key, token) };
}

/** The anonymous session a token stands for, or null when the server did not mint it or it expired. */
function anonymousSession(key: Buffer, token: string, now: number): Session | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [, issued = '', random = '', given = ''] = parts;
  const body = `${ANONYMOUS_PREFIX}${issued}.${random}`;
  const expected = Buffer.from(mac(key, 'anonymous-session', body));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const issuedAt = Number.parseInt(issued, 36);
  if (!Number.isSafeInteger(issuedAt)) return null;
  if (issuedAt > now + ANONYMOUS_CLOCK_SKEW_MS || issuedAt + ANONYMOUS_TTL_MS <= now) return null;
  return {
    id: hashToken(token),
    xsrfToken: visitorXsrf(key, token),
    user: null,
    anonymous: { expiresAt: new Date(issuedAt + ANONYMOUS_TTL_MS) },
  };
}

/** True when sign-in has retired this anonymous session (its token must no longer pass a write). */
export async function anonymousSessionRetired(db: Executor, session: Session): Promise<boolean> {
  if (!session.anonymous) return false;
  const found = await rows<{ id: string }>(db, sql`SELECT id FROM sessions WHERE id = ${session.id}`);
  return found.length > 0;
}

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session behind the request's cookie, if it exists, has not expired and has not idled out. */
export async function loadSession(
  db: Executor,
  request: FastifyRequest,
  idleMinutes: number,
  cache: SessionCache,
): Promise<Session | null> {
  const token = request.cookies[sessionCookieName(request)];
  if (!token || token.length > 128) return null;
  if (token.startsWith(ANONYMOUS_PREFIX)) {
    const session = anonymousSession(await sessionSecret(db), token, Date.now());
    if (!session) return null;
    // Reads never look: an anonymous session sees nothing. Writes (sign-in) must not pass on a
    // token that an earlier sign-in retired.
    if (!READ_ONLY.has(request.method) && (await anonymousSessionRetired(db, session))) return null;
    return session;
  }
  return loadSessionById(db, hashToken(token), idleMinutes, cache);
}

/** The signed-in session `id` (a token's hash), if it exists, has not expired and has not idled out. */
export async function loadSessionById(
  db: Executor,
  id: string,
  idleMinutes: number,
  cache: SessionCache,
): Promise<Session | null> {
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

/**
 * Whether the signed-in session `id` still exists, for long-lived responses (event streams) that
 * outlive the request that checked it. Trusts the cache as requests do.
 */
export async function sessionAlive(
  db: Executor,
  id: string,
  idleMinutes: number,
  cache: SessionCache,
): Promise<boolean> {
  return (await loadSessionById(db, id, idleMinutes, cache))?.user != null;
}

/**
 * Starts a new session (a new id and a new anti-forgery token) and sets both cookies. A signed-in
 * session is a row; an anonymous one is a signed token and writes nothing.
 */
export async function startSession(
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number | null,
  via: SignInMethod = 'phone',
): Promise<Session> {
  let session: Session;
  let token: string;
  let expires: Date;
  if (userId === null) {
    const now = Date.now();
    const minted = anonymousToken(await sessionSecret(db), now);
    token = minted.token;
    expires = new Date(now + ANONYMOUS_TTL_MS);
    session = {
      id: hashToken(token),
      xsrfToken: minted.xsrfToken,
      user: null,
      anonymous: { expiresAt: expires },
    };
  } else {
    token = newToken();
    const xsrfToken = newToken();
    expires = new Date(Date.now() + USER_TTL_MS);
    // Kept only to name the device in Preferences; a header longer than any browser's is cut.
    const agent = request.headers['user-agent'];
    const userAgent = typeof agent === 'string' && agent !== '' ? agent.slice(0, USER_AGENT_MAX) : null;
    await db.execute(
      sql`INSERT INTO sessions (id, user_id, xsrf_token, expires_at, user_agent, via)
          VALUES (${hashToken(token)}, ${userId}, ${xsrfToken}, ${expires}, ${userAgent}, ${via})`,
    );
    session = { id: hashToken(token), xsrfToken, user: null };
  }
  const cookie = { path: '/', sameSite: 'lax' as const, expires, secure: isSecure(request) };
  reply.setCookie(sessionCookieName(request), token, { ...cookie, httpOnly: true });
  reply.setCookie(XSRF_COOKIE, session.xsrfToken, { ...cookie, httpOnly: false });
  return session;
}

/**
 * Ends the request's session: its row goes, streams open on it on this instance close (told the
 * `reason` of a sign-out, E7), and both cookies are cleared. An anonymous session has no row to
 * delete; when it ends because its visitor signs in (`retire`), its token is recorded as retired
 * until it would have expired, so it can never pass a write again.
 */
export async function endSession(
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  cache: SessionCache,
  options: { retire?: boolean; reason?: SignOutReason } = {},
): Promise<void> {
  const anonymous = request.session?.id === sessionId ? request.session.anonymous : undefined;
  cache.delete(sessionId);
  if (anonymous) {
    if (options.retire) {
      await db.execute(
        sql`INSERT INTO sessions (id, user_id, xsrf_token, expires_at)
            VALUES (${sessionId}, NULL, '', ${anonymous.expiresAt}) ON CONFLICT (id) DO NOTHING`,
      );
    }
  } else {
    await db.execute(sql`DELETE FROM sessions WHERE id = ${sessionId}`);
  }
  // After the row is gone, so a stream told to close finds nothing if it looks again.
  cache.ended(sessionId, options.reason);
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
