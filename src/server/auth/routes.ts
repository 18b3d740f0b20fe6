import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { logoutSchema } from '../../shared/devices';
import { normalizePhone } from '../../shared/phone';
import { nameAfterSignIn } from '../../shared/profile';
import { loginSchema, phoneSchema, profilePatchSchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { HttpError, parseOrThrow, unprocessable } from '../http/errors';
import { runWrite } from '../http/idempotency';
import { enforce } from '../http/rateLimits';
import { anonymousSessionRetired, endSession, sendXsrfCookie, startSession } from '../http/session';
import { endAllSessions, sessionsEnded } from '../sessions/routes';
import { consumeCode, issueCode } from './loginCodes';
import { findOrCreateUser, renameUser, type UserRow, userJson } from './users';

const codeRequestSchema = z.strictObject({ phone: phoneSchema });

/** Anti-forgery cookie, sign-in (demo or one-time code), the session check and sign-out. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const { limits, sms, clock } = app;

  // The token is bound to the session: a signed token for a visitor (no row), or the signed-in row.
  app.get('/sanctum/csrf-cookie', async (request, reply) => {
    const session = request.session;
    if (!session || (await anonymousSessionRetired(db, session))) {
      await startSession(db, request, reply, null);
    } else {
      sendXsrfCookie(request, reply, session);
    }
    return reply.status(204).send();
  });

  // Public, so both sign-in screens can ask which flow to show before anyone is signed in.
  app.get('/api/auth/mode', { config: { public: true } }, async () => ({ mode: app.config.authMode }));

  app.post('/api/login/code', { config: { public: true } }, async (request) => {
    const input = parseOrThrow(codeRequestSchema, request.body);
    const phone = normalizePhone(input.phone, app.config.defaultCountry);
    if (!phone) throw unprocessable({ phone: ['The phone must be a valid phone number.'] });
    await enforce(limits.codePerAddress, request, 'code requests from this address');
    await enforce(limits.codePerPhone, request, 'code requests for this phone');
    if (app.config.authMode === 'demo') {
      return { sent: false, mode: 'demo', message: 'Demo mode: enter the test code 123456.' };
    }
    const code = await issueCode(db, phone, clock());
    try {
      await sms.send(phone, `Your Outpost sign-in code is ${code}. It expires in 10 minutes.`);
    } catch (error) {
      request.log.error({ err: error }, 'sending a sign-in code failed');
      throw new HttpError(503, 'The code could not be sent. Please try again.');
    }
    return { sent: true, mode: 'otp', expires_in: 600 };
  });

  app.post('/api/login', { config: { public: true } }, async (request, reply) => {
    await enforce(limits.login, request, 'sign-in attempts');
    const input = parseOrThrow(loginSchema, request.body);
    const phone = normalizePhone(input.phone, app.config.defaultCountry);
    if (!phone) throw unprocessable({ phone: ['The phone must be a valid phone number.'] });
    if (app.config.authMode === 'otp') {
      if (!input.code || !/^\d{6}$/.test(input.code.trim())) {
        throw unprocessable({ code: ['Enter the 6-digit code we sent to your phone.'] });
      }
      await consumeCode(db, phone, input.code, clock());
    }
    let user = await findOrCreateUser(db, phone, input.name);
    // N12: a real name given at a later sign-in replaces the tutorial's placeholder, as a rename.
    const kept = nameAfterSignIn(user.name, input.name);
    if (kept !== user.name) user = await rename(request, user.id, kept);
    // A fresh session id at sign-in: a session fixed before login dies with it.
    if (request.session) {
      await endSession(db, request, reply, request.session.id, app.sessionCache, { retire: true });
    }
    await startSession(db, request, reply, user.id);
    return { user: userJson(user) };
  });

  app.get('/api/me', async (request) => ({ user: userJson(currentUser(request)) }));

  /** Renames the user in one write whose viewers are told (N13), and updates this session's copy. */
  async function rename(request: FastifyRequest, userId: number, name: string): Promise<UserRow> {
    let renamed: UserRow | null = null;
    await runWrite(app, request, userId, async (tx) => {
      renamed = await renameUser(tx, userId, name);
      return { status: 200, body: { user: userJson(renamed) } };
    });
    // Other instances' session caches keep the old name for at most SESSION_CACHE_MS.
    const cachedUser = request.session?.user;
    if (cachedUser && cachedUser.id === userId) cachedUser.name = name;
    return renamed!;
  }

  // N13: anyone signed in changes their own name; bad input is a 422 naming the field.
  app.patch('/api/me', async (request) => {
    const user = currentUser(request);
    const { name } = parseOrThrow(profilePatchSchema, request.body);
    if (name === user.name) return { user: userJson(user) };
    return { user: userJson(await rename(request, user.id, name)) };
  });

  // `{everywhere: true}` ends every device's session (Preferences › Devices), this one's included.
  app.post('/api/logout', async (request, reply) => {
    const body = parseOrThrow(logoutSchema, request.body ?? undefined);
    const userId = request.session?.user?.id;
    if (request.session) await endSession(db, request, reply, request.session.id, app.sessionCache);
    if (body?.everywhere && userId !== undefined) {
      sessionsEnded(app.sessionCache, await endAllSessions(db, userId));
    }
    return reply.status(204).send();
  });
}
