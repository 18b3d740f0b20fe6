import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_PER_PAGE, type Paginated, paginated } from '../../shared/item';
import {
  INVITE_INVALID_MESSAGE,
  INVITE_TOKEN,
  type InviteCreate,
  inviteOpen,
  MAX_OPEN_INVITES,
  type MemberRole,
  OWNER_ONLY_MESSAGE,
  type Role,
  TOO_MANY_INVITES_MESSAGE,
} from '../../shared/membership';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { enforce, sharedRateLimit } from '../http/rateLimits';
import { iso, isoOrNull } from '../http/serialize';
import { hashToken } from '../http/session';
import { assertRoomFor, grantMembership, ownedCampaign, visibleCampaign } from './members';

const DAY_MS = 86_400_000;
const MINUTE = 60_000;

/** The one answer for an unknown, expired, revoked or used-up invite (M8): it names none of the four. */
const invalid = () => new HttpError(404, INVITE_INVALID_MESSAGE);

/** An open invite as its owner lists it (the token is never shown again: only its hash is kept). */
export interface InviteJson {
  id: number;
  role: MemberRole;
  expires_at: string;
  max_uses: number;
  uses: number;
  created_at: string;
  revoked_at: string | null;
}

interface InviteRow {
  id: number;
  token_hash: string;
  campaign_id: number;
  role: MemberRole;
  inviter_id: number;
  expires_at: Date | string;
  max_uses: number;
  uses: number;
  revoked_at: Date | string | null;
  created_at: Date | string;
}

const inviteJson = (r: InviteRow): InviteJson => ({
  id: r.id,
  role: r.role,
  expires_at: iso(r.expires_at),
  max_uses: r.max_uses,
  uses: r.uses,
  created_at: iso(r.created_at),
  revoked_at: isoOrNull(r.revoked_at),
});

/**
 * The invite a token names, or null. Looked up by the token's SHA-256 (the only thing stored), then
 * the stored hash is compared with the computed one in constant time, so neither the lookup nor
 * the comparison answers faster for a nearly right guess (M7).
 */
async function inviteByToken(tx: Executor, token: string, lock = false): Promise<InviteRow | null> {
  if (!INVITE_TOKEN.test(token)) return null;
  const hash = hashToken(token);
  const [row] = await rows<InviteRow>(
    tx,
    sql`SELECT id, token_hash, campaign_id, role, inviter_id, expires_at, max_uses, uses, revoked_at, created_at
        FROM campaign_invites WHERE token_hash = ${hash} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!row) return null;
  const stored = Buffer.from(row.token_hash, 'hex');
  const given = Buffer.from(hash, 'hex');
  return stored.length === given.length && timingSafeEqual(stored, given) ? row : null;
}

const isOpen = (r: InviteRow, now: Date) =>
  inviteOpen(
    {
      expires_at: iso(r.expires_at),
      revoked_at: isoOrNull(r.revoked_at),
      uses: r.uses,
      max_uses: r.max_uses,
    },
    now,
  );

/** POST /api/campaigns/{id}/invites (owner): a new link with 128 random bits, kept as its SHA-256. */
export async function createInvite(
  tx: Executor,
  actor: UserRow,
  campaignId: number,
  input: InviteCreate,
  origin: string,
  now: Date,
): Promise<WriteResult> {
  const campaign = await ownedCampaign(tx, actor, campaignId);
  // Counted under the campaign's row lock (ownedCampaign): parallel creates queue and never pass it.
  const [open] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM campaign_invites
        WHERE campaign_id = ${campaign.id} AND revoked_at IS NULL AND uses < max_uses AND expires_at > ${now}`,
  );
  if ((open?.n ?? 0) >= MAX_OPEN_INVITES) throw unprocessable({ invites: [TOO_MANY_INVITES_MESSAGE] });
  const token = randomBytes(16).toString('base64url');
  const expires = new Date(now.getTime() + input.expires_in_days * DAY_MS);
  const [row] = await rows<InviteRow>(
    tx,
    // clock_timestamp(), not now(): read under the campaign's lock, as a removal stamps its departure,
    // so a link and a removal are ordered as they took the lock, whichever transaction began first (M11).
    sql`INSERT INTO campaign_invites (token_hash, campaign_id, role, inviter_id, expires_at, max_uses, created_at)
        VALUES (${hashToken(token)}, ${campaign.id}, ${input.role}, ${actor.id}, ${expires}, ${input.max_uses},
          clock_timestamp())
        RETURNING id, token_hash, campaign_id, role, inviter_id, expires_at, max_uses, uses, revoked_at, created_at`,
  );
  return {
    status: 201,
    body: { ...inviteJson(row!), token, url: `${origin}/invite/${token}` },
  };
}

/** GET /api/campaigns/{id}/invites?page= (owner): one page of the invites that still open, newest first. */
export async function listInvites(
  db: Executor,
  actor: UserRow,
  campaignId: number,
  now: Date,
  page: number,
): Promise<Paginated<InviteJson>> {
  const campaign = await visibleCampaign(db, actor.id, campaignId);
  if (!campaign) throw notFound('Campaign');
  if (campaign.user_id !== actor.id) throw new HttpError(403, OWNER_ONLY_MESSAGE);
  const open = sql`campaign_id = ${campaign.id} AND revoked_at IS NULL AND uses < max_uses AND expires_at > ${now}`;
  const [counted, found] = await Promise.all([
    rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM campaign_invites WHERE ${open}`),
    rows<InviteRow>(
      db,
      sql`SELECT id, token_hash, campaign_id, role, inviter_id, expires_at, max_uses, uses, revoked_at, created_at
          FROM campaign_invites WHERE ${open}
          ORDER BY created_at DESC, id DESC LIMIT ${DEFAULT_PER_PAGE} OFFSET ${(page - 1) * DEFAULT_PER_PAGE}`,
    ),
  ]);
  return paginated(found.map(inviteJson), page, DEFAULT_PER_PAGE, counted[0]?.n ?? 0);
}

/**
 * DELETE /api/invites/{token} (owner). The list never shows tokens again, so the invite's `id` from
 * it names the invite as well. Revoking one that no longer opens is done already (204).
 */
export async function revokeInvite(tx: Executor, actor: UserRow, tokenOrId: string): Promise<WriteResult> {
  let invite: InviteRow | null = null;
  if (/^\d{1,9}$/.test(tokenOrId)) {
    [invite = null] = await rows<InviteRow>(
      tx,
      sql`SELECT id, token_hash, campaign_id, role, inviter_id, expires_at, max_uses, uses, revoked_at, created_at
          FROM campaign_invites WHERE id = ${Number(tokenOrId)}`,
    );
  } else invite = await inviteByToken(tx, tokenOrId);
  if (!invite) throw invalid();
  const campaign = await visibleCampaign(tx, actor.id, invite.campaign_id, true);
  if (!campaign) throw invalid();
  if (campaign.user_id !== actor.id) throw new HttpError(403, OWNER_ONLY_MESSAGE);
  await tx.execute(
    sql`UPDATE campaign_invites SET revoked_at = now() WHERE id = ${invite.id} AND revoked_at IS NULL`,
  );
  return { status: 204, body: null };
}

/**
 * Whether the owner removed `userId` from the campaign, has not added them back, and `invite` already
 * existed at that removal (M11): such a link answers them as one that no longer opens, so a removed
 * member learns nothing of a link that still works for others. A link the owner makes after the
 * removal is a new choice and admits them.
 */
async function barredFrom(tx: Executor, userId: number, invite: InviteRow): Promise<boolean> {
  // Compared in SQL: a JS Date drops the microseconds that order two writes in one millisecond.
  const [row] = await rows<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM campaign_departures
        WHERE user_id = ${userId} AND campaign_id = ${invite.campaign_id} AND barred
          AND departed_at >= (SELECT created_at FROM campaign_invites WHERE id = ${invite.id})`,
  );
  return row !== undefined;
}

/** A deleted campaign's links die with it, and a restore does not revive them (M11). */
export async function revokeInvitesOf(tx: Executor, campaignId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE campaign_invites SET revoked_at = now() WHERE campaign_id = ${campaignId} AND revoked_at IS NULL`,
  );
}

/** GET /api/invites/{token}: what the invite page shows, while the invite opens; else the one 404. */
export async function readInvite(db: Executor, userId: number, token: string, now: Date) {
  const invite = await inviteByToken(db, token);
  if (!invite || !isOpen(invite, now)) throw invalid();
  if (await barredFrom(db, userId, invite)) throw invalid();
  const [found] = await rows<{ title: string; inviter_name: string }>(
    db,
    sql`SELECT c.title, u.name AS inviter_name FROM items c JOIN users u ON u.id = ${invite.inviter_id}
        WHERE c.id = ${invite.campaign_id} AND c.type = 'campaign' AND c.deleted_at IS NULL`,
  );
  if (!found) throw invalid();
  return {
    campaign: { id: invite.campaign_id, title: found.title },
    role: invite.role,
    inviter: { id: invite.inviter_id, name: found.inviter_name },
  };
}

/**
 * POST /api/invites/{token}/accept (M9). Under the campaign's lock and then the invite's: the owner
 * or a member changes nothing and uses nothing; anyone else takes one use by a conditional UPDATE
 * (so parallel accepts never pass max_uses, and a revoke that committed first wins) and joins.
 */
export async function acceptInvite(
  tx: Executor,
  user: UserRow,
  token: string,
  now: Date,
  maxMembers = Number.POSITIVE_INFINITY,
): Promise<WriteResult> {
  const first = await inviteByToken(tx, token);
  if (!first) throw invalid();
  const [campaign] = await rows<{ id: number; title: string; user_id: number }>(
    tx,
    sql`SELECT id, title, user_id FROM items
        WHERE id = ${first.campaign_id} AND type = 'campaign' AND deleted_at IS NULL FOR UPDATE`,
  );
  if (!campaign) throw invalid();
  const invite = await inviteByToken(tx, token, true);
  if (!invite || !isOpen(invite, now)) throw invalid();
  const answer = (role: Role) => ({ status: 200, body: { campaign_id: campaign.id, role } });
  if (campaign.user_id === user.id) return answer('owner');
  const [existing] = await rows<{ role: MemberRole }>(
    tx,
    sql`SELECT role FROM campaign_members WHERE campaign_id = ${campaign.id} AND user_id = ${user.id}`,
  );
  if (existing) return answer(existing.role);
  if (await barredFrom(tx, user.id, invite)) throw invalid();
  // Full: refused before the use is taken, so the link stays good for when there is room (M13).
  await assertRoomFor(tx, campaign.id, maxMembers);
  const [used] = await rows<{ uses: number }>(
    tx,
    sql`UPDATE campaign_invites SET uses = uses + 1
        WHERE id = ${invite.id} AND revoked_at IS NULL AND uses < max_uses AND expires_at > ${now}
        RETURNING uses`,
  );
  if (!used) throw invalid();
  const [inviter] = await rows<{ name: string }>(
    tx,
    sql`SELECT name FROM users WHERE id = ${invite.inviter_id}`,
  );
  await grantMembership(tx, user, campaign, { id: user.id, name: user.name }, invite.role, {
    kind: 'invite',
    inviter: inviter?.name ?? 'the owner',
  });
  return { ...answer(invite.role), formerViewers: [user.id, campaign.user_id] };
}

export interface InviteLimits {
  check(request: FastifyRequest, userId: number): Promise<void>;
}

/**
 * Guessing tokens is rate-limited (M7): invite look-ups and accepts per person and per address, in the
 * shared rate_buckets table so the budget holds across instances. Far above what a person opening
 * links needs, far below what guessing 128 bits would.
 */
export function inviteLimits(app: FastifyInstance): InviteLimits {
  const perUser = sharedRateLimit(app, {
    max: 30,
    timeWindow: 10 * MINUTE,
    keyGenerator: (r) => `invite-user:${r.session?.user?.id ?? r.ip}`,
  });
  const perAddress = sharedRateLimit(app, {
    max: 120,
    timeWindow: 10 * MINUTE,
    keyGenerator: (r) => `invite-ip:${r.ip}`,
  });
  return {
    async check(request) {
      await enforce(perUser, request, 'invite links opened');
      await enforce(perAddress, request, 'invite links opened');
    },
  };
}
