import type { SyncAttachmentChange } from './attachments';
import type { SyncCommentChange } from './comments';
import type { SyncTimeEntryChange } from './timeEntries';
import type { WebhookEvent } from './webhooks';

/**
 * The children of an item, declared once (ARCHITECTURE §6 'Children of an item are declared once').
 * Comments and time entries are one kind of thing: rows that belong to an item, sync with it, go with
 * it and follow its visibility. The server's sync page and webhook payloads, and the device's
 * temporary-id retargeting, local delete cascade, guest upgrade, device wipe and sync tables iterate
 * ITEM_CHILDREN, and a queue row names its child the one way (`child`, keyed by `queueKey`), so a new
 * child kind is a migration, one declaration here, its routes' rules and its UI (SYNC.md K30).
 */

/** The request a child's queue kind sends for item `itemId`; `ref` names the child (an id or a uuid). */
export interface ChildRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: (itemId: number, ref: string) => string;
  /** How a toast names a queued change of the kind. */
  label: string;
}

/** One kind of child of an item. */
export interface ItemChildKind<Name extends string = string, Store extends string = string> {
  /** The server's table, and the key of a sync page that carries the kind's rows. */
  name: Name;
  /** The device's IndexedDB store of the rows (its own key; an `item_id` index, a `_syncStatus` field). */
  store: Store;
  /** The column (server) and field (device) that names the row's item. */
  itemColumn: 'item_id';
  /**
   * What a queue row about one of these rows names it by (its `child`, SYNC.md Q14): the device's
   * `id` (a create's temporary one until the server answers it) or its `uuid`, which nothing changes.
   */
  queueKey: 'id' | 'uuid';
  /** The queue kinds that write one of these rows, never the item itself (SYNC.md K8, X10). */
  requests: Readonly<Record<string, ChildRequest>>;
  /** The kind that creates one (its request names the item, not the child). */
  createKind: string;
  /** The kind whose 404 is the delete done (Q5), not a refusal. */
  deleteKind: string;
  /**
   * What marks a sync cursor's position among these rows: within one transaction id every item row
   * comes first, then each child kind in declaration order (K13, X5).
   */
  cursorMark: string;
  /**
   * The tombstone rule: a row whose `deleted_at` is set travels as `{id, uuid, item_id, deleted_at}`
   * (ChildTombstone), and only to whoever sees its live item, like the row itself (K13).
   */
  tombstone: 'deleted_at';
  /**
   * What the 30-day purge does to the rows of a purged item (K26): `delete` them, or `erase` the named
   * text columns (set to '') where the rows themselves still count (a time entry's span keeps its
   * owner's later entries from overlapping it).
   */
  purge: { kind: 'delete' } | { kind: 'erase'; columns: readonly string[] };
  /** The webhook events of the kind (a registered payload function gives their data: `{ <event noun> }`). */
  webhookEvents: readonly WebhookEvent[];
  /**
   * A write refused because its item was lost to the device (removed from the campaign, its item
   * deleted) is kept with the changes that could not be applied (Q20); false: the device gives way.
   */
  keptWhenLost: boolean;
}

/** The JSON shape of each kind's entry on a sync page: the API's row with its item's uuid, or a tombstone. */
export interface ItemChildChanges {
  comments: SyncCommentChange;
  time_entries: SyncTimeEntryChange;
  attachments: SyncAttachmentChange;
}

/** Every child kind, in the order a sync page sends them within one transaction id. */
export const ITEM_CHILDREN = [
  {
    name: 'comments',
    store: 'comments',
    itemColumn: 'item_id',
    queueKey: 'id',
    requests: {
      comment_create: {
        method: 'POST',
        path: (itemId) => `/api/items/${itemId}/comments`,
        label: 'comment',
      },
      comment_edit: { method: 'PATCH', path: (_, ref) => `/api/comments/${ref}`, label: 'comment edit' },
      comment_delete: {
        method: 'DELETE',
        path: (_, ref) => `/api/comments/${ref}`,
        label: 'comment delete',
      },
    },
    createKind: 'comment_create',
    deleteKind: 'comment_delete',
    cursorMark: '_',
    tombstone: 'deleted_at',
    purge: { kind: 'delete' },
    webhookEvents: ['comment.created', 'comment.updated', 'comment.deleted'],
    keptWhenLost: true,
  },
  {
    name: 'time_entries',
    store: 'timeEntries',
    itemColumn: 'item_id',
    queueKey: 'uuid',
    requests: {
      time_create: {
        method: 'POST',
        path: (itemId) => `/api/items/${itemId}/time_entries`,
        label: 'time entry',
      },
      time_stop: {
        method: 'POST',
        path: (_, ref) => `/api/time_entries/${encodeURIComponent(ref)}/stop`,
        label: 'timer stop',
      },
      time_edit: {
        method: 'PATCH',
        path: (_, ref) => `/api/time_entries/${encodeURIComponent(ref)}`,
        label: 'time entry edit',
      },
      time_delete: {
        method: 'DELETE',
        path: (_, ref) => `/api/time_entries/${encodeURIComponent(ref)}`,
        label: 'time entry delete',
      },
    },
    createKind: 'time_create',
    deleteKind: 'time_delete',
    cursorMark: '~',
    tombstone: 'deleted_at',
    purge: { kind: 'erase', columns: ['note'] },
    webhookEvents: ['time_entry.created'],
    keptWhenLost: false,
  },
  {
    // Files (ARCHITECTURE §6 'Files offline'): the create is a multipart upload that runs beside the
    // queue from the device's file store, never a queued row (a large file never delays an edit);
    // the delete is queued like any child's.
    name: 'attachments',
    store: 'attachments',
    itemColumn: 'item_id',
    queueKey: 'uuid',
    requests: {
      attachment_upload: {
        method: 'POST',
        path: (itemId) => `/api/items/${itemId}/attachments`,
        label: 'file upload',
      },
      attachment_delete: {
        method: 'DELETE',
        path: (_, ref) => `/api/attachments/${encodeURIComponent(ref)}`,
        label: 'file delete',
      },
    },
    createKind: 'attachment_upload',
    deleteKind: 'attachment_delete',
    cursorMark: '^',
    tombstone: 'deleted_at',
    purge: { kind: 'delete' },
    webhookEvents: ['attachment.created', 'attachment.deleted'],
    keptWhenLost: true,
  },
] as const satisfies readonly ItemChildKind<keyof ItemChildChanges>[];

export type ItemChild = (typeof ITEM_CHILDREN)[number];
/** A child kind's name: its server table and its sync page key. */
export type ItemChildName = ItemChild['name'];
/** A child kind's device store. */
export type ItemChildStore = ItemChild['store'];
/** A queue kind that writes a child of an item. */
export type ChildQueueKind = {
  [K in ItemChildName]: keyof Extract<ItemChild, { name: K }>['requests'];
}[ItemChildName] &
  string;

/** The device stores of the children, in declaration order. */
export const ITEM_CHILD_STORES: readonly ItemChildStore[] = ITEM_CHILDREN.map((c) => c.store);

/** Every child queue kind, in declaration order. */
export const CHILD_QUEUE_KINDS = ITEM_CHILDREN.flatMap(
  (c) => Object.keys(c.requests) as ChildQueueKind[],
) as readonly ChildQueueKind[];

/** The child kind a queue kind writes, or null for an item's own kind. */
export function childOfKind(kind: string): ItemChild | null {
  return ITEM_CHILDREN.find((c) => Object.hasOwn(c.requests, kind)) ?? null;
}

/** The child kind of a sync cursor's mark ('' is an item's position), or null for no declared mark. */
export function childOfMark(mark: string): ItemChild | null {
  return ITEM_CHILDREN.find((c) => c.cursorMark === mark) ?? null;
}

/** What a sync page carries of each child kind (absent on pages of servers from before the kind). */
export type SyncPageChildren = { [N in ItemChildName]?: ItemChildChanges[N][] };

/** A deleted child as a sync page carries it: never its content (K13). */
export interface ChildTombstone {
  id: number;
  uuid: string;
  item_id: number;
  deleted_at: string;
}

/** True for a sync entry that removes a child from the device (the tombstone rule). */
export function isChildTombstone(change: object): change is ChildTombstone {
  return 'deleted_at' in change;
}
