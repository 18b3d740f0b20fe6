import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  inviteAcceptedSchema,
  inviteCreatedSchema,
  invitePageSchema,
  invitePreviewSchema,
  memberAnswerSchema,
  membersAnswerSchema,
} from '../../shared/apiSchemas';
import { inviteCreateSchema, memberAddSchema, memberPatchSchema } from '../../shared/membershipSchemas';
import { idSchema, pageQuerySchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import { runWrite, sendWrite } from '../http/idempotency';
import { pathId } from '../http/paths';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
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
  const TAGS = ['Campaigns'];
  const campaignParams = idParams('The campaign’s id.');
  const memberParams = z.object({
    id: z.number().int().min(1).describe('The campaign’s id.'),
    user_id: z.number().int().min(1).describe('The member’s user id.'),
  });
  const tokenParams = z.object({ token: z.string().describe('The invite’s token, from its link.') });
  const notSeen = errorAnswer('No such campaign, or not one the caller may see.');
  const ownerOnly = errorAnswer('Only the campaign’s owner can do this.');
  const invalidInvite = errorAnswer(
    'The invite is unknown, expired, revoked or used up (one answer for all four).',
  );
  const tooManyTries = errorAnswer('Too many invite lookups; `Retry-After` says when to try again.');

  const membersDoc = routeDoc({
    summary: 'List a campaign’s members',
    description: 'The owner first; for anyone who sees the campaign. Phones follow the phone rule.',
    tags: TAGS,
    params: campaignParams,
    answers: { 200: { description: 'The members.', schema: membersAnswerSchema }, 404: notSeen },
  });
  app.get('/campaigns/:id/members', { schema: membersDoc }, async (request) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const campaign = await visibleCampaign(db, user.id, id);
    if (!campaign) throw notFound('Campaign');
    // M15: who was removed or left (and is not back), so assignee pickers leave them out.
    return { members: await listMembers(db, user.id, id), departed: await departedIds(db, id) };
  });

  const addDoc = routeDoc({
    summary: 'Add a member',
    description:
      'Owner only. The person must be one of the owner’s mutual contacts (else the same 422 as an unknown id). An existing member gets the role.',
    tags: TAGS,
    params: campaignParams,
    body: checkedInHandler(memberAddSchema),
    answers: {
      200: { description: 'Already a member: the role is set.', schema: memberAnswerSchema },
      201: { description: 'Added.', schema: memberAnswerSchema },
      403: ownerOnly,
      404: notSeen,
      422: invalidAnswer('Not a person the owner may add, or the campaign is full.'),
    },
  });
  app.post('/campaigns/:id/members', { schema: addDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const input = parseOrThrow(memberAddSchema, request.body);
    const max = app.config.campaignMaxMembers;
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) => addMember(tx, user, id, input, max)),
    );
  });

  const roleDoc = routeDoc({
    summary: 'Change a member’s role',
    description: 'Owner only.',
    tags: TAGS,
    params: memberParams,
    body: checkedInHandler(memberPatchSchema),
    answers: {
      200: { description: 'The member.', schema: memberAnswerSchema },
      403: ownerOnly,
      404: errorAnswer('No such campaign or member.'),
      422: invalidAnswer(),
    },
  });
  app.patch('/campaigns/:id/members/:user_id', { schema: roleDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const target = memberId(request);
    const { role } = parseOrThrow(memberPatchSchema, request.body);
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) => changeRole(tx, user, id, target, role)),
    );
  });

  const removeDoc = routeDoc({
    summary: 'Remove a member, or leave',
    description: 'Owner only, except that any member may remove themself. The owner cannot be removed.',
    tags: TAGS,
    params: memberParams,
    answers: {
      204: noContent('Removed.'),
      403: ownerOnly,
      404: errorAnswer('No such campaign or member.'),
      422: errorAnswer('The owner cannot be removed.'),
    },
  });
  app.delete('/campaigns/:id/members/:user_id', { schema: removeDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const target = memberId(request);
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) => removeMember(tx, user, id, target)),
    );
  });

  const inviteDoc = routeDoc({
    summary: 'Make an invite link',
    description: 'Owner only. The token is shown in this answer only (it is stored hashed).',
    tags: TAGS,
    params: campaignParams,
    body: checkedInHandler(inviteCreateSchema),
    answers: {
      201: { description: 'The invite, with its token and link.', schema: inviteCreatedSchema },
      403: ownerOnly,
      404: notSeen,
      422: invalidAnswer('Bad input, or too many open invites.'),
    },
  });
  app.post('/campaigns/:id/invites', { schema: inviteDoc }, async (request, reply) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const input = parseOrThrow(inviteCreateSchema, request.body);
    const origin = `${request.protocol}://${request.host}`;
    // Not through runWrite: its Idempotency-Key record would keep the answer, and with it the token
    // in clear (only its hash may be stored). A repeated create makes a second link, which is harmless.
    const result = await db.transaction((tx) => createInvite(tx, user, id, input, origin, app.clock()));
    return sendWrite(reply, result);
  });

  const invitesDoc = routeDoc({
    summary: 'List open invites',
    description: 'Owner only; tokens are not shown again.',
    tags: TAGS,
    params: campaignParams,
    querystring: checkedInHandler(pageQuerySchema),
    answers: {
      200: { description: 'The open invites.', schema: invitePageSchema },
      403: ownerOnly,
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.get('/campaigns/:id/invites', { schema: invitesDoc }, async (request) => {
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    return listInvites(db, user, id, app.clock(), page);
  });

  const revokeDoc = routeDoc({
    summary: 'Revoke an invite',
    description: 'Owner only.',
    tags: TAGS,
    params: tokenParams,
    answers: { 204: noContent('Revoked.'), 403: ownerOnly, 404: invalidInvite },
  });
  app.delete('/invites/:token', { schema: revokeDoc }, async (request, reply) => {
    const user = currentUser(request);
    const token = tokenOf(request);
    return sendWrite(reply, await runWrite(app, request, user.id, (tx) => revokeInvite(tx, user, token)));
  });

  const previewDoc = routeDoc({
    summary: 'Read an invite',
    description: 'What an invite link offers, for any signed-in user while it is valid.',
    tags: TAGS,
    params: tokenParams,
    answers: {
      200: { description: 'The campaign, the role and who invited.', schema: invitePreviewSchema },
      404: invalidInvite,
      429: tooManyTries,
    },
  });
  app.get('/invites/:token', { schema: previewDoc }, async (request) => {
    const user = currentUser(request);
    await limits.check(request, user.id);
    return readInvite(db, user.id, tokenOf(request), app.clock());
  });

  const acceptDoc = routeDoc({
    summary: 'Accept an invite',
    description: 'Joins the campaign with the invite’s role; repeating it as a member changes nothing.',
    tags: TAGS,
    params: tokenParams,
    answers: {
      200: { description: 'Joined.', schema: inviteAcceptedSchema },
      404: invalidInvite,
      422: errorAnswer('The campaign is full.'),
      429: tooManyTries,
    },
  });
  app.post('/invites/:token/accept', { schema: acceptDoc }, async (request, reply) => {
    const user = currentUser(request);
    await limits.check(request, user.id);
    const token = tokenOf(request);
    return sendWrite(
      reply,
      await runWrite(app, request, user.id, (tx) =>
        acceptInvite(tx, user, token, app.clock(), app.config.campaignMaxMembers),
      ),
    );
  });
}
