/**
 * Comments as device data (SYNC.md K8, K13–K16): written like items, one local write through
 * applyLocalChange with its queue row, shown at once from the device ('Pending sync' until the push
 * answers), kept across reloads and offline, and replaced by the server's copy (its id) once pushed.
 * A guest's comments stay on the device and go up after their items when the guest signs in (K16).
 * Pulled pages store the comments they carry in the same transaction as their items and cursor.
 */
import type { Comment, CommentTombstone, SyncCommentChange } from '../../../shared/comments';
import { commentIdOfUrl } from '../../../shared/protocol';
import { applyLocalChange } from '../changes/applyLocalChange';
import { nextCounter, type OutpostDb } from '../store/db';
import { resolveId } from '../store/idAliases';
import type { CommentRefusal, LocalComment, LocalItem, QueueEntry, Viewer } from '../store/types';
import { amendCreate, discard, lastSeq, type NewEntry, rebase } from '../sync/queue';

/** The tables a comment write touches in one transaction. */
export const COMMENT_TABLES = ['items', 'comments', 'syncQueue', 'meta'] as const;

/** The key a timeline files an item's comments under: its uuid (an old row without one, its id). */
export function itemKey(item: Pick<LocalItem, 'id' | 'uuid'>): string {
  return item.uuid ?? `#${item.id}`;
}

/** An item's live comments on the device, oldest first (the timeline's index, one range read). */
export function commentsOfItem(db: OutpostDb, itemUuid: string): Promise<LocalComment[]> {
  return db.comments
    .where('[item_uuid+created_at]')
    .between([itemUuid, ''], [itemUuid, '\uffff'])
    .filter((c) => c._deleted === 0)
    .toArray();
}

/** The API's comment from a stored row (the device's markers left out). */
export function serverShape(row: LocalComment): Comment {
  const { item_uuid: _u, _syncStatus: _s, _deleted: _d, _base: _b, _refused: _r, ...comment } = row;
  return comment;
}

/**
 * The comment a queued entry is about (0 for an item's own): the id its row names (`child`), or for an
 * edit or delete queued before rows named their child, the id its URL names (SYNC.md Q14).
 */
export function commentIdOf(entry: Pick<QueueEntry, 'kind' | 'url' | 'child'>): number {
  if (entry.child?.kind === 'comments' && entry.child.id !== undefined) return entry.child.id;
  return entry.kind === 'comment_edit' || entry.kind === 'comment_delete' ? commentIdOfUrl(entry.url) : 0;
}

export interface NewComment {
  itemId: number;
  /** The body as stored: mentions written as `@[id]` tokens (src/shared/comments.ts). */
  body: string;
  mentions: { id: number; name: string }[];
  uuid?: string;
}

type Who = Viewer & { user: { id: number; name: string } };

/**
 * Writes a new comment on the device: at once, with a temporary id, and for a signed-in user a queued
 * create carrying its uuid (K4: however often it is sent, the server stores it once). Answers the row
 * and the queue entry (none for a guest).
 */
export async function createComment(
  db: OutpostDb,
  viewer: Who,
  input: NewComment,
): Promise<{ comment: LocalComment; entry: QueueEntry | null }> {
  return db.transaction('rw', [...COMMENT_TABLES], async () => {
    const itemId = await resolveId(db, input.itemId);
    const item = await db.items.get(itemId);
    if (!item || item._deleted === 1) throw new Error('This item is not on the device.');
    const [counter, last] = await Promise.all([nextCounter(db, 'tempCounter'), lastSeq(db)]);
    const at = new Date().toISOString();
    const uuid = input.uuid ?? crypto.randomUUID();
    // A guest has no mentions (nobody else sees the guest's items).
    const mentions = viewer.isGuest ? [] : input.mentions;
    const comment: LocalComment = {
      id: -counter,
      uuid,
      item_id: item.id,
      item_uuid: itemKey(item),
      user: { id: viewer.user.id, name: viewer.user.name },
      body: input.body,
      mentions,
      created_at: at,
      updated_at: at,
      edited: false,
      _syncStatus: viewer.isGuest ? 'local' : 'pending',
      _deleted: 0,
      _base: null,
    };
    const entries: NewEntry[] = viewer.isGuest
      ? []
      : [
          {
            kind: 'comment_create',
            itemId: item.id,
            child: { id: comment.id },
            data: { body: input.body, uuid, mentions: mentions.map((m) => m.id) },
            baseVersion: null,
          },
        ];
    const [entry] = await applyLocalChange(db, {
      children: { comments: { put: [comment] } },
      queue: { entries, after: last },
    });
    return { comment, entry: entry ?? null };
  });
}

/** The queued create of a comment the server does not have yet (the row names it, Q14). */
async function queuedCreate(db: OutpostDb, comment: LocalComment): Promise<QueueEntry | undefined> {
  const entries = await db.syncQueue.where('itemId').equals(comment.item_id).toArray();
  // A row queued before rows named their comment is found by the uuid its payload carries.
  const names = (e: QueueEntry) => (e.child ? e.child.id === comment.id : e.data?.uuid === comment.uuid);
  return entries.find((e) => e.kind === 'comment_create' && names(e));
}

/**
 * Edits a comment's body on the device. One the server has goes as a queued PATCH; one still waiting
 * for its create (or a guest's) changes that create instead, so the server stores the final text once.
 */
export async function editComment(
  db: OutpostDb,
  id: number,
  body: string,
  mentions: { id: number; name: string }[],
): Promise<QueueEntry | null> {
  return db.transaction('rw', [...COMMENT_TABLES], async () => {
    const found = await db.comments.get(id);
    if (!found || found._deleted === 1) throw new Error('This comment is not on the device.');
    // Editing a refused comment is the author's answer to the refusal (K20): the mark goes.
    const { _refused: refused, ...current } = found;
    if (refused && current.id < 0) return resendRefused(db, current, body, mentions);
    const at = new Date().toISOString();
    const next: LocalComment = { ...current, body, mentions, edited: true, updated_at: at };
    if (current.id < 0 || current._syncStatus === 'local') {
      const create = current._syncStatus === 'local' ? undefined : await queuedCreate(db, current);
      // Not yet sent: the create carries the new text (an edit of what nobody has seen is no edit).
      if (create)
        await amendCreate(db, create.id, { ...create.data, body, mentions: mentions.map((m) => m.id) });
      await applyLocalChange(db, { children: { comments: { put: [{ ...next, edited: false }] } } });
      return null;
    }
    const [entry] = await applyLocalChange(db, {
      children: {
        comments: {
          put: [{ ...next, _syncStatus: 'pending', _base: current._base ?? serverShape(current) }],
        },
      },
      queue: {
        entries: [
          { kind: 'comment_edit', itemId: current.item_id, data: { body }, baseVersion: null, child: { id } },
        ],
        after: await lastSeq(db),
      },
    });
    return entry ?? null;
  });
}

/**
 * A refused create fixed by its author (K20): sent as a new comment, with a new uuid and a new queued
 * create, in place of the refused one (which the server never stored, so nothing of it is lost).
 */
async function resendRefused(
  db: OutpostDb,
  refused: LocalComment,
  body: string,
  mentions: { id: number; name: string }[],
): Promise<QueueEntry | null> {
  const item = await db.items.get(refused.item_id);
  if (!item || item._deleted === 1) throw new Error('This item is not on the device.');
  const [counter, last] = await Promise.all([nextCounter(db, 'tempCounter'), lastSeq(db)]);
  const at = new Date().toISOString();
  const uuid = crypto.randomUUID();
  const comment: LocalComment = {
    ...refused,
    id: -counter,
    uuid,
    item_id: item.id,
    body,
    mentions,
    created_at: at,
    updated_at: at,
    edited: false,
    _syncStatus: 'pending',
    _deleted: 0,
    _base: null,
  };
  const [entry] = await applyLocalChange(db, {
    children: { comments: { removed: [refused.id], put: [comment] } },
    queue: {
      entries: [
        {
          kind: 'comment_create',
          itemId: item.id,
          child: { id: comment.id },
          data: { body, uuid, mentions: mentions.map((m) => m.id) },
          baseVersion: null,
        },
      ],
      after: last,
    },
  });
  return entry ?? null;
}

/**
 * Takes back what the server refused (K20): a refused comment goes from the device ('Discard'); a
 * refused edit gives way to the server's copy ('Use saved text'). Nothing is queued. Answers false
 * when the comment is not refused (any other comment is the caller's to delete).
 */
export async function discardRefused(db: OutpostDb, id: number): Promise<boolean> {
  return db.transaction('rw', [...COMMENT_TABLES], async () => {
    const current = await db.comments.get(id);
    if (!current?._refused) return false;
    if (current.id < 0) {
      await applyLocalChange(db, { children: { comments: { removed: [id] } } });
      return true;
    }
    // A stored comment stays on the device as the server's copy under the edit (every queued edit
    // keeps one); a row without one (none is written so) only loses its mark.
    const { _refused: _r, ...kept } = current;
    const server = current._base ? { ...current._base, item_uuid: current.item_uuid } : kept;
    await applyLocalChange(db, {
      children: { comments: { put: [{ ...server, _syncStatus: 'synced', _deleted: 0, _base: null }] } },
    });
    return true;
  });
}

/** The reason shown for a refusal: the server's message, or for a 404 what it means here (K5). */
export function refusalReason(entry: Pick<QueueEntry, 'kind'>, status: number, message: string): string {
  if (status !== 404) return message;
  return entry.kind === 'comment_create'
    ? 'This item was deleted or is no longer shared with you.'
    : 'This comment was deleted, or its item is no longer shared with you.';
}

/**
 * Deletes a comment on the device: one the server never had goes with its queued create; one it has
 * is hidden at once and its DELETE queued.
 */
export async function deleteComment(db: OutpostDb, id: number): Promise<QueueEntry | null> {
  return db.transaction('rw', [...COMMENT_TABLES], async () => {
    const current = await db.comments.get(id);
    if (!current || current._deleted === 1) return null;
    if (current.id < 0 || current._syncStatus === 'local') {
      const create = current._syncStatus === 'local' ? undefined : await queuedCreate(db, current);
      if (create) await discard(db, create.id);
      await applyLocalChange(db, { children: { comments: { removed: [id] } } });
      return null;
    }
    const [entry] = await applyLocalChange(db, {
      children: {
        comments: {
          put: [
            { ...current, _deleted: 1, _syncStatus: 'pending', _base: current._base ?? serverShape(current) },
          ],
        },
      },
      queue: {
        entries: [
          { kind: 'comment_delete', itemId: current.item_id, data: null, baseVersion: null, child: { id } },
        ],
        after: await lastSeq(db),
      },
    });
    return entry ?? null;
  });
}

/** The stored comment a queued comment entry is about. */
async function commentOfEntry(db: OutpostDb, entry: QueueEntry): Promise<LocalComment | undefined> {
  if (entry.kind === 'comment_create') {
    const uuid = String(entry.data?.uuid ?? '');
    const rows = await db.comments.where('uuid').equals(uuid).toArray();
    return rows.find((r) => r.id < 0) ?? rows[0];
  }
  return db.comments.get(commentIdOf(entry));
}

/** Whether other queued entries still name this comment (an edit after an edit). */
async function stillQueued(db: OutpostDb, entry: QueueEntry, commentId: number): Promise<boolean> {
  const others = await db.syncQueue.where('itemId').equals(entry.itemId).toArray();
  return others.some((e) => e.id !== entry.id && commentIdOf(e) === commentId);
}

/**
 * Stores the server's answer to a pushed comment entry, inside the caller's transaction (which holds
 * the comments store): a create's temporary row becomes the server's (its id), an edit's row the
 * server's copy, a delete's row goes. The entry itself is the caller's to remove.
 */
export async function confirmComment(db: OutpostDb, entry: QueueEntry, body: unknown): Promise<void> {
  const local = await commentOfEntry(db, entry);
  if (entry.kind === 'comment_delete') {
    if (!local) return;
    await db.comments.delete(local.id);
    // A delete the server answered found the comment live and counted it off its item (K10, K11).
    await countOnItem(db, entry.itemId, -1);
    return;
  }
  const server = body as Comment;
  if (!server || typeof server.id !== 'number') return;
  const pending = await stillQueued(db, entry, server.id);
  // A create the server had not stored before moved its item's version and count by one (K11): the
  // device's copy follows, so a write of the item queued next is not refused as stale (a delete
  // would otherwise open a conflict, C2). One confirm per comment, however often it was sent.
  if (entry.kind === 'comment_create' && local && local.id < 0) await countOnItem(db, entry.itemId);
  if (local && local.id !== server.id) await db.comments.delete(local.id);
  const item = await db.items.get(entry.itemId);
  await db.comments.put({
    ...server,
    item_uuid: local?.item_uuid ?? (item ? itemKey(item) : `#${server.item_id}`),
    ...(pending && local
      ? { body: local.body, mentions: local.mentions, edited: local.edited, _syncStatus: 'pending' as const }
      : { _syncStatus: 'synced' as const }),
    _deleted: 0,
    _base: pending ? server : null,
  });
  // An edit that changed this create while it was on its way (K17): the server stored the text it
  // was sent, so the device's text goes up as an edit of its own, never lost.
  if (entry.kind === 'comment_create' && local && !pending && local.body !== server.body) {
    await applyLocalChange(db, {
      children: {
        comments: {
          put: [
            {
              ...server,
              item_uuid: local.item_uuid,
              body: local.body,
              mentions: local.mentions,
              edited: true,
              _deleted: 0,
              _syncStatus: 'pending',
              _base: server,
            },
          ],
        },
      },
      queue: {
        entries: [
          {
            kind: 'comment_edit',
            itemId: server.item_id,
            data: { body: local.body },
            baseVersion: null,
            child: { id: server.id },
          },
        ],
        after: await lastSeq(db),
      },
    });
  }
}

/** The item's copy as the server made it by a comment's create (+1) or delete (-1): version one up, count by `delta`. */
async function countOnItem(db: OutpostDb, itemId: number, delta: 1 | -1 = 1): Promise<void> {
  const item = await db.items.get(itemId);
  if (!item || item._conflict !== null) return;
  const version = item.version + 1;
  const comments_count = Math.max(0, (item.comments_count ?? 0) + delta);
  await db.items.put({
    ...item,
    version,
    comments_count,
    ...(item._base ? { _base: { ...item._base, version, comments_count } } : {}),
  });
  await rebase(db, itemId, version);
}

/**
 * A comment entry the server refused for good (K20, not Q3's undo): a create or an edit keeps the
 * device's text, marked refused with `reason` and never sent again by itself; the author edits it
 * (a new try), copies it or discards it. A refused delete puts the server's copy back (nothing typed
 * is lost by that). Inside the caller's transaction.
 */
export async function dropComment(db: OutpostDb, entry: QueueEntry, reason: string): Promise<void> {
  const local = await commentOfEntry(db, entry);
  if (!local) return;
  if (entry.kind === 'comment_create' || entry.kind === 'comment_edit') {
    const _refused: CommentRefusal = {
      what: entry.kind === 'comment_create' ? 'create' : 'edit',
      message: reason,
      at: new Date().toISOString(),
    };
    await db.comments.put({ ...local, _refused });
    return;
  }
  if (!local._base) {
    await db.comments.delete(local.id);
    return;
  }
  await db.comments.put({
    ...local._base,
    item_uuid: local.item_uuid,
    _syncStatus: 'synced',
    _deleted: 0,
    _base: null,
  });
}

/**
 * Stores a pulled page's comments (K13) inside the page's transaction: live ones replace what the
 * device holds unless a local edit or delete of it still waits; tombstones remove. A comment this
 * device wrote whose create's answer never arrived is recognised by its uuid and replaced.
 */
export async function applyPulledComments(
  db: OutpostDb,
  changes: readonly SyncCommentChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const ids = changes.map((c) => c.id);
  const stored = await db.comments.bulkGet(ids);
  const byId = new Map<number, LocalComment>();
  for (const row of stored) if (row) byId.set(row.id, row);
  const temps = new Map<string, LocalComment>();
  if (stored.some((s) => s === undefined)) {
    for (const t of await db.comments.where('id').below(0).toArray()) temps.set(t.uuid, t);
  }
  const puts = new Map<number, LocalComment>();
  const deletes = new Set<number>();
  for (const change of changes) {
    const local = byId.get(change.id);
    if ('deleted_at' in change) {
      puts.delete(change.id);
      deletes.add((change as CommentTombstone).id);
      continue;
    }
    deletes.delete(change.id);
    // A local edit or delete still queued wins until it is pushed (its answer brings the server's copy).
    if (local && local._syncStatus === 'pending') {
      puts.set(change.id, { ...local, _base: stripSync(change) });
      continue;
    }
    const temp = temps.get(change.uuid);
    if (temp && temp.user.id === change.user.id) {
      // Our own create arrived by the pull first: the queued create will answer with this same row.
      deletes.add(temp.id);
    }
    puts.set(change.id, {
      ...stripSync(change),
      item_uuid: change.item_uuid ?? local?.item_uuid ?? `#${change.item_id}`,
      _syncStatus: 'synced',
      _deleted: 0,
      _base: null,
    });
  }
  if (deletes.size > 0) await db.comments.bulkDelete([...deletes]);
  if (puts.size > 0) await db.comments.bulkPut([...puts.values()]);
}

function stripSync(change: Comment & { item_uuid?: string | null }): Comment {
  const { item_uuid: _u, ...comment } = change;
  return comment;
}

/**
 * K16: the guest's comments go up with their items. Inside the upgrade's transaction, after the items
 * were given their temporary ids (`ids`: guest id → temporary id) and queued: each comment is queued
 * after them as a create on its item's new id, now the account's.
 */
export function guestCommentEntries(
  comments: readonly LocalComment[],
  ids: ReadonlyMap<number, number>,
  user: { id: number; name: string },
): { rows: LocalComment[]; entries: NewEntry[] } {
  const rows: LocalComment[] = [];
  const entries: NewEntry[] = [];
  for (const comment of [...comments].sort((a, b) => (a.created_at < b.created_at ? -1 : 1))) {
    const itemId = ids.get(comment.item_id);
    if (itemId === undefined || comment._deleted === 1) continue;
    rows.push({
      ...comment,
      item_id: itemId,
      user: { id: user.id, name: user.name },
      _syncStatus: 'pending',
      _base: null,
    });
    entries.push({
      kind: 'comment_create',
      itemId,
      child: { id: comment.id },
      data: { body: comment.body, uuid: comment.uuid, mentions: [] },
      baseVersion: null,
    });
  }
  return { rows, entries };
}
