import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inviteCreateSchema, memberAddSchema, memberPatchSchema } from '../../shared/membership';
import { idSchema, pageQuerySchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import { runWrite, type WriteResult } from '../http/idempotency';
import { pathId } from '../items/routes';
import {
  acceptInvite,
  createInvite,
  type InviteLimits,
  inviteLimits,
  listInvites,
  readInvite,
  revokeInvite,
} from './invites';
import { addMember, changeRole, departedIds, listMembers, removeMember, visibleCampaign } from './members';

function send(reply: FastifyReply, result: WriteResult) {
  if (result.status === 204) return reply.status(204).send();
  if (result.json !== undefined) {
    return reply.status(result.status).type('application/json; charset=utf-8').send(result.json);
  }
  return reply.status(result.status).send(result.body);
}

/** The member's user id in the path, or the 404 of an unknown member. */
function memberId(request: FastifyRequest): number {
  const parsed = idSchema.safeParse((request.params as { user_id?: string }).user_id);
  if (!parsed.success) throw new HttpError(404, 'Member not found.');
  return parsed.data;
}

const tokenOf = (request: FastifyRequest) => String((request.params as { token?: string }).token ?? '');

/**
 * Campaign members and invites (ARCHITECTURE §4 'Campaign members and invites', SYNC.md M1–M9).
 * Every write runs through runWrite (one transaction, Idempotency-Key, change events to who saw
 * the campaign before and after).
 */
export async function campaignRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const limits: InviteLimits = inviteLimits(app);

  app.get('/campaigns/:id/members', async (request) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const campaign = await visibleCampaign(db, user.id, id);
    if (!campaign) throw notFound('Campaign');
    // M15: who was removed or left (and is not back), so assignee pickers leave them out.
    return { members: await listMembers(db, user.id, id), departed: await departedIds(db, id) };
  });

  app.post('/campaigns/:id/members', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const input = parseOrThrow(memberAddSchema, request.body);
    const max = app.config.campaignMaxMembers;
    return send(reply, await runWrite(app, request, user.id, (tx) => addMember(tx, user, id, input, max)));
  });

  app.patch('/campaigns/:id/members/:user_id', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const target = memberId(request);
    const { role } = parseOrThrow(memberPatchSchema, request.body);
    return send(reply, await runWrite(app, request, user.id, (tx) => changeRole(tx, user, id, target, role)));
  });

  app.delete('/campaigns/:id/members/:user_id', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const target = memberId(request);
    return send(reply, await runWrite(app, request, user.id, (tx) => removeMember(tx, user, id, target)));
  });

  app.post('/campaigns/:id/invites', async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const input = parseOrThrow(inviteCreateSchema, request.body);
    const origin = `${request.protocol}://${request.host}`;
    // Not through runWrite: its Idempotency-Key record would keep the answer, and with it the token
    // in clear (only its hash may be stored). A repeated create makes a second link, which is harmless.
    const result = await db.transaction((tx) => createInvite(tx, user, id, input, origin, app.clock()));
    return send(reply, result);
  });

  app.get('/campaigns/:id/invites', async (request) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    return listInvites(db, user, id, app.clock(), page);
  });

  app.delete('/invites/:token', async (request, reply) => {
    const user = currentUser(request);
    const token = tokenOf(request);
    return send(reply, await runWrite(app, request, user.id, (tx) => revokeInvite(tx, user, token)));
  });

  app.get('/invites/:token', async (request) => {
    const user = currentUser(request);
    await limits.check(request, user.id);
    return readInvite(db, user.id, tokenOf(request), app.clock());
  });

  app.post('/invites/:token/accept', async (request, reply) => {
    const user = currentUser(request);
    await limits.check(request, user.id);
    const token = tokenOf(request);
    return send(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        acceptInvite(tx, user, token, app.clock(), app.config.campaignMaxMembers),
      ),
    );
  });
}
