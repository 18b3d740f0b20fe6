import type { FastifyInstance } from 'fastify';
import { normalizePhone } from '../../shared/phone';
import { loginSchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { parseOrThrow, unprocessable } from '../http/errors';
import { endSession, startSession } from '../http/session';
import { findOrCreateUser, userJson } from './users';

/** Anti-forgery cookie, sign-in, the session check and sign-out. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  // The token is bound to a server-side session, so a session exists from the first visit on.
  app.get('/sanctum/csrf-cookie', async (request, reply) => {
    if (!request.session) await startSession(db, reply, null);
    else reply.setCookie('XSRF-TOKEN', request.session.xsrfToken, { path: '/', sameSite: 'lax' });
    return reply.status(204).send();
  });

  app.post('/api/login', { config: { public: true } }, async (request, reply) => {
    const input = parseOrThrow(loginSchema, request.body);
    const phone = normalizePhone(input.phone, app.config.defaultCountry);
    if (!phone) throw unprocessable({ phone: ['The phone must be a valid phone number.'] });
    const user = await findOrCreateUser(db, phone, input.name);
    // A fresh session id at sign-in: a session fixed before login dies with it.
    if (request.session) await endSession(db, reply, request.session.id);
    await startSession(db, reply, user.id);
    return { user: userJson(user) };
  });

  app.get('/api/me', async (request) => ({ user: userJson(currentUser(request)) }));

  app.post('/api/logout', async (request, reply) => {
    if (request.session) await endSession(db, reply, request.session.id);
    return reply.status(204).send();
  });
}
