import type { ItemStatus } from './item';
import type { Priority } from './planning';

/**
 * Undo as data (ARCHITECTURE §5): what a change did, as snapshots of the items it touched before and
 * after, and the steps that take it back. Items are named by uuid, never by id, so a temporary id
 * swapped for the server's between the change and its undo changes nothing. Undo is a change like any
 * other: the device applies the steps through its normal writes, so they sync through the queue.
 */

/** The fields of an item a change can move and an undo puts back; the parent by uuid. */
export interface UndoFields {
  title: string;
  description: string | null;
  status: ItemStatus;
  parent_uuid: string | null;
  assigned_to: number | null;
  due_date: string | null;
  end_date: string | null;
  remind_at: string | null;
  /** With due_date: a repeat is put back (or taken away) in the same write as its date (P1). */
  recurrence: string | null;
  /** The place among its siblings (§5 'Order'): undoing a drop puts the old key back. */
  sort_key?: string;
  /** A drop on Today can change it with the key (SYNC.md O6): undoing the drop puts it back too. */
  priority?: Priority;
}

export const UNDO_FIELDS = [
  'title',
  'description',
  'status',
  'parent_uuid',
  'assigned_to',
  'due_date',
  'end_date',
  'remind_at',
  'recurrence',
  'sort_key',
  'priority',
] as const satisfies readonly (keyof UndoFields)[];

/** The items a change touched, by uuid; null for one that did not exist (or was deleted). */
export type UndoSnapshot = ReadonlyMap<string, UndoFields | null>;

export type UndoStep =
  /** Bring back a deleted item, with what its delete took along. */
  | { kind: 'restore'; uuid: string }
  /** Put these fields back as they were. */
  | { kind: 'patch'; uuid: string; fields: Partial<UndoFields> }
  /**
   * Take away an item the change created. With `unlessEdited` (a next occurrence a completion
   * created, N4), only while the item is still as the change left it: its server `version` and the
   * device's `localVersion` unmoved; an item edited since (here, or by a pull) stays.
   */
  | { kind: 'delete'; uuid: string; unlessEdited?: { version: number; localVersion: number } };

/** Depth of an item within a snapshot (0 at the top), through parent uuids the snapshot knows. */
function depthIn(snapshot: UndoSnapshot, uuid: string): number {
  let depth = 0;
  let current = snapshot.get(uuid);
  const seen = new Set([uuid]);
  while (current?.parent_uuid && !seen.has(current.parent_uuid) && depth < 8) {
    seen.add(current.parent_uuid);
    current = snapshot.get(current.parent_uuid);
    depth++;
  }
  return depth;
}

/**
 * The steps that take a change back, from the touched items before and after it. Restores come
 * first (parents first; an item whose parent came back with it needs no step of its own), then
 * field patches, children before parents so the last word on a parent's status is its own old
 * status, not a roll-up from a child; then deletes of what the change created.
 */
export function inverseSteps(before: UndoSnapshot, after: UndoSnapshot): UndoStep[] {
  const restores: string[] = [];
  const patches: { uuid: string; fields: Partial<UndoFields> }[] = [];
  const deletes: string[] = [];
  for (const [uuid, was] of before) {
    const now = after.get(uuid) ?? null;
    if (was && !now) {
      const parentAlsoGone =
        was.parent_uuid !== null && before.get(was.parent_uuid) && !after.get(was.parent_uuid);
      if (!parentAlsoGone) restores.push(uuid);
      continue;
    }
    if (!was || !now) continue;
    const fields: Partial<UndoFields> = {};
    for (const key of UNDO_FIELDS)
      if (was[key] !== now[key]) (fields as Record<string, unknown>)[key] = was[key];
    if (Object.keys(fields).length > 0) patches.push({ uuid, fields });
  }
  for (const [uuid, now] of after) if (now && !before.get(uuid)) deletes.push(uuid);
  restores.sort((a, b) => depthIn(before, a) - depthIn(before, b));
  patches.sort((a, b) => depthIn(before, b.uuid) - depthIn(before, a.uuid));
  // A created item is taken away with its created children: only the tops need a step.
  const topDeletes = deletes.filter((uuid) => {
    const parent = after.get(uuid)?.parent_uuid;
    return !(parent && deletes.includes(parent));
  });
  return [
    ...restores.map((uuid) => ({ kind: 'restore' as const, uuid })),
    ...patches.map((p) => ({ kind: 'patch' as const, ...p })),
    ...topDeletes.map((uuid) => ({ kind: 'delete' as const, uuid })),
  ];
}

/**
 * Applies steps to a snapshot as a device would, with no roll-up in between (the steps already
 * carry the roll-up's consequences): for the property that undoing a change gives back what was.
 * `graveyard` holds what deleted items were, as a device's trash does.
 */
export function applySteps(
  snapshot: UndoSnapshot,
  steps: readonly UndoStep[],
  graveyard: UndoSnapshot,
): Map<string, UndoFields | null> {
  const out = new Map(snapshot);
  const descendantsOf = (uuid: string, within: UndoSnapshot) => {
    const found = new Set([uuid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [id, fields] of within)
        if (fields?.parent_uuid && found.has(fields.parent_uuid) && !found.has(id)) {
          found.add(id);
          grew = true;
        }
    }
    return found;
  };
  for (const step of steps) {
    if (step.kind === 'restore') {
      for (const id of descendantsOf(step.uuid, graveyard)) {
        const was = graveyard.get(id);
        if (was && !out.get(id)) out.set(id, was);
      }
    } else if (step.kind === 'patch') {
      const current = out.get(step.uuid);
      if (current) out.set(step.uuid, { ...current, ...step.fields });
    } else {
      for (const id of descendantsOf(step.uuid, out)) out.set(id, null);
    }
  }
  return out;
}

/** A short label for a change, for the toast ('Todo completed') and the undo stack. */
export function undoLabel(kind: 'create' | 'delete' | 'update', fields: readonly string[]): string {
  if (kind !== 'update') return kind === 'create' ? 'created' : 'deleted';
  if (fields.includes('status')) return 'status changed';
  if (fields.includes('parent_uuid')) return 'moved';
  if (fields.includes('assigned_to')) return 'assigned';
  if (fields.length === 1 && fields[0] === 'sort_key') return 'reordered';
  return 'updated';
}
