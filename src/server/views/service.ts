import { randomUUID } from 'node:crypto';
import { FILTER_GRAMMAR } from '../../shared/filter';
import { migrateSavedQuery } from '../../shared/filter/migrations';
import type { View, ViewCreate, ViewPatch } from '../../shared/filter/views';
import type { ListTombstone } from '../../shared/syncLists';
import type { UserRow } from '../auth/users';
import { roleInFamily } from '../campaigns/access';
import { campaignsToTell as sharedWith } from '../campaigns/sharedLists';
import type { Executor } from '../db/client';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { findVisibleItem } from '../items/queries';
import {
  insertView,
  listVisibleViews,
  lockView,
  ownViewByUuid,
  softDeleteView,
  updateView,
  type ViewRow,
  viewRowsChangedBetween,
  visibleViewById,
} from './store';

/** The 403 of someone who sees a view but may not change it. */
export const VIEW_EDIT_FORBIDDEN =
  'Only its creator, or the owner and editors of its campaign, may change this view.';
/** The 403 of a viewer sharing a view with their campaign. */
export const VIEW_SHARE_FORBIDDEN = 'Only the owner and editors of a campaign may share views with it.';

const notSeen = () => notFound('View');

/** Whether `role` in a campaign may add to it (and so share and edit its views). */
const editsIn = (role: string | null) => role === 'owner' || role === 'editor';

/** The API's view from its row: a query saved under an older grammar is brought to the current one. */
export function viewJson(row: ViewRow): View {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    query: migrateSavedQuery(row.query, row.grammar),
    grammar: Math.max(row.grammar, FILTER_GRAMMAR),
    sort: row.sort,
    campaign_id: row.campaign_id,
    created_by: { id: row.user_id, name: row.creator_name },
    updated_at: row.updated_at,
  };
}

/** The campaign a view is shared with, checked: a live campaign the actor sees and may add to. */
async function shareableCampaign(tx: Executor, actor: UserRow, campaignId: number): Promise<number> {
  const campaign = await findVisibleItem(tx, actor.id, campaignId);
  if (campaign?.type !== 'campaign' || campaign.deleted_at !== null) {
    throw unprocessable({ campaign_id: ['No such campaign, or not one you can open.'] });
  }
  if (!editsIn(await roleInFamily(tx, actor.id, campaignId))) throw new HttpError(403, VIEW_SHARE_FORBIDDEN);
  return campaignId;
}

async function answerView(tx: Executor, actor: UserRow, id: number, status: number): Promise<WriteResult> {
  const row = await visibleViewById(tx, actor.id, id);
  if (!row) throw notSeen();
  return { status, body: viewJson(row), campaigns: sharedWith(row.campaign_id) };
}

/** Saves a view (a repeat of the actor's own `uuid` answers the view made the first time). */
export async function createView(tx: Executor, actor: UserRow, input: ViewCreate): Promise<WriteResult> {
  if (input.uuid) {
    const known = await ownViewByUuid(tx, actor.id, input.uuid);
    if (known && !known.deleted) return answerView(tx, actor, known.id, 200);
    if (known) throw unprocessable({ uuid: ['A deleted view had this uuid.'] });
  }
  const campaignId = input.campaign_id == null ? null : await shareableCampaign(tx, actor, input.campaign_id);
  const uuid = input.uuid ?? randomUUID();
  const id = await insertView(tx, {
    uuid,
    userId: actor.id,
    campaignId,
    name: input.name,
    query: input.query,
    grammar: FILTER_GRAMMAR,
    sort: input.sort,
  });
  if (id === null) {
    // A concurrent create with the same uuid won: answer with its view.
    const known = await ownViewByUuid(tx, actor.id, uuid);
    if (!known || known.deleted) throw unprocessable({ uuid: ['A deleted view had this uuid.'] });
    return answerView(tx, actor, known.id, 200);
  }
  return answerView(tx, actor, id, 201);
}

/** Every view the actor sees: their own and those shared with their campaigns. */
export async function listViews(tx: Executor, actor: UserRow): Promise<View[]> {
  return (await listVisibleViews(tx, actor.id)).map(viewJson);
}

/** The view `id` the actor sees, or 404. */
export async function getView(tx: Executor, actor: UserRow, id: number): Promise<View> {
  const row = await visibleViewById(tx, actor.id, id);
  if (!row) throw notSeen();
  return viewJson(row);
}

/** The view for a change: 404 unseen, 403 seen but not the actor's to change; locked. */
async function editableView(tx: Executor, actor: UserRow, id: number): Promise<ViewRow> {
  const row = await visibleViewById(tx, actor.id, id);
  if (!row) throw notSeen();
  const mayEdit =
    row.user_id === actor.id ||
    (row.campaign_id !== null && editsIn(await roleInFamily(tx, actor.id, row.campaign_id)));
  if (!mayEdit) throw new HttpError(403, VIEW_EDIT_FORBIDDEN);
  await lockView(tx, id);
  return row;
}

/** Renames a view, changes its query or sort, shares or unshares it. */
export async function patchView(
  tx: Executor,
  actor: UserRow,
  id: number,
  patch: ViewPatch,
): Promise<WriteResult> {
  const row = await editableView(tx, actor, id);
  const campaignId =
    patch.campaign_id == null ? patch.campaign_id : await shareableCampaign(tx, actor, patch.campaign_id);
  await updateView(tx, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.query !== undefined ? { query: patch.query, grammar: FILTER_GRAMMAR } : {}),
    ...(patch.sort !== undefined ? { sort: patch.sort } : {}),
    ...(campaignId !== undefined ? { campaignId } : {}),
  });
  // Unshared by someone other than its creator, it may be out of their sight now: answer as it is.
  const after = await visibleViewById(tx, actor.id, id);
  return {
    status: 200,
    body: after ? viewJson(after) : viewJson({ ...row, campaign_id: null }),
    campaigns: sharedWith(row.campaign_id, campaignId),
  };
}

/** Deletes a view (its tombstone keeps the uuid). */
export async function deleteView(tx: Executor, actor: UserRow, id: number): Promise<WriteResult> {
  const row = await editableView(tx, actor, id);
  await softDeleteView(tx, id);
  return { status: 204, body: null, campaigns: sharedWith(row.campaign_id) };
}

/** L13: the views a pull over the transaction ids [from, to) carries for `userId`: live ones, and tombstones. */
export async function viewsChangedBetween(
  db: Executor,
  userId: number,
  from: bigint,
  to: bigint,
): Promise<(View | ListTombstone)[]> {
  const found = await viewRowsChangedBetween(db, userId, from, to);
  return found.map((row) =>
    row.seen ? viewJson(row) : { id: row.id, uuid: row.uuid, deleted_at: row.gone_at },
  );
}
