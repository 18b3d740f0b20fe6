import type { FastifyInstance } from 'fastify';
import { tokenCreateSchema } from '../../shared/tokens';
import { currentUser } from '../http/context';
import { parseOrThrow } from '../http/errors';
import { pathId } from '../items/routes';
import { tokenSessionId } from './auth';
import { createToken, listTokens, revokeToken } from './store';

/**
 * Personal access tokens (ARCHITECTURE §4). Only a signed-in session in the app reaches these routes
 * (their policy is `never`, policy.ts): a leaked token can never mint, list or revoke tokens. Tokens
 * are not items: no sync, no activity, no Idempotency-Key record (it would keep the secret).
 */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  app.post('/tokens', async (request, reply) => {
    const user = currentUser(request);
    const input = parseOrThrow(tokenCreateSchema, request.body);
    const created = await createToken(app.database, user.id, input);
    // The secret is in this answer only: no cache of any kind may keep it.
    return reply.status(201).header('Cache-Control', 'no-store').send(created);
  });

  app.get('/tokens', async (request) => ({ tokens: await listTokens(db, currentUser(request).id) }));

  app.delete('/tokens/:id', async (request, reply) => {
    const user = currentUser(request);
    const hash = await revokeToken(db, user.id, pathId(request, 'Token'));
    // Refused at once on this instance; other instances trust their cache for SESSION_CACHE_MS.
    app.sessionCache.delete(tokenSessionId(hash));
    return reply.status(204).send();
  });
}
