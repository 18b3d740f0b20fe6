/**
 * The changes the server refused for good and the device keeps for the user (SYNC.md Q12, Q20–Q23):
 * one meta row, written by sync/lostAccess.ts, read by Preferences › Data ('Changes that could not
 * be applied') until the user exports or dismisses them. Clear Local Data and a sign-in as another
 * account empty it with the rest of meta.
 */
import { QUEUE_KIND_LABELS } from '../../../shared/protocol';
import { META_KEYS, type OutpostDb } from './db';
import type { QueueEntry } from './types';

/** The meta row that keeps the refused changes (never sent again; exported on request). */
export const REJECTED_KEY = META_KEYS.rejectedChanges;
/** The most kept: older ones go first (a burst of edits to a lost campaign cannot fill the disk). */
export const REJECTED_MAX = 2_000;

/**
 * Why the server refused a kept change (Q21): the caller was removed from (or left) the campaign, the
 * item was deleted by someone who may, or the caller's role does not allow the change.
 */
export const REFUSAL_CAUSES = ['removed', 'deleted', 'role'] as const;
export type RefusalCause = (typeof REFUSAL_CAUSES)[number];

/** The campaign a change was lost with, as the device saw it, and who removed the caller (Q22). */
export interface LostCampaign {
  id: number;
  title: string;
  /** The owner removed them (false: they left, or it is not known). */
  removed: boolean;
  /** The owner's name when they removed the caller. */
  by: string | null;
}

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
  /** Why it was refused (kept before causes were recorded: 'removed'). */
  cause?: RefusalCause;
  /** The campaign it was lost with, when the device knows it. */
  campaign?: LostCampaign | null;
}

/** Why one kept change was refused, as the user reads it (Q21). */
export function refusalText(change: Pick<RejectedChange, 'cause' | 'campaign'>): string {
  const c = change.campaign;
  switch (change.cause ?? 'removed') {
    case 'deleted':
      return 'The item was deleted';
    case 'role':
      return c ? `Your role in “${c.title}” does not allow it` : 'Your role does not allow it';
    default:
      if (c?.removed && c.by) return `You were removed from “${c.title}” by ${c.by}`;
      if (c?.removed) return `You were removed from “${c.title}”`;
      return c ? `You no longer have access to “${c.title}”` : 'You no longer have access to its campaign';
  }
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

/** The changes kept so far, oldest first. */
export async function rejectedChanges(db: OutpostDb): Promise<RejectedChange[]> {
  const row = await db.meta.get(REJECTED_KEY);
  return Array.isArray(row?.value) ? (row.value as RejectedChange[]) : [];
}

/** Forgets the kept changes named by `ids` (all of them without), once the user has dealt with them (Q23). */
export async function dismissKept(db: OutpostDb, ids?: readonly string[]): Promise<number> {
  return db.transaction('rw', ['meta'], async () => {
    const list = await rejectedChanges(db);
    const gone = ids ? new Set(ids) : null;
    const left = gone ? list.filter((c) => !gone.has(c.id)) : [];
    if (left.length === 0) await db.meta.delete(REJECTED_KEY);
    else await db.meta.put({ key: REJECTED_KEY, value: left });
    return list.length - left.length;
  });
}

/** One kept change as Preferences › Data lists it (Q23). */
export interface KeptView {
  id: string;
  /** What the change was, as the user reads it: 'Comment on “Book the hall”: “Free on Friday”'. */
  what: string;
  /** Why it could not be applied (refusalText). */
  why: string;
  rejectedAt: string;
}

/** What a kept change was, in a line (its item's title and, for a comment, the start of its text). */
export function keptWhat(change: Pick<RejectedChange, 'kind' | 'item' | 'data'>): string {
  const title = change.item?.title ? `“${change.item.title}”` : 'an item';
  const body = typeof change.data?.body === 'string' ? change.data.body.trim() : '';
  const quoted = body ? `: “${body.length > 80 ? `${body.slice(0, 79)}…` : body}”` : '';
  switch (change.kind) {
    case 'comment_create':
      return `Comment on ${title}${quoted}`;
    case 'comment_edit':
      return `Comment edit on ${title}${quoted}`;
    case 'create':
      return `New ${change.item?.type ?? 'item'} ${title}`;
    case 'attachment_upload':
      // A file that never reached the server (SYNC.md A6): its bytes stay on the device with it.
      return `File “${typeof change.data?.name === 'string' ? change.data.name : 'file'}” on ${title}`;
    default: {
      const label = QUEUE_KIND_LABELS[change.kind] ?? 'change';
      return `${label.charAt(0).toUpperCase()}${label.slice(1)} of ${title}`;
    }
  }
}

/** The kept changes as Preferences › Data lists them, newest first. */
export async function keptViews(db: OutpostDb): Promise<KeptView[]> {
  return (await rejectedChanges(db))
    .map((c) => ({ id: c.id, what: keptWhat(c), why: refusalText(c), rejectedAt: c.rejected_at }))
    .reverse();
}

/** The meta row naming the items that left with a lost campaign, for their pages to say so (Q24). */
export const LOST_ITEMS_KEY = META_KEYS.lostItems;
/** The most remembered: the oldest go first. */
export const LOST_ITEMS_MAX = 5_000;

/** The campaign an item left the device with (its title as the device saw it). */
export interface LostItem {
  campaignId: number;
  title: string;
}

type LostMap = Record<string, LostItem>;

/** Remembers that `items` left with their campaign (inside the caller's transaction over meta). */
export async function noteLost(
  db: OutpostDb,
  items: readonly { id: number; lost: LostItem }[],
): Promise<void> {
  if (items.length === 0) return;
  const row = await db.meta.get(LOST_ITEMS_KEY);
  const map: LostMap = { ...((row?.value as LostMap | undefined) ?? {}) };
  for (const { id, lost } of items) {
    delete map[id];
    map[id] = lost;
  }
  const keys = Object.keys(map);
  for (const key of keys.slice(0, Math.max(0, keys.length - LOST_ITEMS_MAX))) delete map[key];
  await db.meta.put({ key: LOST_ITEMS_KEY, value: map });
}

/** The campaign item `id` left the device with, or null (it never did, or is forgotten). */
export async function lostItemOf(db: OutpostDb, id: number): Promise<LostItem | null> {
  const row = await db.meta.get(LOST_ITEMS_KEY);
  return (row?.value as LostMap | undefined)?.[id] ?? null;
}
