import type { Item } from '../../../shared/item';
import { CHILD_QUEUE_KINDS } from '../../../shared/itemChildren';
import { createPayload } from '../../../shared/protocol';
import type { PatchableField } from '../../../shared/schemas';
import { conflictedCollection, nextCounter, type OutpostDb } from '../store/db';
import { descendantIds, fromServer } from '../store/localItems';
import type { ConflictType, LocalItem, QueueEntry } from '../store/types';
import { type Funnel, TABLES } from './context';
import { discardFor, lastSeq, rebase } from './queue';
import { rebaseLocal } from './rebase';
import { removeLocally, restoreDescendants } from './settle';

export interface Conflict {
  itemId: number;
  type: ConflictType;
  /** The local copy (for a local delete it is the item as it was before deleting). */
  local: LocalItem;
  /** The server copy; null when the server deleted the item. */
  remote: Item | null;
}

export type Resolution = 'local' | 'remote';

/** The open conflicts, for the conflict dialog. */
export async function listConflicts(db: OutpostDb): Promise<Conflict[]> {
  const items = await conflictedCollection(db).toArray();
  return items.map((i) => ({ itemId: i.id, type: i._conflict!, local: i, remote: i._remote }));
}

/**
 * C4: the items whose queued changes wait for the user's answer: every item in an open conflict and
 * everything under it here (a child created or moved under it goes with it, never ahead of it).
 */
export async function heldByConflicts(db: OutpostDb): Promise<Set<number>> {
  const roots = await conflictedCollection(db).primaryKeys();
  const held = new Set<number>(roots);
  for (const root of roots) for (const id of await descendantIds(db, root)) held.add(id);
  return held;
}

/**
 * A 412 (Q9): the same rebase as a pull. Edits to other fields merge silently and the entry is sent
 * again on the new version; the same field, or a delete of a changed item, opens a conflict.
 */
export async function handleStale(
  db: OutpostDb,
  entry: QueueEntry,
  remote: Item | null,
): Promise<'merged' | 'conflict'> {
  let outcome: 'merged' | 'conflict' = 'conflict';
  await db.transaction('rw', [...TABLES], async () => {
    const local = await db.items.get(entry.itemId);
    if (!local || !remote) return;
    if (entry.kind === 'delete') {
      // The server refused the delete's version: it changed the item since, so the user chooses (C2).
      await db.items.put({ ...local, _conflict: 'delete', _remote: remote });
      return;
    }
    // The refused entry is an edit: rebase it as one, whatever else is queued for the item.
    const rebased = rebaseLocal({ ...local, _deleted: 0 }, remote);
    if (rebased.kind === 'conflict') {
      await db.items.put({ ...local, _conflict: 'update', _remote: remote });
      return;
    }
    // 'current' cannot hold a refused edit back: the server's copy becomes its base all the same.
    const next: LocalItem =
      rebased.kind === 'merged' ? { ...rebased.next, _deleted: local._deleted } : { ...local, _base: remote };
    await db.items.put(next);
    await rebase(db, local.id, remote.version);
    outcome = 'merged';
  });
  return outcome;
}

/** The server no longer has (or shows) an item with local edits: a delete conflict. */
export async function remoteGone(db: OutpostDb, entry: QueueEntry): Promise<void> {
  await db.transaction('rw', [...TABLES], async () => {
    const local = await db.items.get(entry.itemId);
    if (local) await db.items.put({ ...local, _conflict: 'delete', _remote: null });
  });
}

function patchPayload(item: LocalItem, fields: readonly PatchableField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f] ?? null;
  return out;
}

/**
 * Applies the user's choice for every open conflict: 'local' queues the local change again on the
 * server's version, 'remote' keeps the server's copy. The caller syncs afterwards.
 */
export async function applyResolutions(
  db: OutpostDb,
  choices: ReadonlyMap<number, Resolution> | Record<number, Resolution>,
  applyLocalChange: Funnel,
): Promise<void> {
  const map =
    choices instanceof Map ? choices : new Map(Object.entries(choices).map(([k, v]) => [Number(k), v]));
  const open = await listConflicts(db);
  const missing = open.filter((c) => !map.has(c.itemId));
  if (missing.length > 0) throw new Error('Choose a version for every conflict.');
  await db.transaction('rw', [...TABLES], async () => {
    for (const conflict of open) {
      const choice = map.get(conflict.itemId)!;
      const local = await db.items.get(conflict.itemId);
      if (!local) continue;
      const remote = local._remote;
      // The choice replaces what was queued for the item; its comments' entries go on their own (K8).
      await discardFor(db, [local.id], CHILD_QUEUE_KINDS);
      if (choice === 'remote') {
        if (remote === null) await removeLocally(db, local.id);
        else {
          await db.items.put(fromServer(remote, local._localVersion + 1));
          await restoreDescendants(db, local.id);
        }
        continue;
      }
      const cleared = { ...local, _conflict: null, _remote: null, _localVersion: local._localVersion + 1 };
      if (remote === null) {
        // The server deleted it; keeping the local version creates it again under a new id.
        const id = -(await nextCounter(db, 'tempCounter'));
        const recreated: LocalItem = {
          ...cleared,
          id,
          uuid: crypto.randomUUID(),
          version: 1,
          _syncStatus: 'pending',
          _deleted: 0,
          _dirty: [],
          _base: null,
        };
        await applyLocalChange(db, {
          removed: [local.id],
          rows: [recreated],
          queue: {
            entries: [{ kind: 'create', data: createPayload(recreated), itemId: id, baseVersion: null }],
            after: await lastSeq(db),
          },
        });
        continue;
      }
      if (conflict.type === 'delete') {
        await applyLocalChange(db, {
          rows: [{ ...cleared, _syncStatus: 'pending', _deleted: 1, _base: remote }],
          queue: {
            entries: [{ kind: 'delete', data: null, itemId: local.id, baseVersion: remote.version }],
            after: await lastSeq(db),
          },
        });
        continue;
      }
      const dirty = local._dirty.length > 0 ? local._dirty : [];
      if (dirty.length === 0) {
        await applyLocalChange(db, { rows: [fromServer(remote, cleared._localVersion)] });
        continue;
      }
      await applyLocalChange(db, {
        rows: [{ ...cleared, _syncStatus: 'pending', _base: remote, _dirty: dirty, version: remote.version }],
        queue: {
          entries: [
            {
              kind: 'update',
              data: patchPayload(local, dirty),
              itemId: local.id,
              baseVersion: remote.version,
            },
          ],
          after: await lastSeq(db),
        },
      });
    }
  });
}
