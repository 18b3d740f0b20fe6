import type { Item } from './item';
import { CHILD_QUEUE_KINDS, type ChildQueueKind, type ChildRequest, childOfKind } from './itemChildren';
import {
  type DeclaredItemFields,
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  type ItemFieldName,
  NULL_IS_NONE,
} from './itemFields';

/**
 * The sync protocol as data: what a queued request is, what pushing it can come to, what a 412
 * answers, which events the server sends, and how a push answer is judged. SYNC.md states the rules
 * these implement, by id (Q1–Q10, P1–P3, C1–C4, W1, E1).
 */

// ---------------------------------------------------------------------------------------------
// Queue entries
// ---------------------------------------------------------------------------------------------

/** An item's own queue kinds: what sync/ itself sends and settles. */
export const ITEM_QUEUE_KINDS = ['create', 'update', 'assign', 'delete', 'restore'] as const;
export type ItemQueueKind = (typeof ITEM_QUEUE_KINDS)[number];

/**
 * What a queued request does; stored with the entry (never parsed from its URL). An item's own kinds,
 * then its children's (./itemChildren.ts): a child's entry keeps the item's `itemId`, so it follows
 * the item's id swaps and goes with it when it goes (SYNC.md K8).
 */
export type QueueKind = ItemQueueKind | ChildQueueKind;
export const QUEUE_KINDS: readonly QueueKind[] = [...ITEM_QUEUE_KINDS, ...CHILD_QUEUE_KINDS];

/** Whether a kind writes one of an item's children (a comment, a time entry), not the item. */
export function isChildKind(kind: QueueKind): kind is ChildQueueKind {
  return childOfKind(kind) !== null;
}

export const QUEUE_METHODS = ['POST', 'PATCH', 'DELETE'] as const;
export type QueueMethod = (typeof QUEUE_METHODS)[number];

/**
 * The request each kind sends for item `id` (a temporary id is swapped in queued URLs later); a
 * child's kinds name the child as its declaration says: a comment's edit and delete by the comment's
 * server id, `commentId`; a time entry's stop, edit and delete by `timeRef` (its server id, or the
 * uuid of one of the caller's own).
 */
export function queueRequest(
  kind: QueueKind,
  id: number,
  commentId = 0,
  timeRef = '',
): { method: QueueMethod; url: string } {
  switch (kind) {
    case 'create':
      return { method: 'POST', url: '/api/items' };
    case 'update':
      return { method: 'PATCH', url: `/api/items/${id}` };
    case 'assign':
      return { method: 'POST', url: `/api/items/${id}/assign` };
    case 'delete':
      return { method: 'DELETE', url: `/api/items/${id}` };
    case 'restore':
      return { method: 'POST', url: `/api/items/${id}/restore` };
  }
  const request = childRequest(kind);
  return { method: request.method, url: request.path(id, timeRef || String(commentId)) };
}

/** A child kind's request, from its declaration. */
function childRequest(kind: ChildQueueKind): ChildRequest {
  const requests: Readonly<Record<string, ChildRequest>> | undefined = childOfKind(kind)?.requests;
  const request = requests?.[kind];
  if (!request) throw new Error(`No child kind declares queue kind ${kind}`);
  return request;
}

/** The server id of the comment a queued edit or delete names (0 for any other entry). */
export function commentIdOfUrl(url: string): number {
  const match = /\/api\/comments\/(\d+)$/.exec(url);
  return match ? Number(match[1]) : 0;
}

const ITEM_KIND_LABELS: Record<ItemQueueKind, string> = {
  create: 'new item',
  update: 'change',
  assign: 'assignment',
  delete: 'delete',
  restore: 'restore',
};

/** How a toast names a queued change of each kind. */
export const QUEUE_KIND_LABELS = Object.fromEntries(
  QUEUE_KINDS.map((kind) => [
    kind,
    isChildKind(kind) ? childRequest(kind).label : ITEM_KIND_LABELS[kind as ItemQueueKind],
  ]),
) as Record<QueueKind, string>;

/**
 * Every kind but a create edits a version the server has, so it says which one (If-Match, P3). A
 * restore does not: the delete it undoes made a version this device never saw, and a restore has
 * nothing to merge.
 */
export function sendsIfMatch(kind: QueueKind): boolean {
  return kind !== 'create' && kind !== 'restore' && !isChildKind(kind);
}

/**
 * The fields POST /api/items accepts, from an item (a new one, a guest's moving up, a re-created one):
 * every declared field (shared/itemFields.ts). One the row lacks (stored before the field) goes as
 * null when its schema takes null as none, else it is left out for the server's default; a blank of
 * a field older rows lack (a place not given yet: '') is left out too, so the server puts it last.
 */
export function createPayload(
  item: { title: string; type: Item['type']; uuid: string | null } & Partial<DeclaredItemFields> &
    Partial<Record<ItemFieldName, unknown>>,
): Record<string, unknown> {
  const payload: Record<string, unknown> = { type: item.type };
  for (const field of ITEM_FIELD_NAMES) {
    const { schema, optional } = ITEM_FIELDS[field];
    const value = item[field];
    if (value === undefined) {
      if (NULL_IS_NONE[schema]) payload[field] = null;
    } else if (!(value === '' && optional)) payload[field] = Array.isArray(value) ? [...value] : value;
  }
  payload.uuid = item.uuid;
  return payload;
}

// ---------------------------------------------------------------------------------------------
// Push outcomes and the HTTP status policy
// ---------------------------------------------------------------------------------------------

/** Entries the server fails 3 times (5xx and the like) are dropped, with a toast (Q7). */
export const MAX_RETRIES = 3;
/** How long to hold the queue after a 429 that carries no Retry-After (Q6). */
export const DEFAULT_RETRY_AFTER_S = 30;

/**
 * What sending one queued entry came to. `E` is the client's error type.
 * - `done`: the server applied it (or a delete found the item already gone); the answer is stored
 *   and the entry removed. `itemId` is the item's id now (a create's temporary id becomes the server's).
 * - `dropped`: the server refused it for good (a 4xx, Q3) or it failed `MAX_RETRIES` times (Q7); the
 *   entry is removed, the local change undone, and a toast says so.
 * - `retry`: a server failure (5xx or similar); the entry stays with one more retry counted (Q7).
 * - `network`: no answer at all; the entry stays untouched and the run stops (Q2).
 * - `conflict`: a 412 the edits could not merge, or the server no longer has the item; a conflict
 *   is open and that item's changes (and those of what lies under it) wait until the user resolves
 *   it; the rest of the queue goes on (Q9, C4).
 * - `held`: the server asked for a pause (429, Q6) or the anti-forgery token could not be renewed
 *   (419 twice, Q4); the entry stays and the run stops.
 * - `unauthorized`: the session is gone (401); the device turns guest, the entry stays.
 * - `queued`: not sent now (offline, a guest, or another run holds the lock and will send it).
 */
export type PushOutcome<E = unknown> =
  | { kind: 'done'; itemId: number }
  | { kind: 'dropped'; error: E }
  | { kind: 'retry'; error: E }
  | { kind: 'network'; error: E }
  | { kind: 'conflict' }
  | { kind: 'held'; error?: E }
  | { kind: 'unauthorized'; error: E }
  | { kind: 'queued' };
export type PushOutcomeKind = PushOutcome['kind'];

/** What the push does with a failed answer; `decidePush` is the whole status policy. */
export type PushDecision =
  /** No answer: stop the run, keep the entry as it is (Q2). */
  | 'network'
  /** 401: stop, keep the entry; the client signs out to guest. */
  | 'unauthorized'
  /** 419 on the first try: fetch a new anti-forgery token and send again. */
  | 'renew-token'
  /** 419 again: stop and keep the entry. */
  | 'hold'
  /** 429: hold the whole queue until Retry-After (Q6). */
  | 'rate-limited'
  /** 412: rebase the local edits on the server's copy (Q9). */
  | 'stale'
  /** 404 for a delete: the item is already gone, which is what the delete wanted. */
  | 'already-deleted'
  /** 404 for an edit of a server item: the server no longer has (or shows) it; a delete conflict. */
  | 'gone'
  /** Any other 4xx: drop the entry with a toast (Q3); a comment keeps its text, marked refused (K20). */
  | 'drop'
  /** A server failure: count a retry (Q7). */
  | 'retry'
  /** A server failure at the last retry: drop with a toast (Q7). */
  | 'drop-after-retries';

export interface PushContext {
  kind: QueueKind;
  /** Retries counted so far on the entry. */
  retries: number;
  /** 0 for the first send of this entry in this run. */
  attempt: number;
  /** The item is on the server (a positive id). */
  onServer: boolean;
  /**
   * The write is being sent right after it was made (not replayed by a sync run): a create the server
   * refuses then keeps its local pending copy for the next run (the spec's failed online create).
   */
  immediate: boolean;
}

/** The status policy of a push: what to do with an answer of `status` (0 for no answer). */
export function decidePush(status: number, network: boolean, ctx: PushContext): PushDecision {
  if (network || status === 0) return 'network';
  if (status === 401) return 'unauthorized';
  if (status === 419) return ctx.attempt === 0 ? 'renew-token' : 'hold';
  if (status === 429) return 'rate-limited';
  if (status === 412) return 'stale';
  const child = childOfKind(ctx.kind);
  if (status === 404 && (ctx.kind === 'delete' || child?.deleteKind === ctx.kind)) return 'already-deleted';
  // A child's item (or the child) gone or out of sight, or its content refused: nothing to merge. The
  // entry goes; a comment's text stays on the device with the server's reason (K20), a time entry
  // gives way (X10): the child kind's hooks settle it.
  if (child && status >= 400 && status < 500) return 'drop';
  // A restore of an item purged or no longer shared: nothing to bring back; the toast says so (Q5).
  if (status === 404 && ctx.kind === 'restore') return 'drop';
  if (status === 404 && ctx.kind !== 'create' && ctx.onServer) return 'gone';
  if (status >= 400 && status < 500 && !(ctx.immediate && ctx.kind === 'create')) return 'drop';
  return ctx.retries + 1 >= MAX_RETRIES ? 'drop-after-retries' : 'retry';
}

// ---------------------------------------------------------------------------------------------
// The 412 body
// ---------------------------------------------------------------------------------------------

/** A 412 Precondition Failed answers with the server's copy of the item (P3). */
export interface StaleWriteBody {
  message: string;
  item: Item;
}

/** True for a 412 body that carries the server's item. */
export function isStaleWriteBody(body: unknown): body is StaleWriteBody {
  if (typeof body !== 'object' || body === null) return false;
  const { message, item } = body as { message?: unknown; item?: unknown };
  if (typeof message !== 'string' || typeof item !== 'object' || item === null) return false;
  const { id, version } = item as { id?: unknown; version?: unknown };
  return typeof id === 'number' && typeof version === 'number';
}
