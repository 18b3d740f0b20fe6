/**
 * A template's instantiation on the device (ARCHITECTURE §4 'Templates'): every item of the tree in
 * ONE write through the funnel (changes/applyLocalChange.ts), with the uuids the shared
 * instantiateEntries derived from the request's uuid, so the server names them alike. The creates are
 * queued parents first and tagged 'batch' (they go up in POST /api/items/batch requests); one undo
 * record deletes the top items, and so their families.
 */
import type { UserSummary } from '../../../shared/item';
import { declaredValues } from '../../../shared/itemFields';
import { keyForLast } from '../../../shared/order';
import { createPayload } from '../../../shared/protocol';
import type { TemplateCreateEntry } from '../../../shared/templates';
import { deviceTimeZone } from '../../../shared/timeZone';
import { applyLocalChange } from '../changes/applyLocalChange';
import { getMeta, type OutpostDb, setMeta } from '../store/db';
import { resolveId } from '../store/idAliases';
import { applyLocalRollUp, rootIdOf, summaryOf } from '../store/localItems';
import type { LocalItem, QueueEntry, Viewer } from '../store/types';
import { trackLocalWrite } from '../store/writesInFlight';
import type { NewEntry } from '../sync/queue';
import { lastSeq } from '../sync/queue';
import { snapshotWith, undoRecordFrom } from './itemPlan';
import { keyAfterLastSibling } from './newItems';
import { ValidationError } from './repositoryErrors';

/** What a tree's write needs: the device's database and viewer, and the push of its first entry. */
export interface TreeWriteContext {
  db: OutpostDb;
  viewer: () => Viewer & { user: UserSummary };
  pushNow: (entryId: string) => Promise<unknown>;
  now?: () => string;
}

/** What one tree's write stored: its items (parents first) and the ids of its top items. */
export interface StoredTree {
  items: LocalItem[];
  tops: number[];
}

/**
 * Stores `entries` (instantiateEntries' creates: parents first, a child naming its parent's uuid) as
 * one local change with one undo record labelled `label`; signed in, their creates are queued in order
 * and the first is pushed at once (the rest follow in the same run).
 */
export function createTree(
  ctx: TreeWriteContext,
  entries: readonly TemplateCreateEntry[],
  label: string,
): Promise<StoredTree> {
  const { db } = ctx;
  const viewer = ctx.viewer();
  const at = (ctx.now ?? (() => new Date().toISOString()))();
  const written = db.transaction('rw', ['items', 'syncQueue', 'meta', 'users', 'trash', 'undo'], async () => {
    const byUuid = new Map<string, LocalItem>();
    const lastKey = new Map<number, string>();
    const items: LocalItem[] = [];
    const tops: number[] = [];
    const owner = summaryOf(viewer.user);
    let outerParent: number | null = null;
    // The whole tree's ids reserved at once (one read and one write of the counter, not one per item).
    const counter = viewer.isGuest ? 'guestCounter' : 'tempCounter';
    let lastId = (await getMeta<number>(db, counter)) ?? 0;
    await setMeta(db, counter, lastId + entries.length);
    for (const entry of entries) {
      const { parent_id: givenParent, parent_uuid: parentUuid, uuid, ...fields } = entry;
      let parentId: number | null;
      if (parentUuid) {
        const parent = byUuid.get(parentUuid);
        if (!parent) throw new ValidationError({ parent_uuid: ['A child came before its parent.'] });
        parentId = parent.id;
      } else {
        parentId = givenParent == null ? null : await resolveId(db, givenParent);
        if (parentId !== null) {
          const parent = await db.items.get(parentId);
          if (!parent || parent._deleted === 1)
            throw new ValidationError({ parent_id: ['The selected parent does not exist.'] });
        }
        outerParent = parentId;
      }
      const itemUuid = uuid ?? crypto.randomUUID();
      lastId += 1;
      const id = viewer.isGuest ? lastId : -lastId;
      // Siblings in the template's order: each after the one before (the first after what is there).
      const slot = parentId ?? 0;
      const previous = lastKey.get(slot);
      const before =
        previous !== undefined
          ? keyForLast(previous)
          : parentUuid
            ? keyForLast(null)
            : await keyAfterLastSibling(db, parentId, viewer.userId);
      lastKey.set(slot, before);
      const item: LocalItem = {
        ...declaredValues(fields as Record<string, unknown>),
        sort_key: before,
        uuid: itemUuid,
        type: fields.type,
        status: 'pending',
        user_id: viewer.userId,
        assigned_to: null,
        parent_id: parentId,
        time_zone: deviceTimeZone(),
        created_at: at,
        updated_at: at,
        completed_at: null,
        deleted_at: null,
        created_by: owner,
        user: owner,
        assignedUser: null,
        parent: null,
        children_count: 0,
        completed_count: 0,
        id,
        version: 1,
        _syncStatus: viewer.isGuest ? 'local' : 'pending',
        _deleted: 0,
        _localVersion: 1,
        _conflict: null,
        _dirty: [],
        _base: null,
        _remote: null,
      } as LocalItem;
      byUuid.set(itemUuid, item);
      items.push(item);
      if (!parentUuid) tops.push(id);
    }
    // A parent outside the tree (a checklist's task) rolls up as its new children join it.
    let rolled: LocalItem[] = [];
    let rolledBefore: LocalItem[] = [];
    const firstTop = items.find((i) => i.id === tops[0]);
    if (outerParent !== null && firstTop) {
      const moved = await applyLocalRollUp(
        db,
        [await rootIdOf(db, firstTop)],
        new Map(),
        [outerParent],
        at,
        new Map(items.map((i) => [i.id, i])),
      );
      const inTree = new Set(items.map((i) => i.id));
      rolled = [...moved.values()].filter((i) => !inTree.has(i.id));
      rolledBefore = (await db.items.bulkGet(rolled.map((i) => i.id))).filter((i): i is LocalItem => !!i);
    }
    const parents = new Map<number, string | null>(items.map((i) => [i.id, i.uuid]));
    const outer = outerParent === null ? undefined : await db.items.get(outerParent);
    if (outer) parents.set(outer.id, outer.uuid);
    const undo = undoRecordFrom(
      { group: null },
      { owner: viewer.userId, at },
      label,
      snapshotWith(rolledBefore, parents),
      snapshotWith([...items, ...rolled], parents),
    );
    const last = viewer.isGuest ? 0 : await lastSeq(db);
    const queued: NewEntry[] = items.map((item) => ({
      kind: 'create',
      data: createPayload(item),
      itemId: item.id,
      baseVersion: null,
      tag: 'batch',
    }));
    const stored: QueueEntry[] = await applyLocalChange(db, {
      rows: [...items, ...rolled],
      undo,
      ...(viewer.isGuest ? {} : { queue: { entries: queued, after: last } }),
    });
    return { items, tops, first: stored[0] ?? null };
  });
  return trackLocalWrite(
    db,
    written.then(({ items, tops, first }) => {
      if (first) ctx.pushNow(first.id).catch(() => undefined);
      return { items, tops };
    }),
  );
}
