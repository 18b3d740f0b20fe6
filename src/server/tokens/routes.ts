import type { FastifyInstance } from 'fastify';
import { apiTokenCreatedSchema, apiTokenListSchema, tokenCreateSchema } from '../../shared/tokens';
import { currentUser } from '../http/context';
import { parseOrThrow } from '../http/errors';
import { pathId } from '../http/paths';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
import { tokenSessionId } from './auth';
import { createToken, listTokens, revokeToken } from './store';

/**
 * Personal access tokens (ARCHITECTURE §4). Only a signed-in session in the app reaches these routes
 * (their policy is `never`, policy.ts): a leaked token can never mint, list or revoke tokens. Tokens
 * are not items: no sync, no activity, no Idempotency-Key record (it would keep the secret).
 */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;

  app.post(
    '/tokens',
    {
      schema: routeDoc({
        summary: 'Make a personal access token',
        description:
          'Only from a signed-in session in the app. The secret (`opk_…`) is in this answer only; at most 50 live tokens.',
        tags: ['Tokens'],
        body: checkedInHandler(tokenCreateSchema),
        answers: {
          201: { description: 'The token, with its secret this once.', schema: apiTokenCreatedSchema },
          422: invalidAnswer(),
        },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const input = parseOrThrow(tokenCreateSchema, request.body);
      const created = await createToken(app.database, user.id, input);
      // The secret is in this answer only: no cache of any kind may keep it.
      return reply.status(201).header('Cache-Control', 'no-store').send(created);
    },
  );

  app.get(
    '/tokens',
    {
      schema: routeDoc({
        summary: 'List personal access tokens',
        description: 'Without their secrets.',
        tags: ['Tokens'],
        answers: { 200: { description: 'The tokens.', schema: apiTokenListSchema } },
      }),
    },
    async (request) => ({ tokens: await listTokens(db, currentUser(request).id) }),
  );

  app.delete(
    '/tokens/:id',
    {
      schema: routeDoc({
        summary: 'Revoke a personal access token',
        description: 'Requests made with it get 401 from then on.',
        tags: ['Tokens'],
        params: idParams('The token’s id.'),
        answers: { 204: noContent('Revoked.'), 404: errorAnswer('No such token of yours.') },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const hash = await revokeToken(db, user.id, pathId(request, 'Token'));
      // Refused at once on this instance; other instances trust their cache for SESSION_CACHE_MS.
      app.sessionCache.delete(tokenSessionId(hash));
      return reply.status(204).send();
    },
  );
}
