/**
 * Losing a shared campaign with changes still queued (SYNC.md Q12, ARCHITECTURE §5 'Who sees what').
 * A member removed from a campaign (or one who left, or was made a viewer) may hold edits the server
 * will never take: the pull's tombstones purge the campaign, and the queue's 403s and 404s for it
 * are not conflicts to resolve (there is nothing left to keep them against) nor one 'Change not
 * synced' toast each. They are kept on the device (meta 'rejectedChanges'), the items leave it, and
 * one toast after the run says 'N changes could not be applied: you no longer have access' with
 * 'Export them', which downloads them as JSON. Nothing is lost silently.
 */
import type { ToastInput } from '../../stores/toastStore';
import type { OutpostDb } from '../store/db';
import { descendantIds } from '../store/localItems';
import type { LocalItem, QueueEntry } from '../store/types';
import { drop } from './queue';

/** The meta row that keeps the refused changes (never sent again; exported on request). */
export const REJECTED_KEY = 'rejectedChanges';
/** The most kept: older ones go first (a burst of edits to a lost campaign cannot fill the disk). */
export const REJECTED_MAX = 2_000;
export const LOST_ACCESS_TOAST_MS = 30_000;

export interface RejectedChange {
  /** The queue entry's id. */
  id: string;
  kind: QueueEntry['kind'];
  method: QueueEntry['method'];
  url: string;
  data: Record<string, unknown> | null;
  queued_at: string;
  rejected_at: string;
  item: { id: number; uuid: string | null; type: string; title: string; parent_id: number | null } | null;
  /** Whether the user has been told of it (the toast after the run that kept it). */
  announced: boolean;
}

/** Whether the device holds `item` only as a member of someone else's campaign (§4 `my_role`). */
export function heldAsMember(item: object | null | undefined): boolean {
  const role = (item as { my_role?: unknown } | null | undefined)?.my_role;
  return role === 'editor' || role === 'viewer';
}

/**
 * Whether a refusal means the caller lost access to the entry's item: a 403 or 404 for an item held
 * as a member, or a create refused (403, 404, or 422 on `parent_id`) under a parent held as a member
 * or already purged from the device. A 404 for a delete is the delete done (Q5), never a loss.
 */
export async function isLostAccess(
  db: OutpostDb,
  entry: QueueEntry,
  status: number,
  body: unknown,
): Promise<boolean> {
  if (entry.kind === 'delete' && status === 404) return false;
  const parentRefused =
    status === 422 &&
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { errors?: unknown }).errors === 'object' &&
    (body as { errors: Record<string, unknown> | null }).errors !== null &&
    'parent_id' in (body as { errors: Record<string, unknown> }).errors;
  if (status !== 403 && status !== 404 && !parentRefused) return false;
  const item = await db.items.get(entry.itemId);
  if (heldAsMember(item)) return status !== 422;
  if (entry.kind !== 'create' || !item || item.parent_id === null || item.parent_id <= 0) return false;
  const parent = await db.items.get(item.parent_id);
  if (!parent) return true;
  if (heldAsMember(parent)) return true;
  const top = parent.parent_id !== null ? await db.items.get(parent.parent_id) : null;
  return heldAsMember(top);
}

function recordOf(entry: QueueEntry, item: LocalItem | undefined, now: Date): RejectedChange {
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
  };
}

/** The changes kept so far, oldest first. */
export async function rejectedChanges(db: OutpostDb): Promise<RejectedChange[]> {
  const row = await db.meta.get(REJECTED_KEY);
  return Array.isArray(row?.value) ? (row.value as RejectedChange[]) : [];
}

/**
 * Keeps `entries` as refused for lost access and takes them off the queue (inside the caller's
 * transaction over items, syncQueue and meta). Answers how many were kept.
 */
export async function keepRejected(
  db: OutpostDb,
  entries: readonly QueueEntry[],
  now = new Date(),
): Promise<number> {
  if (entries.length === 0) return 0;
  const items = await db.items.bulkGet([...new Set(entries.map((e) => e.itemId))]);
  const byId = new Map(items.filter((i): i is LocalItem => i !== undefined).map((i) => [i.id, i]));
  const kept = await rejectedChanges(db);
  const known = new Set(kept.map((k) => k.id));
  const fresh = [...entries]
    .sort((a, b) => a.seq - b.seq)
    .filter((e) => !known.has(e.id))
    .map((e) => recordOf(e, byId.get(e.itemId), now));
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
export async function rejectLost(db: OutpostDb, entry: QueueEntry, status: number): Promise<void> {
  if (status === 403) {
    await keepRejected(db, [entry]);
    return;
  }
  const ids = [entry.itemId, ...(await descendantIds(db, entry.itemId))];
  const entries = await db.syncQueue.where('itemId').anyOf(ids).toArray();
  await keepRejected(db, entries);
  await db.items.bulkDelete(ids);
}

/** The toast for `count` changes kept since the user was last told, with its export. */
export function lostAccessToast(count: number, onExport: () => void): ToastInput {
  return {
    title: `${count} ${count === 1 ? 'change' : 'changes'} could not be applied: you no longer have access`,
    description:
      'You were removed from a shared campaign, or can only view it now. Export them to keep them.',
    variant: 'destructive',
    duration: LOST_ACCESS_TOAST_MS,
    action: { label: 'Export them', onClick: onExport },
  };
}

/** The kept changes as a JSON file (the same shape whatever their kind). */
export function rejectedFile(list: readonly RejectedChange[], now = new Date()) {
  const day = now.toISOString().slice(0, 10);
  const changes = list.map(({ announced: _announced, ...rest }) => rest);
  return {
    name: `outpost-not-applied-${day}.json`,
    mime: 'application/json',
    text: `${JSON.stringify({ format: 'outpost-not-applied', version: 1, exported_at: now.toISOString(), changes }, null, 2)}\n`,
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
    const unannounced = list.filter((c) => !c.announced).length;
    if (unannounced > 0)
      await db.meta.put({ key: REJECTED_KEY, value: list.map((c) => ({ ...c, announced: true })) });
    return unannounced;
  });
  if (fresh > 0)
    toast(
      lostAccessToast(fresh, () => void rejectedChanges(db).then((list) => download(rejectedFile(list)))),
    );
  return fresh;
}
