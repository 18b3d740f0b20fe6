import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../auth/users';
import { HttpError } from '../http/errors';
import type { Session } from '../http/session';
import { tokenSession } from '../tokens/auth';

/** The scope a token needs to open /dav/ (ARCHITECTURE §4 'Personal access tokens'). */
export const CALDAV_SCOPE = 'caldav';

/**
 * How long a refused credential waits before its 401 (V7): every refusal (an unknown, revoked or
 * expired token, one without the `caldav` scope, a password that is no token) is answered this long
 * after the request came in, so the time says nothing of which it was.
 */
export const REFUSAL_DELAY_MS = 300;

export const CHALLENGE = 'Basic realm="Outpost CalDAV", charset="UTF-8"';
const REFUSED =
  'Sign in with any user name and a personal access token with the caldav scope as the password (Preferences › API tokens › Connect a calendar app).';

/** The password of a Basic `Authorization` header, or null when the header is absent or of another scheme. */
export function basicPassword(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return '';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? '' : decoded.slice(colon + 1);
}

const refusal = () => new HttpError(401, REFUSED, {}, { 'WWW-Authenticate': CHALLENGE });

/**
 * The user a /dav/ request signs in as: Basic auth with any user name and a `caldav`-scoped personal
 * access token as the password, and no other way (no cookie, no bearer). No credential is a 401 at
 * once (a client's first request, asking for the challenge); a wrong one a 401 after REFUSAL_DELAY_MS
 * from the request's start, whatever was wrong with it.
 */
export async function davUser(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const started = performance.now();
  const password = basicPassword(request.headers.authorization);
  if (password === null) throw refusal();
  let session: Session | null = null;
  try {
    session = await tokenSession(app.database.db, password, app.sessionCache);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
  }
  if (!session?.user || !session.token?.scopes.includes(CALDAV_SCOPE)) {
    const wait = REFUSAL_DELAY_MS - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    throw refusal();
  }
  request.session = session;
  return session.user;
}
