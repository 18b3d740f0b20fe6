/**
 * Losing a shared campaign with changes still queued (SYNC.md Q12, ARCHITECTURE §5 'Who sees what').
 * A member removed from a campaign (or one who left, or was made a viewer) may hold edits the server
 * will never take: the pull's tombstones purge the campaign, and the queue's 403s and 404s for it
 * are not conflicts to resolve (there is nothing left to keep them against) nor one 'Change not
 * synced' toast each. They are kept on the device (meta 'rejectedChanges'), the items leave it, and
 * one toast after the run says 'N changes could not be applied: you no longer have access' with
 * 'Export them', which downloads them as JSON. Nothing is lost silently.
 */

import { childOfKind } from '../../../shared/itemChildren';
import { departureSchema } from '../../../shared/membershipSchemas';
import type { ToastInput } from '../../stores/toastStore';
import { type ApiClient, ApiError, isNetworkError } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import {
  type LostCampaign,
  noteLost,
  REJECTED_KEY,
  REJECTED_MAX,
  type RefusalCause,
  type RejectedChange,
  refusalText,
  rejectedChanges,
  rejectedFile,
} from '../store/keptChanges';
import { descendantIds } from '../store/localItems';
import type { LocalItem, QueueEntry } from '../store/types';
import { drop } from './queue';

export const LOST_ACCESS_TOAST_MS = 30_000;

/** Whether the device holds `item` only as a member of someone else's campaign (§4 `my_role`). */
export function heldAsMember(item: object | null | undefined): boolean {
  const role = (item as { my_role?: unknown } | null | undefined)?.my_role;
  return role === 'editor' || role === 'viewer';
}

/** The top-level item above `id` on the device (itself when it has no parent there), or null. */
async function rootOf(db: OutpostDb, id: number): Promise<LocalItem | null> {
  let item = await db.items.get(id);
  for (let depth = 0; item && item.parent_id !== null && item.parent_id > 0 && depth < 4; depth++) {
    const parent = await db.items.get(item.parent_id);
    if (!parent) return item;
    item = parent;
  }
  return item ?? null;
}

/** What the server says of a GET: seen (200), gone (404, with a departure when the caller left it), or no answer. */
async function probe(
  api: ApiClient,
  id: number,
): Promise<
  { seen: true } | { seen: false; departure: ReturnType<typeof departureSchema.parse> | null } | null
> {
  try {
    await api.get(`/items/${id}`);
    return { seen: true };
  } catch (error) {
    if (!(error instanceof ApiError) || isNetworkError(error)) return null;
    if (error.status !== 404) return null;
    const parsed = departureSchema.safeParse((error.data as { departure?: unknown } | null)?.departure);
    return { seen: false, departure: parsed.success ? parsed.data : null };
  }
}

/** A kept refusal's cause and campaign; 'unknown' when the server could not be asked (keep the entry). */
export type LostVerdict = { cause: RefusalCause; campaign: LostCampaign | null } | 'unknown' | null;

function heldRefusal(status: number, body: unknown): boolean {
  const parentRefused =
    status === 422 &&
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { errors?: unknown }).errors === 'object' &&
    (body as { errors: Record<string, unknown> | null }).errors !== null &&
    'parent_id' in (body as { errors: Record<string, unknown> }).errors;
  return status === 403 || status === 404 || parentRefused;
}

/**
 * Whether a refusal is kept (Q12, Q20, Q21), and why: a 403 or 404 for an item held as a member (its
 * comments' writes included), or a create refused (403, 404, or 422 on `parent_id`) under a parent
 * held as a member or already purged from the device. A 404 asks the server whether the campaign is
 * still seen: gone is a removal (with who removed the caller, Q22); still seen, an item's own write
 * is the delete conflict it always was (C2, null here) and a comment on a deleted item is kept as
 * 'deleted'. A 404 for a delete is the delete done (Q5), never a loss; a 403 for a comment is about
 * the comment (not the author's), never the campaign.
 */
export async function lostAccessVerdict(
  db: OutpostDb,
  api: ApiClient,
  entry: QueueEntry,
  status: number,
  body: unknown,
): Promise<LostVerdict> {
  const child = childOfKind(entry.kind);
  if ((entry.kind === 'delete' || child?.deleteKind === entry.kind) && status === 404) return null;
  // A child kind not kept when lost is the feature's to settle (X10): the device gives way.
  if (child && !child.keptWhenLost) return null;
  if (child && status !== 404) return null;
  if (!heldRefusal(status, body)) return null;
  const item = await db.items.get(entry.itemId);
  let held = heldAsMember(item);
  if (!held) {
    if (entry.kind !== 'create' || !item || item.parent_id === null || item.parent_id <= 0) return null;
    const parent = await db.items.get(item.parent_id);
    held =
      !parent ||
      heldAsMember(parent) ||
      heldAsMember(parent.parent_id !== null ? await db.items.get(parent.parent_id) : null);
    if (!held) return null;
  } else if (status === 422) return null;
  const root = item
    ? await rootOf(db, item.parent_id !== null && item.parent_id > 0 ? item.parent_id : item.id)
    : null;
  const known = root && root.type === 'campaign' ? root : null;
  if (status === 403) {
    return {
      cause: 'role',
      campaign: known && { id: known.id, title: known.title, removed: false, by: null },
    };
  }
  const top = known ?? root;
  if (!top || top.id <= 0) return { cause: 'removed', campaign: null };
  const answer = await probe(api, top.id);
  if (answer === null) return 'unknown';
  if (!answer.seen) {
    const d = answer.departure;
    return {
      cause: 'removed',
      campaign: known && {
        id: known.id,
        title: known.title,
        removed: d?.removed ?? false,
        by: d?.by ?? null,
      },
    };
  }
  // The campaign is still seen: the item (or a comment) was deleted by someone who may.
  if (!child) return null;
  // A 404 for a write that names the child may be the child's own deletion: the item still seen, it is.
  if (entry.kind !== child.createKind && item && item.id > 0) {
    const own = await probe(api, item.id);
    if (own === null) return 'unknown';
    if (own.seen) return null;
  }
  return {
    cause: 'deleted',
    campaign: known && { id: known.id, title: known.title, removed: false, by: null },
  };
}

function recordOf(
  entry: QueueEntry,
  item: LocalItem | undefined,
  now: Date,
  why: { cause: RefusalCause; campaign: LostCampaign | null },
): RejectedChange {
  return {
    id: entry.id,
    kind: entry.kind,
    method: entry.method,
    url: entry.url,
    data: entry.data,
    queued_at: new Date(entry.timestamp).toISOString(),
    rejected_at: now.toISOString(),
    item: item
      ? {
          id: item.id,
          uuid: item.uuid ?? null,
          type: item.type,
          title: item.title,
          parent_id: item.parent_id,
        }
      : null,
    announced: false,
    cause: why.cause,
    campaign: why.campaign,
  };
}

/**
 * Keeps `entries` as refused for lost access and takes them off the queue (inside the caller's
 * transaction over items, syncQueue and meta). Answers how many were kept.
 */
export async function keepRejected(
  db: OutpostDb,
  entries: readonly QueueEntry[],
  now = new Date(),
  why: { cause: RefusalCause; campaign: LostCampaign | null } = { cause: 'removed', campaign: null },
): Promise<number> {
  if (entries.length === 0) return 0;
  const items = await db.items.bulkGet([...new Set(entries.map((e) => e.itemId))]);
  const byId = new Map(items.filter((i): i is LocalItem => i !== undefined).map((i) => [i.id, i]));
  const kept = await rejectedChanges(db);
  const known = new Set(kept.map((k) => k.id));
  const fresh = [...entries]
    .sort((a, b) => a.seq - b.seq)
    .filter((e) => !known.has(e.id))
    .map((e) => recordOf(e, byId.get(e.itemId), now, why));
  await db.meta.put({ key: REJECTED_KEY, value: [...kept, ...fresh].slice(-REJECTED_MAX) });
  await drop(
    db,
    entries.map((e) => e.id),
  );
  return fresh.length;
}

/**
 * A refused entry for an item the caller no longer sees (404, or a create under a lost parent): it
 * and every change queued for the item and what lies under it are kept, and the items leave the
 * device. A 403 (the item is still seen, read-only now) keeps only this entry; the caller puts the
 * server's copy back.
 */
export async function rejectLost(
  db: OutpostDb,
  entry: QueueEntry,
  status: number,
  why: { cause: RefusalCause; campaign: LostCampaign | null } = { cause: 'removed', campaign: null },
): Promise<number[]> {
  if (status === 403 || why.cause !== 'removed') {
    await keepRejected(db, [entry], new Date(), why);
    return [];
  }
  const ids = [entry.itemId, ...(await descendantIds(db, entry.itemId))];
  const entries = await db.syncQueue.where('itemId').anyOf(ids).toArray();
  await keepRejected(db, entries, new Date(), why);
  const campaign = why.campaign;
  if (campaign)
    await noteLost(
      db,
      ids.map((id) => ({ id, lost: { campaignId: campaign.id, title: campaign.title } })),
    );
  await db.items.bulkDelete(ids);
  return ids;
}

/** The toast for `fresh` changes kept since the user was last told, with its export (Q12, Q21). */
export function lostAccessToast(
  fresh: readonly Pick<RejectedChange, 'cause' | 'campaign'>[],
  onExport: () => void,
): ToastInput {
  const count = fresh.length;
  const noun = `${count} ${count === 1 ? 'change' : 'changes'} could not be applied`;
  const lost = fresh.every((c) => (c.cause ?? 'removed') === 'removed');
  const reasons = [...new Set(fresh.map(refusalText))];
  const generic = reasons.length === 1 && reasons[0] === 'You no longer have access to its campaign';
  return {
    title: lost ? `${noun}: you no longer have access` : noun,
    description: generic
      ? 'You were removed from a shared campaign, or can only view it now. Export them to keep them, or find them in Preferences › Data.'
      : `${reasons.join('. ')}. Export them to keep them, or find them in Preferences › Data.`,
    variant: 'destructive',
    duration: LOST_ACCESS_TOAST_MS,
    action: { label: 'Export them', onClick: onExport },
  };
}

/**
 * Tells the user of changes kept since the last toast (after a run or an immediate push): one toast
 * for all of them, whose 'Export them' downloads every kept change. Marks them told.
 */
export async function announceRejected(
  db: OutpostDb,
  toast: (t: ToastInput) => void,
  /** Saves the file of kept changes (the composition's download: a browser's). */
  download: (file: ReturnType<typeof rejectedFile>) => void,
): Promise<number> {
  const fresh = await db.transaction('rw', ['meta'], async () => {
    const list = await rejectedChanges(db);
    const unannounced = list.filter((c) => !c.announced);
    if (unannounced.length > 0)
      await db.meta.put({ key: REJECTED_KEY, value: list.map((c) => ({ ...c, announced: true })) });
    return unannounced;
  });
  if (fresh.length > 0)
    toast(
      lostAccessToast(fresh, () => void rejectedChanges(db).then((list) => download(rejectedFile(list)))),
    );
  return fresh.length;
}
