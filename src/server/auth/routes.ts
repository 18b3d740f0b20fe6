import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authModeSchema, codeAnswerSchema, userAnswerSchema } from '../../shared/apiSchemas';
import { logoutSchema } from '../../shared/devices';
import { normalizePhone } from '../../shared/phone';
import { nameAfterSignIn, PHONE_ALREADY_SET, PHONE_TAKEN } from '../../shared/profile';
import {
  loginSchema,
  phoneAddSchema,
  phoneCodeSchema,
  phoneSchema,
  profilePatchSchema,
} from '../../shared/schemas';
import { SIGN_OUT_REASONS } from '../../shared/serverEvents';
import { currentUser } from '../http/context';
import { HttpError, parseOrThrow, unprocessable } from '../http/errors';
import { runWrite } from '../http/idempotency';
import { enforce } from '../http/rateLimits';
import { anonymousSessionRetired, endSession, sendXsrfCookie, startSession } from '../http/session';
import { checkedInHandler, errorAnswer, invalidAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { endAllSessions, sessionsEnded } from '../sessions/routes';
import { consumeCode, issueCode } from './loginCodes';
import { addPhone, findOrCreateUser, renameUser, type UserRow, userJson } from './users';

const codeRequestSchema = z.strictObject({ phone: phoneSchema });

/** Anti-forgery cookie, sign-in (demo or one-time code), the session check and sign-out. */
export async function authRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const { limits, sms, clock } = app;
  const TAGS = ['Auth'];
  const tooMany = errorAnswer('Too many attempts; `Retry-After` says when to try again.');

  // The token is bound to the session: a signed token for a visitor (no row), or the signed-in row.
  const csrfDoc = routeDoc({
    summary: 'Get the anti-forgery cookie',
    description:
      'Sets the `XSRF-TOKEN` cookie (readable by scripts, SameSite=Lax, bound to the session). Cookie-session writes send its value in `X-XSRF-TOKEN`.',
    tags: TAGS,
    answers: { 204: noContent('The cookie is set.') },
  });
  app.get('/sanctum/csrf-cookie', { schema: csrfDoc }, async (request, reply) => {
    const session = request.session;
    if (!session || (await anonymousSessionRetired(db, session))) {
      await startSession(db, request, reply, null);
    } else {
      sendXsrfCookie(request, reply, session);
    }
    return reply.status(204).send();
  });

  // Public, so both sign-in screens can ask which flow to show before anyone is signed in.
  const modeDoc = routeDoc({
    summary: 'Sign-in mode',
    description: '`demo` signs in with phone and name; `otp` needs a code sent by SMS first.',
    tags: TAGS,
    answers: { 200: { description: 'The mode.', schema: authModeSchema } },
  });
  app.get('/api/auth/mode', { config: { public: true }, schema: modeDoc }, async () => ({
    mode: app.config.authMode,
  }));

  const codeDoc = routeDoc({
    summary: 'Send a sign-in code',
    description:
      'In `otp` mode, texts a 6-digit code (single use, 10 minutes). In `demo` mode the code is 123456.',
    tags: TAGS,
    body: codeRequestSchema,
    answers: {
      200: { description: 'Sent, or the demo mode’s hint.', schema: codeAnswerSchema },
      422: invalidAnswer('Not a phone number.'),
      429: tooMany,
      503: errorAnswer('The SMS provider failed.'),
    },
  });
  /** Texts a code to the phone in the body (the same budgets for signing in and for adding a phone). */
  async function textCode(request: FastifyRequest, raw: string, message: (code: string) => string) {
    const phone = normalizePhone(raw, app.config.defaultCountry);
    if (!phone) throw unprocessable({ phone: ['The phone must be a valid phone number.'] });
    await enforce(limits.codePerAddress, request, 'code requests from this address');
    await enforce(limits.codePerPhone, request, 'code requests for this phone');
    if (app.config.authMode === 'demo') {
      return { sent: false, mode: 'demo' as const, message: 'Demo mode: enter the test code 123456.' };
    }
    const code = await issueCode(db, phone, clock());
    try {
      await sms.send(phone, message(code));
    } catch (error) {
      request.log.error({ err: error }, 'sending a code failed');
      throw new HttpError(503, 'The code could not be sent. Please try again.');
    }
    return { sent: true, mode: 'otp' as const, expires_in: 600 };
  }

  app.post('/api/login/code', { config: { public: true }, schema: codeDoc }, async (request) =>
    textCode(
      request,
      request.body.phone,
      (code) => `Your Outpost sign-in code is ${code}. It expires in 10 minutes.`,
    ),
  );

  const loginDoc = routeDoc({
    summary: 'Sign in',
    description:
      'Starts a session (a new session id and a new anti-forgery token). The first sign-in with a phone creates the user with `name`. In `otp` mode `code` is required.',
    tags: TAGS,
    // Read after the sign-in rate limit, which counts every attempt, the invalid ones too.
    body: checkedInHandler(loginSchema),
    answers: {
      200: { description: 'Signed in.', schema: userAnswerSchema },
      422: invalidAnswer('Phone or name missing, not a phone number, or a wrong or expired code.'),
      429: tooMany,
    },
  });
  app.post('/api/login', { config: { public: true }, schema: loginDoc }, async (request, reply) => {
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

  const meDoc = routeDoc({
    summary: 'The signed-in user',
    tags: TAGS,
    answers: { 200: { description: 'The user.', schema: userAnswerSchema } },
  });
  app.get('/api/me', { schema: meDoc }, async (request) => ({ user: userJson(currentUser(request)) }));

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
  const renameDoc = routeDoc({
    summary: 'Rename yourself',
    tags: TAGS,
    body: profilePatchSchema,
    answers: { 200: { description: 'The user, renamed.', schema: userAnswerSchema }, 422: invalidAnswer() },
  });
  app.patch('/api/me', { schema: renameDoc }, async (request) => {
    const user = currentUser(request);
    const { name } = request.body;
    if (name === user.name) return { user: userJson(user) };
    return { user: userJson(await rename(request, user.id, name)) };
  });

  // N15: a person who came by single sign-on adds a phone (to be found by contacts), proven by a code
  // texted to it as a sign-in is; the phone of another account is refused only after that proof.
  const phoneCodeDoc = routeDoc({
    summary: 'Send a code to a phone to add',
    description:
      'Texts a 6-digit code (single use, 10 minutes) to the phone the signed-in person wants to add; the sign-in codes’ limits apply. In `demo` mode nothing is sent.',
    tags: TAGS,
    body: phoneCodeSchema,
    answers: {
      200: { description: 'Sent, or the demo mode’s hint.', schema: codeAnswerSchema },
      422: invalidAnswer('Not a phone number.'),
      429: tooMany,
      503: errorAnswer('The SMS provider failed.'),
    },
  });
  app.post('/api/me/phone/code', { schema: phoneCodeDoc }, async (request) => {
    currentUser(request);
    return textCode(
      request,
      request.body.phone,
      (code) => `Your Outpost code to add this phone is ${code}. It expires in 10 minutes.`,
    );
  });

  const phoneDoc = routeDoc({
    summary: 'Add a phone',
    description:
      'For a person with no phone (who came by single sign-on): adds it, so contacts find them. In `otp` mode `code` is the one texted by `POST /api/me/phone/code`. 409 when the account has another phone, or when the phone is another account’s (said only after the right code).',
    tags: TAGS,
    body: checkedInHandler(phoneAddSchema),
    answers: {
      200: { description: 'The user, with the phone.', schema: userAnswerSchema },
      409: errorAnswer('The account has a phone already, or the phone is another account’s.'),
      422: invalidAnswer('Not a phone number, or a wrong or expired code.'),
      429: tooMany,
    },
  });
  app.post('/api/me/phone', { schema: phoneDoc }, async (request, reply) => {
    const user = currentUser(request);
    await enforce(limits.login, request, 'attempts');
    const input = parseOrThrow(phoneAddSchema, request.body);
    const phone = normalizePhone(input.phone, app.config.defaultCountry);
    if (!phone) throw unprocessable({ phone: ['The phone must be a valid phone number.'] });
    if (user.phone && user.phone !== phone) throw new HttpError(409, PHONE_ALREADY_SET);
    if (app.config.authMode === 'otp') {
      if (!input.code || !/^\d{6}$/.test(input.code.trim())) {
        throw unprocessable({ code: ['Enter the 6-digit code we sent to your phone.'] });
      }
      await consumeCode(db, phone, input.code, clock());
    }
    const written = await runWrite(app, request, user.id, async (tx) => {
      const outcome = await addPhone(tx, user.id, phone);
      if (outcome === 'taken') return { status: 409, body: { message: PHONE_TAKEN } };
      if (outcome === 'has-phone') return { status: 409, body: { message: PHONE_ALREADY_SET } };
      return { status: 200, body: { user: userJson(outcome) } };
    });
    // Other instances' session caches keep no phone for at most SESSION_CACHE_MS.
    const cachedUser = request.session?.user;
    if (written.status === 200 && cachedUser && cachedUser.id === user.id) cachedUser.phone = phone;
    return reply.status(written.status).send(written.body);
  });

  const logoutDoc = routeDoc({
    summary: 'Sign out',
    description:
      'Deletes the session on the server: the old cookie gets 401 from then on, and its event streams, on every instance, get `signed_out` with `{reason}` and close. `{everywhere: true}` ends every device’s session, this one’s included.',
    tags: TAGS,
    body: logoutSchema,
    answers: {
      204: noContent('Signed out.'),
      422: invalidAnswer('A body other than `{everywhere: boolean}`.'),
    },
  });
  // `{everywhere: true}` ends every device's session (Preferences › Devices), this one's included.
  app.post('/api/logout', { schema: logoutDoc }, async (request, reply) => {
    const body = parseOrThrow(logoutSchema, request.body ?? undefined);
    const userId = request.session?.user?.id;
    const reason = body?.everywhere ? SIGN_OUT_REASONS.everywhere : SIGN_OUT_REASONS.logout;
    const ended: string[] = [];
    if (request.session) {
      // Only a signed-in session has streams to tell; a visitor's has none.
      if (request.session.user) ended.push(request.session.id);
      await endSession(db, request, reply, request.session.id, app.sessionCache, { reason });
    }
    if (body?.everywhere && userId !== undefined) ended.push(...(await endAllSessions(db, userId)));
    // E7: before the answer, so every stream of these sessions, on any instance, hears it first.
    await sessionsEnded(app, ended, reason);
    return reply.status(204).send();
  });
}
