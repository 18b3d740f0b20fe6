import type { ItemType, Paginated } from '../../../shared/item';
import { createPayload } from '../../../shared/protocol';
import type { ItemPatch } from '../../../shared/schemas';
import { inTrash, TRASH_KEEP_MS, type TrashEntry } from '../../../shared/trash';
import type { UndoFields, UndoStep } from '../../../shared/undo';
import { applyLocalChange } from '../changes/applyLocalChange';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import { resolveId } from '../store/idAliases';
import { applyLocalRollUp, descendantIds, rootIdOf } from '../store/localItems';
import type { LocalItem, QueueEntry, UndoRecord, Viewer } from '../store/types';
import type { PushOutcome } from '../sync';
import { discard, entriesFor, lastSeq, type NewEntry } from '../sync/queue';
import { refreshPendingState } from '../sync/settle';
import type { ItemsRepository } from './itemsRepository';
import { NotFoundError, ValidationError } from './repositoryErrors';

const TABLES = ['items', 'syncQueue', 'meta', 'users', 'trash', 'undo'] as const;

/** One row of Preferences › Trash: from this device (a delete it made) or from the server's trash. */
export interface TrashView {
  key: string;
  uuid: string | null;
  /** The server id, for a restore of an entry only the server has. */
  id: number;
  title: string;
  type: ItemType;
  deletedAt: string;
  deletedBy: { id: number; name: string } | null;
  /** Orders this device's deletes made in the same millisecond (0 for the server's entries). */
  seq: number;
  /** Items that come back with it (itself included), when known. */
  count: number | null;
  source: 'device' | 'server';
}

export interface UndoDeps {
  db: OutpostDb;
  api: ApiClient;
  viewer: () => Viewer;
  items: ItemsRepository;
  pushNow: (entryId: string) => Promise<PushOutcome>;
  isOnline: () => boolean;
  now?: () => Date;
}

export type UndoStack = ReturnType<typeof createUndoStack>;

/**
 * Undo and the trash on the device (ARCHITECTURE §5). Undo pops the newest record of the viewer's
 * stack (src/shared/undo.ts computed its steps when the change was stored) and applies the steps as
 * ordinary writes, so they work offline and as a guest and sync through the queue. A restore puts the
 * trash's rows back at once (same ids and uuids) and queues `POST /api/items/{id}/restore` (L6).
 */
export function createUndoStack(deps: UndoDeps) {
  const { db, items } = deps;
  const now = deps.now ?? (() => new Date());
  const owner = () => deps.viewer().userId;

  const byUuid = (uuid: string) => db.items.where('uuid').equals(uuid).first();

  /** The newest undo record of the viewer (the one Ctrl/Cmd+Z takes back). */
  async function latest(): Promise<UndoRecord | undefined> {
    const keys = await db.undo.where('owner').equals(owner()).primaryKeys();
    const newest = keys.sort((a, b) => b - a)[0];
    return newest === undefined ? undefined : db.undo.get(newest);
  }

  async function applyPatch(uuid: string, fields: Partial<UndoFields>): Promise<void> {
    const item = await byUuid(uuid);
    if (!item || item._deleted === 1) return;
    const { assigned_to, parent_uuid, ...rest } = fields;
    const patch: ItemPatch = { ...rest };
    if (parent_uuid !== undefined) {
      const parent = parent_uuid === null ? null : await byUuid(parent_uuid);
      // A parent that is gone cannot take the item back; it stays where it is.
      if (parent_uuid === null || (parent && parent._deleted === 0)) patch.parent_id = parent?.id ?? null;
    }
    if (Object.keys(patch).length > 0) await items.write(item.id, patch, undefined, { record: false });
    if (assigned_to !== undefined) await items.assign(item.id, assigned_to ?? 0, { record: false });
  }

  async function applyStep(step: UndoStep): Promise<void> {
    if (step.kind === 'restore') await restore(step.uuid);
    else if (step.kind === 'patch') await applyPatch(step.uuid, step.fields);
    else {
      const item = await byUuid(step.uuid);
      if (!item || item._deleted === 1) return;
      // A next occurrence edited since its completion (here, or by a pull) is someone's now: it stays.
      const guard = step.unlessEdited;
      if (guard && (item.version !== guard.version || item._localVersion !== guard.localVersion)) return;
      // Signed in, a create still queued stays queued and the delete goes after it: the server makes
      // the same occurrence (same uuid) when the queued completion reaches it, so only a delete after
      // both leaves it with none (N4).
      await items.remove(item.id, { record: false, undoneCreation: true });
    }
  }

  /** Whether any step of `record` finds its item (or, for a restore, its trash row) on the device. */
  async function applicable(record: UndoRecord): Promise<boolean> {
    for (const step of record.steps) {
      if (step.kind === 'restore') {
        if ((await db.trash.get(step.uuid)) || (await byUuid(step.uuid))) return true;
        continue;
      }
      const item = await byUuid(step.uuid);
      if (item && item._deleted === 0) return true;
    }
    return false;
  }

  /**
   * Undoes one change (the newest when `seq` is absent; with a group, the whole gesture) and answers
   * what it undid, or null when there was nothing to undo.
   */
  async function undo(seq?: number): Promise<UndoRecord | null> {
    let target = seq === undefined ? await latest() : await db.undo.get(seq);
    // A change about items no longer on the device (a campaign lost, an item purged) has nothing to
    // take back: it leaves the stack, and Ctrl/Cmd+Z goes on to the one before it (never 'Undone'
    // for nothing).
    while (target?.seq && target.owner === owner() && !(await applicable(target))) {
      await db.undo.delete(target.seq);
      target = seq === undefined ? await latest() : undefined;
    }
    if (!target?.seq || target.owner !== owner()) return null;
    const records =
      target.group === null
        ? [target]
        : (await db.undo.where('owner').equals(owner()).toArray())
            .filter((r) => r.group === target.group)
            .sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0));
    // Off the stack first: a second press must not take the same change back twice.
    await db.undo.bulkDelete(records.map((r) => r.seq ?? 0));
    for (const record of records) for (const step of record.steps) await applyStep(step);
    return target;
  }

  /**
   * Brings back a deleted item and what its delete took, by the top item's uuid. A delete still in the
   * queue is simply taken out of it; otherwise the trash's rows come back at once and a restore is
   * queued (a guest's come back and stay local). A parent still deleted is refused, as on the server.
   */
  async function restore(uuid: string): Promise<void> {
    const viewer = deps.viewer();
    const entry = await db.transaction('rw', [...TABLES], async (): Promise<QueueEntry | null> => {
      const [row, existing, last] = await Promise.all([
        db.trash.get(uuid),
        byUuid(uuid),
        viewer.isGuest ? 0 : lastSeq(db),
      ]);
      const at = now().toISOString();
      await db.trash.delete(uuid);
      if (existing && existing._deleted === 0) return null;
      if (existing && existing._deleted === 1) {
        const queued = (await entriesFor(db, existing.id)).find((e) => e.kind === 'delete');
        if (queued) {
          await discard(db, queued.id);
          const below = await descendantIds(db, existing.id);
          const hidden = (await db.items.bulkGet(below)).filter(
            (i): i is LocalItem => !!i && i._deleted === 1,
          );
          await applyLocalChange(db, {
            rows: [
              { ...existing, _deleted: 0, _localVersion: existing._localVersion + 1 },
              ...hidden.map((i) => ({ ...i, _deleted: 0 as const })),
            ],
          });
          await refreshPendingState(db, existing.id);
          await rollUpAround(existing, at);
          return null;
        }
      }
      if (!row || row.rows.length === 0) throw new NotFoundError(existing?.id ?? 0);
      const rows: LocalItem[] = [];
      for (const r of row.rows) {
        const id = await resolveId(db, r.id);
        const parentId = r.parent_id === null ? null : await resolveId(db, r.parent_id);
        rows.push({ ...r, id, parent_id: parentId, _deleted: 0, _conflict: null, _remote: null });
      }
      const top = rows[0]!;
      if (top.parent_id !== null) {
        const parent = await db.items.get(top.parent_id);
        if (!parent || parent._deleted === 1) {
          await db.trash.put(row);
          throw new ValidationError({
            parent_id: ['Its parent is in the trash too: restore that first.'],
          });
        }
      }
      if (viewer.isGuest) {
        await applyLocalChange(db, { rows: rows.map((r) => ({ ...r, _syncStatus: 'local' as const })) });
        await rollUpAround(top, at);
        return null;
      }
      if (top.id < 0) {
        // Never reached the server: it goes up again as new items, parents first, same uuids.
        const creates: NewEntry[] = rows.map((r) => ({
          kind: 'create',
          data: createPayload(r),
          itemId: r.id,
          baseVersion: null,
        }));
        const [first] = await applyLocalChange(db, {
          rows: rows.map((r) => ({ ...r, _syncStatus: 'pending' as const, _base: null })),
          queue: { entries: creates, after: last },
        });
        await rollUpAround(top, at);
        return first ?? null;
      }
      const [queued] = await applyLocalChange(db, {
        rows: [
          { ...top, _syncStatus: 'pending', _dirty: [], _base: null, _localVersion: top._localVersion + 1 },
          ...rows.slice(1),
        ],
        queue: { entries: [{ kind: 'restore', data: null, itemId: top.id, baseVersion: null }], after: last },
      });
      await rollUpAround(top, at);
      return queued ?? null;
    });
    // W1: put back and queued is done; the push goes in the background.
    if (entry) void deps.pushNow(entry.id).catch(() => undefined);
  }

  /** The parent's roll-up after its child came back (what the delete's roll-up took, it gives back). */
  async function rollUpAround(item: LocalItem, at: string): Promise<void> {
    if (item.parent_id === null) return;
    const root = await rootIdOf(db, item);
    const rolled = await applyLocalRollUp(db, [root], new Map(), [item.parent_id], at);
    await applyLocalChange(db, { rows: [...rolled.values()] });
  }

  /** Restores an entry only the server's trash has (signed in): queued like any change. */
  async function restoreOnServer(id: number): Promise<void> {
    const entry = await db.transaction('rw', [...TABLES], async () => {
      const existing = await db.items.get(id);
      if (existing && existing._deleted === 0) return null;
      const [queued] = await applyLocalChange(db, {
        queue: {
          entries: [{ kind: 'restore', data: null, itemId: id, baseVersion: null }],
          after: await lastSeq(db),
        },
      });
      return queued ?? null;
    });
    // W1: put back and queued is done; the push goes in the background.
    if (entry) void deps.pushNow(entry.id).catch(() => undefined);
  }

  /** Forgets the device's trash rows older than the trash keeps (30 days). */
  async function purge(): Promise<number> {
    const before = new Date(now().getTime() - TRASH_KEEP_MS).toISOString();
    return db.trash.where('deletedAt').below(before).delete();
  }

  /**
   * The viewer's trash, newest deletion first: this device's deletes, and for a signed-in user online
   * the server's trash too (other devices' and other people's deletes), merged by uuid. Entries with
   * a restore on its way are left out.
   */
  async function list(): Promise<TrashView[]> {
    await purge();
    const viewer = deps.viewer();
    const rows = (await db.trash.where('owner').equals(viewer.userId).toArray()).filter((r) =>
      inTrash(r.deletedAt, now()),
    );
    const restoring = new Set(
      (await db.syncQueue.toArray()).filter((e) => e.kind === 'restore').map((e) => e.itemId),
    );
    const out: TrashView[] = [];
    // An undone creation is no deletion the person made: neither its row nor the server's is listed.
    const undone = new Set(rows.filter((r) => r.undoneCreation).map((r) => r.uuid));
    for (const r of rows) {
      const top = r.rows[0];
      if (!top || r.undoneCreation) continue;
      out.push({
        key: `device:${r.uuid}`,
        uuid: r.uuid,
        id: top.id,
        title: top.title,
        type: top.type,
        deletedAt: r.deletedAt,
        deletedBy: r.deletedBy,
        seq: r.seq ?? 0,
        count: r.rows.length,
        source: 'device',
      });
    }
    if (!viewer.isGuest && deps.isOnline()) {
      try {
        const { data } = await deps.api.get<Paginated<TrashEntry>>('/trash');
        const known = new Set(out.map((e) => e.uuid));
        for (const e of data.data) {
          if ((e.uuid && (known.has(e.uuid) || undone.has(e.uuid))) || restoring.has(e.id)) continue;
          out.push({
            key: `server:${e.id}`,
            uuid: e.uuid,
            id: e.id,
            title: e.title,
            type: e.type,
            deletedAt: e.deleted_at,
            deletedBy: e.deleted_by,
            seq: 0,
            count: null,
            source: 'server',
          });
        }
      } catch {
        // Offline or the server is away: the device's own trash still shows.
      }
    }
    return out.sort((a, b) => b.deletedAt.localeCompare(a.deletedAt) || b.seq - a.seq);
  }

  /** Restores one trash row, from the device when it has the rows, else through the server. */
  async function restoreEntry(entry: Pick<TrashView, 'uuid' | 'id' | 'source'>): Promise<void> {
    if (entry.source === 'device' && entry.uuid) return restore(entry.uuid);
    return restoreOnServer(entry.id);
  }

  return { latest, undo, restore, restoreEntry, list, purge };
}
