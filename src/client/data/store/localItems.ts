import type { Item, ItemStatus, UserSummary } from '../../../shared/item';
import { PLANNING_DEFAULTS } from '../../../shared/planning';
import type { PatchableField } from '../../../shared/schemas';
import { planStatusChanges, type StatusNode } from '../../../shared/status';
import { childrenOfAny } from './childRows';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from './db';
import type { LocalItem, LocalUser, QueueEntry } from './types';

/** A server item as stored locally: synced, nothing pending. */
export function fromServer(item: Item, localVersion = 0): LocalItem {
  return {
    // A server from before the planning fields sends none: the defaults a stored row reads as.
    priority: PLANNING_DEFAULTS.priority,
    labels: [],
    sort_key: PLANNING_DEFAULTS.sort_key,
    ...item,
    _syncStatus: 'synced',
    _deleted: 0,
    _localVersion: localVersion,
    _conflict: null,
    _dirty: [],
    _base: null,
    _remote: null,
    _predicted: null,
  };
}

/** The API's fields of a local item, without the client-only markers. */
export function toServerShape(item: LocalItem): Item {
  const {
    _syncStatus,
    _deleted,
    _localVersion,
    _conflict,
    _dirty,
    _base,
    _remote,
    _predicted,
    _top,
    _stop,
    _scope,
    _sk,
    _uk,
    _asg,
    ...rest
  } = item;
  return rest;
}

/** The base for a three-way merge: the server copy with our own predicted roll-up applied. */
export function mergeBase(item: LocalItem): Item | null {
  if (!item._base) return null;
  return item._predicted ? { ...item._base, ...item._predicted } : item._base;
}

/** The server copy a new local edit is based on: the one already recorded, or the item as it stands. */
export function baseOf(item: LocalItem): Item | null {
  if (item._base) return item._base;
  if (item.id < 0 || item._syncStatus === 'local') return null;
  return toServerShape(item);
}

/** The fields a queued request changes, for the merge rules. */
export function fieldsOfEntry(entry: QueueEntry): PatchableField[] {
  if (entry.kind === 'update') return Object.keys(entry.data ?? {}) as PatchableField[];
  if (entry.kind === 'assign') return ['assigned_to'];
  return [];
}

/** Users seen in an item (creator, assignee), to keep the users store current. */
export function usersOf(item: Item): LocalUser[] {
  const out: LocalUser[] = [];
  if (item.created_by) out.push(item.created_by);
  if (item.assignedUser) out.push(item.assignedUser);
  return out;
}

/** The ids of every descendant of `id` (the hierarchy is at most three deep). */
export async function descendantIds(db: OutpostDb, id: number): Promise<number[]> {
  const out: number[] = [];
  let frontier = [id];
  for (let depth = 0; depth < 4 && frontier.length > 0; depth++) {
    const children = await childrenOfAny(db.items, frontier).primaryKeys();
    out.push(...children);
    frontier = children;
  }
  return out;
}

/** The top-level ancestor of an item (itself when it has no known parent). */
export async function rootIdOf(
  db: OutpostDb,
  item: { id: number; parent_id: number | null },
): Promise<number> {
  let current: { id: number; parent_id: number | null } = item;
  for (let depth = 0; depth < 4 && current.parent_id !== null; depth++) {
    const parent = await db.items.get(current.parent_id);
    if (!parent) break;
    current = parent;
  }
  return current.id;
}

/**
 * Runs the shared roll-up over the item's family locally, so the offline view matches what the
 * server will do. Changes to other items are predictions: they stay synced and the next pull confirms
 * them; `skip` items are written by the caller.
 */
export async function applyLocalRollUp(
  db: OutpostDb,
  rootIds: readonly number[],
  direct: ReadonlyMap<number, ItemStatus>,
  touchedParents: readonly (number | null)[],
  now: string,
  overrides: ReadonlyMap<number, LocalItem> = new Map(),
): Promise<Map<number, LocalItem>> {
  const familyIds = new Set<number>();
  for (const root of new Set(rootIds)) {
    familyIds.add(root);
    for (const id of await descendantIds(db, root)) familyIds.add(id);
  }
  for (const id of overrides.keys()) familyIds.add(id);
  const loaded = await db.items.bulkGet([...familyIds]);
  const family = new Map<number, LocalItem>();
  for (const item of loaded) if (item) family.set(item.id, overrides.get(item.id) ?? item);
  for (const [id, item] of overrides) if (!family.has(id)) family.set(id, item);
  const nodes: StatusNode[] = [...family.values()]
    .filter((i) => i._deleted === 0)
    .map((i) => ({ id: i.id, parent_id: i.parent_id, status: i.status, completed_at: i.completed_at }));
  const plan = planStatusChanges(nodes, direct, now, touchedParents);
  const changed = new Map<number, LocalItem>();
  for (const [id, change] of plan) {
    const item = family.get(id);
    if (!item) continue;
    const next: LocalItem = {
      ...item,
      status: change.status,
      completed_at: change.completed_at,
      updated_at: now,
    };
    if (!overrides.has(id) && next._syncStatus !== 'local' && item.id > 0) {
      // Keep the server's copy to fall back to, and what we expect the server to make of it, so a
      // later edit does not mistake our own roll-up for someone else's change.
      if (next._base === null) next._base = toServerShape(item);
      next._predicted = { status: change.status, completed_at: change.completed_at };
    }
    changed.set(id, next);
  }
  const predicted = [...changed.values()].filter((i) => i._predicted).map((i) => i.id);
  if (predicted.length > 0) {
    const known = (await getMeta<number[]>(db, META_KEYS.predicted)) ?? [];
    await setMeta(db, META_KEYS.predicted, [...new Set([...known, ...predicted])]);
  }
  return changed;
}

/** A user summary for local creations (the guest, or the signed-in user). */
export function summaryOf(user: UserSummary): UserSummary {
  return {
    id: user.id,
    name: user.name,
    phone: user.phone,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}
