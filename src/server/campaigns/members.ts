import { campaignFullMessage, type MemberRole, OWNER_ONLY_MESSAGE, type Role } from '../../shared/membership';
import { recordActivity } from '../activity/record';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { iso } from '../http/serialize';
import { phoneFor, visibleTo } from '../items/queries';
import { noteWebhookEvent } from '../webhooks/events';
import { notifyMembership } from './notify';

/** One member as the API answers it (ARCHITECTURE §4). */
export interface MemberJson {
  user: { id: number; name: string; phone: string };
  role: Role;
  added_at: string;
}

/** The 422 for a person the owner may not add: the same for an unknown id, so it is no oracle. */
export const MEMBER_NOT_ALLOWED = 'You can share a campaign only with one of your mutual contacts.';
export const OWNER_STAYS_MESSAGE = 'The owner cannot be removed from their campaign.';
const MEMBER_NOT_FOUND = 'Member not found.';

export interface CampaignRow {
  id: number;
  title: string;
  user_id: number;
}

/**
 * The live campaign `id` when `userId` sees it, locked (FOR UPDATE) when `lock`: every membership
 * write holds the campaign row, as item writes hold their family's top, so a removal and an edit,
 * or two role changes, run one after the other (SYNC.md M5). Null for anyone who does not see it.
 */
export async function visibleCampaign(
  tx: Executor,
  userId: number,
  id: number,
  lock = false,
): Promise<CampaignRow | null> {
  const [row] = await rows<CampaignRow>(
    tx,
    sql`SELECT i.id, i.title, i.user_id FROM items i
        WHERE i.id = ${id} AND i.type = 'campaign' AND i.deleted_at IS NULL AND ${visibleTo(userId)}
        ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!row || !lock) return row ?? null;
  // Read again under the lock: a removal that committed while we waited may have taken it away.
  return (await visibleCampaign(tx, userId, id, false)) ?? null;
}

/** The campaign for an owner-only write: 404 for whoever does not see it, 403 for its other members. */
export async function ownedCampaign(tx: Executor, actor: UserRow, id: number): Promise<CampaignRow> {
  const campaign = await visibleCampaign(tx, actor.id, id, true);
  if (!campaign) throw notFound('Campaign');
  if (campaign.user_id !== actor.id) throw new HttpError(403, OWNER_ONLY_MESSAGE);
  return campaign;
}

/** The owner first, then the members by when they joined; phones as §5's phone rule allows. */
export async function listMembers(db: Executor, viewerId: number, campaignId: number): Promise<MemberJson[]> {
  const found = await rows<{
    id: number;
    name: string;
    phone: string;
    role: Role;
    added_at: Date | string;
  }>(
    db,
    sql`SELECT u.id, u.name, ${phoneFor('u', viewerId)} AS phone, x.role, x.added_at FROM (
          SELECT c.user_id, 'owner' AS role, c.created_at AS added_at, 0 AS rank FROM items c WHERE c.id = ${campaignId}
          UNION ALL
          SELECT m.user_id, m.role, m.added_at, 1 AS rank FROM campaign_members m WHERE m.campaign_id = ${campaignId}
        ) x JOIN users u ON u.id = x.user_id
        ORDER BY x.rank, x.added_at, u.id`,
  );
  return found.map((r) => ({
    user: { id: r.id, name: r.name, phone: r.phone },
    role: r.role,
    added_at: iso(r.added_at),
  }));
}

/** The ids of people who left or were removed from the campaign and are not members again (M15). */
export async function departedIds(db: Executor, campaignId: number): Promise<number[]> {
  const found = await rows<{ user_id: number }>(
    db,
    sql`SELECT d.user_id FROM campaign_departures d WHERE d.campaign_id = ${campaignId}
          AND NOT EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = ${campaignId} AND m.user_id = d.user_id)
        ORDER BY d.user_id`,
  );
  return found.map((r) => r.user_id);
}

async function memberJson(tx: Executor, viewerId: number, campaignId: number, userId: number) {
  return (await listMembers(tx, viewerId, campaignId)).find((m) => m.user.id === userId) ?? null;
}

/** The owner's mutual contact `userId` (never the owner), or the one 422 for everyone else. */
async function addableUser(
  tx: Executor,
  owner: UserRow,
  userId: number,
): Promise<{ id: number; name: string }> {
  const [row] = await rows<{ id: number; name: string }>(
    tx,
    sql`SELECT u.id, u.name FROM users u
        WHERE u.id = ${userId} AND u.id <> ${owner.id}
          AND EXISTS (SELECT 1 FROM contacts mine WHERE mine.user_id = ${owner.id} AND mine.contact_phone = u.phone)
          AND EXISTS (SELECT 1 FROM contacts theirs WHERE theirs.user_id = u.id AND theirs.contact_phone = ${owner.phone})`,
  );
  if (!row) throw unprocessable({ user_id: [MEMBER_NOT_ALLOWED] });
  return row;
}

/** Marks the campaign row changed: every member's open app pulls it (members_count, M6). */
async function touchCampaign(tx: Executor, campaignId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE items SET change_xid = pg_current_xact_id()::text::bigint WHERE id = ${campaignId}`,
  );
}

/**
 * Refuses (422) one more member past `maxMembers` people, the owner included. Called under the
 * campaign's row lock, which every membership write holds, so parallel adds and accepts are counted
 * one after the other and never pass it (M13).
 */
export async function assertRoomFor(tx: Executor, campaignId: number, maxMembers: number): Promise<void> {
  if (!Number.isFinite(maxMembers)) return;
  const [counted] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM campaign_members WHERE campaign_id = ${campaignId}`,
  );
  if ((counted?.n ?? 0) + 1 >= maxMembers) {
    throw unprocessable({ user_id: [campaignFullMessage(maxMembers)] });
  }
}

/**
 * Makes `user` a member with `role`, or sets the role of one already there (M1, M2). Called under
 * the campaign's lock by the owner's add and by an invite's accept. Answers whether a row was
 * added, and the role before when one changed.
 */
export async function grantMembership(
  tx: Executor,
  actor: UserRow,
  campaign: CampaignRow,
  user: { id: number; name: string },
  role: MemberRole,
  how: { kind: 'added' } | { kind: 'invite'; inviter: string },
  /** Most people the campaign may hold, its owner included (AppConfig.campaignMaxMembers, M13). */
  maxMembers = Number.POSITIVE_INFINITY,
): Promise<{ added: boolean; before: MemberRole | null }> {
  const [existing] = await rows<{ role: MemberRole }>(
    tx,
    sql`SELECT role FROM campaign_members WHERE campaign_id = ${campaign.id} AND user_id = ${user.id}`,
  );
  if (existing?.role === role) return { added: false, before: role };
  if (!existing) await assertRoomFor(tx, campaign.id, maxMembers);
  const item = { id: campaign.id, type: 'campaign' as const, title: campaign.title };
  if (existing) {
    // M2: a new role is a new grant, so the member's next pull re-sends the tree with its my_role.
    await tx.execute(
      sql`UPDATE campaign_members SET role = ${role}, change_xid = pg_current_xact_id()::text::bigint
          WHERE campaign_id = ${campaign.id} AND user_id = ${user.id}`,
    );
    await recordActivity(tx, {
      actor,
      action: 'role_changed',
      item,
      rootId: campaign.id,
      metadata: { member: { id: user.id, name: user.name }, role: { old: existing.role, new: role } },
      description: `${actor.name} made ${user.name} ${role === 'editor' ? 'an editor' : 'a viewer'} of campaign "${campaign.title}"`,
    });
    // The member is told, as when added or removed (issue 50: a new role arrived without a word).
    await notifyMembership(tx, 'role_changed', actor, user.id, item, role);
    noteWebhookEvent(tx, {
      kind: 'member',
      type: 'member.updated',
      actor,
      campaign: { id: campaign.id, title: campaign.title },
      member: { id: user.id, name: user.name, role, previous_role: existing.role },
    });
  } else {
    await tx.execute(
      sql`INSERT INTO campaign_members (campaign_id, user_id, role, added_by)
          VALUES (${campaign.id}, ${user.id}, ${role}, ${actor.id})`,
    );
    await tx.execute(
      sql`DELETE FROM campaign_departures WHERE user_id = ${user.id} AND campaign_id = ${campaign.id}`,
    );
    await recordActivity(tx, {
      actor,
      action: 'member_added',
      item,
      rootId: campaign.id,
      metadata: { member: { id: user.id, name: user.name }, role, via: how.kind },
      description:
        how.kind === 'invite'
          ? `${user.name} joined campaign "${campaign.title}" as ${role} (invited by ${how.inviter})`
          : `${actor.name} added ${user.name} to campaign "${campaign.title}" as ${role}`,
    });
    if (how.kind === 'added') await notifyMembership(tx, 'added', actor, user.id, item, role);
    noteWebhookEvent(tx, {
      kind: 'member',
      type: 'member.added',
      actor,
      campaign: { id: campaign.id, title: campaign.title },
      member: { id: user.id, name: user.name, role },
    });
  }
  await touchCampaign(tx, campaign.id);
  return { added: !existing, before: existing?.role ?? null };
}

/** POST /api/campaigns/{id}/members: 201 for a new member, 200 when the role was (re)set. */
export async function addMember(
  tx: Executor,
  actor: UserRow,
  campaignId: number,
  input: { user_id: number; role: MemberRole },
  maxMembers = Number.POSITIVE_INFINITY,
): Promise<WriteResult> {
  const campaign = await ownedCampaign(tx, actor, campaignId);
  const user = await addableUser(tx, actor, input.user_id);
  const { added } = await grantMembership(
    tx,
    actor,
    campaign,
    user,
    input.role,
    { kind: 'added' },
    maxMembers,
  );
  const member = await memberJson(tx, actor.id, campaign.id, user.id);
  return { status: added ? 201 : 200, body: { member }, formerViewers: [user.id] };
}

/** PATCH /api/campaigns/{id}/members/{user_id}: the owner sets a member's role. */
export async function changeRole(
  tx: Executor,
  actor: UserRow,
  campaignId: number,
  userId: number,
  role: MemberRole,
): Promise<WriteResult> {
  const campaign = await ownedCampaign(tx, actor, campaignId);
  if (userId === campaign.user_id) throw new HttpError(403, 'The owner’s role cannot be changed.');
  const [target] = await rows<{ id: number; name: string }>(
    tx,
    sql`SELECT u.id, u.name FROM campaign_members m JOIN users u ON u.id = m.user_id
        WHERE m.campaign_id = ${campaign.id} AND m.user_id = ${userId}`,
  );
  if (!target) throw new HttpError(404, MEMBER_NOT_FOUND);
  await grantMembership(tx, actor, campaign, target, role, { kind: 'added' });
  const member = await memberJson(tx, actor.id, campaign.id, target.id);
  return { status: 200, body: { member }, formerViewers: [target.id] };
}

/**
 * DELETE /api/campaigns/{id}/members/{user_id}: the owner removes a member, or a member leaves (M3,
 * M4). The member's row goes, a departure hides the tree from them (their own items in it too: they
 * stay with the campaign), and every item of the tree is revoked for them in this transaction, so
 * their next pull carries bare tombstones for all of it (L4, L5).
 */
export async function removeMember(
  tx: Executor,
  actor: UserRow,
  campaignId: number,
  userId: number,
): Promise<WriteResult> {
  const campaign = await visibleCampaign(tx, actor.id, campaignId, true);
  if (!campaign) throw notFound('Campaign');
  if (userId === campaign.user_id) throw new HttpError(403, OWNER_STAYS_MESSAGE);
  if (userId !== actor.id && campaign.user_id !== actor.id) throw new HttpError(403, OWNER_ONLY_MESSAGE);
  const [target] = await rows<{ id: number; name: string; role: MemberRole; added_at: Date | string }>(
    tx,
    sql`SELECT u.id, u.name, m.role, m.added_at FROM campaign_members m JOIN users u ON u.id = m.user_id
        WHERE m.campaign_id = ${campaign.id} AND m.user_id = ${userId}`,
  );
  if (!target) throw new HttpError(404, MEMBER_NOT_FOUND);
  await tx.execute(
    sql`DELETE FROM campaign_members WHERE campaign_id = ${campaign.id} AND user_id = ${target.id}`,
  );
  const left = target.id === actor.id;
  // M11: a removal bars them from the links the campaign has now until the owner adds them again; a
  // leave does not. clock_timestamp() under the campaign's lock, as a new link stamps itself, orders
  // the two as they took the lock.
  await tx.execute(
    sql`INSERT INTO campaign_departures (user_id, campaign_id, barred, departed_at)
        VALUES (${target.id}, ${campaign.id}, ${!left}, clock_timestamp())
        ON CONFLICT (user_id, campaign_id) DO UPDATE
          SET departed_at = EXCLUDED.departed_at, barred = EXCLUDED.barred`,
  );
  // Deleted rows too: a tombstone the device already has costs nothing, and one it lacks purges it.
  await tx.execute(
    sql`INSERT INTO item_revocations (user_id, item_id)
        SELECT ${target.id}, i.id FROM items i
        WHERE i.id IN (SELECT f.id FROM items f WHERE f.id = ${campaign.id}
            UNION ALL SELECT f.id FROM items f WHERE f.parent_id = ${campaign.id}
            UNION ALL SELECT f.id FROM items f JOIN items fp ON fp.id = f.parent_id WHERE fp.parent_id = ${campaign.id})
          AND NOT COALESCE(${visibleTo(target.id)}, false)
        ON CONFLICT (user_id, item_id) DO UPDATE
          SET change_xid = EXCLUDED.change_xid, revoked_at = EXCLUDED.revoked_at`,
  );
  const item = { id: campaign.id, type: 'campaign' as const, title: campaign.title };
  await recordActivity(tx, {
    actor,
    action: 'member_removed',
    item,
    rootId: campaign.id,
    metadata: { member: { id: target.id, name: target.name }, role: target.role, left },
    description: left
      ? `${target.name} left campaign "${campaign.title}"`
      : `${actor.name} removed ${target.name} from campaign "${campaign.title}"`,
  });
  if (!left) await notifyMembership(tx, 'removed', actor, target.id, item, target.role);
  noteWebhookEvent(tx, {
    kind: 'member',
    type: 'member.removed',
    actor,
    campaign: { id: campaign.id, title: campaign.title },
    // The payload's member shape holds when they joined; the row is gone by the time it is written.
    member: { id: target.id, name: target.name, role: target.role, added_at: target.added_at },
  });
  await touchCampaign(tx, campaign.id);
  return { status: 204, body: null, formerViewers: [target.id] };
}
