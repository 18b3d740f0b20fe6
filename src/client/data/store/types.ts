import type { Attachment } from '../../../shared/attachments';
import type { Comment } from '../../../shared/comments';
import type { Item, UserSummary } from '../../../shared/item';
import type { ItemChildName } from '../../../shared/itemChildren';
import type { QueueKind, QueueMethod } from '../../../shared/protocol';
import type { PatchableField } from '../../../shared/schemas';
import type { TimeEntryFields } from '../../../shared/timeEntries';
import type { UndoStep } from '../../../shared/undo';

/** pending: changes await the server; synced: matches the server; local: guest data, never sent. */
export const SYNC_STATUSES = ['pending', 'synced', 'local'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export const CONFLICT_TYPES = ['update', 'delete'] as const;
export type ConflictType = (typeof CONFLICT_TYPES)[number];

/** An item as IndexedDB holds it: the API's fields plus the client-only markers. */
export interface LocalItem extends Item {
  _syncStatus: SyncStatus;
  /** 1 while a local delete awaits the server (numbers index; booleans do not). */
  _deleted: 0 | 1;
  /** Counts local writes, so a screen can tell a fresh local change from a stale one. */
  _localVersion: number;
  _conflict: ConflictType | null;
  /** Fields changed locally that the server has not confirmed yet. */
  _dirty: PatchableField[];
  /** The server copy the unconfirmed edits are based on (null for an item never on the server). */
  _base: Item | null;
  /**
   * A status this device expects the server to give the item as a consequence of its own write (the
   * roll-up); confirmed by the next pull, or dropped if the server never changes the item.
   */
  _predicted?: { status: Item['status']; completed_at: string | null } | null;
  /** The server copy that disagrees with the local one while a conflict is open; null when deleted there. */
  _remote: Item | null;
  /** 1 for a row on Home's All list (live, no parent in its scope), else false; kept by topFlags.ts on every write. */
  _top?: 1 | false | 0;
  /** Top of its branch on its status's list (store/topFlags.ts; false, or 0 in rows stored before, says not). */
  _stop?: 1 | false | 0;
  /** List keys kept by listKeys.ts on every write: scope, status sort key, updated key, other assignee, open due day. */
  _scope?: 'g' | 'a' | 'x';
  _sk?: string;
  _uk?: string;
  _asg?: number;
  _due?: string;
  _pri?: number;
  /** The open dated row's manual order within its day (listKeys.ts `_ord`). */
  _ord?: string;
  /** The reach and first calendar day of an open dated row that spans days or repeats (listKeys.ts `_sd`). */
  _sd?: string;
}

export { QUEUE_METHODS } from '../../../shared/protocol';
export type { QueueKind, QueueMethod };

/** One queued request: the spec's fields plus its Idempotency-Key and the version it was based on. */
export interface QueueEntry {
  id: string;
  /** Replay order; strictly increasing within one database. */
  seq: number;
  /** What the request does (create, update, assign, delete); stored, never parsed from the URL. */
  kind: QueueKind;
  method: QueueMethod;
  url: string;
  data: Record<string, unknown> | null;
  timestamp: number;
  retries: number;
  idempotencyKey: string;
  /** Sent as If-Match; null for creates and for edits of items the server has not answered yet. */
  baseVersion: number | null;
  /** The local id of the item the request is about (follows temporary-id swaps). */
  itemId: number;
  /**
   * The child of the item a child kind's entry is about (SYNC.md Q14). Absent on an item's own entries,
   * and on a comment's queued before rows named it (comments/localComments.ts commentIdOf).
   */
  child?: QueueChild;
  /**
   * 'upgrade' marks the guest's items moving to a new account, for the Upgrade dialog's progress;
   * 'batch' an import's creates. Both go up in `POST /api/items/batch` requests (U1).
   */
  tag: 'upgrade' | 'batch' | null;
}

/**
 * How a queue entry names the child it is about: its kind, and the key the kind's declaration names
 * queue rows by (src/shared/itemChildren.ts `queueKey`): a comment's `id` (the server's, or a create's
 * temporary one), a time entry's or a file's `uuid`.
 */
export interface QueueChild {
  kind: ItemChildName;
  id?: number;
  uuid?: string;
}

export interface LocalUser extends UserSummary {}

/**
 * What one delete took, kept on the device for the trash and for undo (by the top item's uuid): the
 * rows as they were, so a restore brings back the same ids and uuids at once, offline and as a guest.
 */
export interface TrashRow {
  uuid: string;
  /** Whose data it is: the signed-in user's id, 0 for the guest. */
  owner: number;
  deletedAt: string;
  /** Orders deletes made in the same millisecond: one more than the newest row's when it was stored. */
  seq?: number;
  deletedBy: { id: number; name: string } | null;
  /** The top of the deleted subtree, then the descendants that went with it. */
  rows: LocalItem[];
  /** An undo took back the creation of these rows: kept, not listed in Trash (issue 50). */
  undoneCreation?: boolean;
}

/** One change the person made, with the steps that undo it (src/shared/undo.ts); newest has the highest seq. */
export interface UndoRecord {
  seq?: number;
  owner: number;
  at: string;
  /** What the toast said: 'Todo completed', 'Task deleted'. */
  label: string;
  steps: UndoStep[];
  /** Writes of one gesture (a reopen that reopens several) share it and are undone together. */
  group: string | null;
}

export interface LocalContact {
  id?: number;
  user_id: number;
  contact_phone: string;
  name: string | null;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

/** Who is looking: the guest (id 0) or a signed-in user. */
export interface Viewer {
  userId: number;
  isGuest: boolean;
}

export const GUEST_USER_ID = 0;

/**
 * A comment as IndexedDB holds it (SYNC.md K8, K10): the API's comment, the uuid of its item (the
 * timeline's index; an item's id changes when a temporary or guest id is swapped, its uuid never),
 * and whether the server has it yet. `pending` rows have a queued create, edit or delete.
 */
export interface LocalComment extends Comment {
  item_uuid: string;
  _syncStatus: SyncStatus;
  /** 1 while a local delete awaits the server: the timeline no longer shows it. */
  _deleted: 0 | 1;
  /** The server's copy under unconfirmed edits (null for a comment the server never had). */
  _base: Comment | null;
  /**
   * Set when the server refused this comment's create or edit for good (SYNC.md K20): the device's
   * text stays, shown 'Not sent'/'Not saved' with the reason, and nothing goes again until the
   * author edits it. Absent (or null) otherwise.
   */
  _refused?: CommentRefusal | null;
}

/** Why the server refused a comment's create or edit (K20), in words for its author. */
export interface CommentRefusal {
  what: 'create' | 'edit';
  message: string;
  at: string;
}

/**
 * A time entry on the device (SYNC.md X10), keyed by its uuid: the server's copy (its `id` once the
 * create is answered, null before) with the fields the device changed and has not sent yet.
 */
export interface LocalTimeEntry {
  uuid: string;
  /** The server's id; null until the create is answered (or for a guest's). */
  id: number | null;
  item_id: number;
  /** The item's uuid, which survives a temporary id's swap. */
  item_uuid: string | null;
  user_id: number;
  user_name: string;
  started_at: string;
  ended_at: string | null;
  note: string;
  created_at: string;
  updated_at: string;
  /** 1 while `ended_at` is null: the person's running timer, by index. */
  running: 0 | 1;
  _syncStatus: SyncStatus;
  /** 1 while a local delete awaits the server: nothing shows it. */
  _deleted: 0 | 1;
  /** The fields changed on the device and not yet confirmed (merged over pulled copies, X6). */
  _pending: Partial<TimeEntryFields>;
  /** The server's copy under unconfirmed changes: what a refused change gives way to (null: none). */
  _base: TimeEntryFields | null;
}

/** Where a file not yet on the server stands (SYNC.md A1, A5, A6). */
export interface AttachmentUpload {
  /** waiting: for its turn, its item or the network; uploading: on its way; failed: refused, with Retry. */
  state: 'waiting' | 'uploading' | 'failed';
  /** Bytes sent so far while uploading. */
  loaded?: number;
  /** The server's words for a refusal (413, 422, a server failing again and again). */
  error?: string;
  /** Server failures counted so far (A5: the queue's rule, MAX_RETRIES). */
  retries?: number;
}

/**
 * A file on an item as IndexedDB holds it (SYNC.md A1): the API's row, or until its upload is
 * answered a temporary one (a negative id, `url` '', `sha256` '') whose bytes are in the file store
 * (store/fileBlobs.ts). `local` rows are a guest's, never uploaded until they sign in (A12).
 */
export interface LocalAttachment extends Attachment {
  _syncStatus: SyncStatus;
  /** 1 while a local delete awaits the server: nothing shows it (absent: 0). */
  _deleted?: 0 | 1;
  /** A file not on the server yet (absent for one the server has, and for a guest's). */
  _upload?: AttachmentUpload;
}

/** Each child kind's device row, by its store (src/shared/itemChildren.ts names the stores). */
export interface LocalChildRows {
  comments: LocalComment;
  timeEntries: LocalTimeEntry;
  attachments: LocalAttachment;
}

/** A local change's writes of an item's children, by store: rows to store and keys removed (K8, X10). */
export type ChildWrites = {
  [S in keyof LocalChildRows]?: {
    put?: readonly LocalChildRows[S][];
    removed?: readonly (number | string)[];
  };
};
