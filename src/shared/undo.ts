import {
  type DeclaredItemFields,
  type FlaggedField,
  fieldsWith,
  ITEM_FIELDS,
  type OptionalField,
} from './itemFields';
import type { Priority } from './planning';

/**
 * Undo as data (ARCHITECTURE §5): what a change did, as snapshots of the items it touched before and
 * after, and the steps that take it back. Items are named by uuid, never by id, so a temporary id
 * swapped for the server's between the change and its undo changes nothing. Undo is a change like any
 * other: the device applies the steps through its normal writes, so they sync through the queue.
 */

/** The fields an undo puts back (./itemFields.ts `undo`), the parent by uuid instead of by id. */
export type UndoFieldName = Exclude<FlaggedField<'undo'>, 'parent_id'> | 'parent_uuid';

/**
 * The fields of an item a change can move and an undo puts back; the parent by uuid. A field absent
 * on rows stored before it is optional; the priority is one of the four.
 */
export type UndoFields = Omit<
  Pick<Required<DeclaredItemFields>, Exclude<UndoFieldName, 'parent_uuid'>>,
  OptionalField | 'priority'
> &
  Partial<Pick<DeclaredItemFields, Exclude<UndoFieldName, 'parent_uuid'> & OptionalField>> & {
    parent_uuid: string | null;
    priority?: Priority;
  };

export const UNDO_FIELDS: readonly UndoFieldName[] = fieldsWith('undo').map((f) =>
  f === 'parent_id' ? 'parent_uuid' : f,
);

/**
 * A row's undo fields (its parent's uuid given): a value absent on a row stored before its field
 * reads as the field's default, and a blank place ('') is left out, as no write takes it back.
 */
export function undoFieldsOf(row: Partial<DeclaredItemFields>, parentUuid: string | null): UndoFields {
  const out: Record<string, unknown> = {};
  for (const field of UNDO_FIELDS) {
    if (field === 'parent_uuid') {
      out.parent_uuid = parentUuid;
      continue;
    }
    const value = row[field] ?? ITEM_FIELDS[field].default;
    if (value === '' && ITEM_FIELDS[field].optional) continue;
    out[field] = value;
  }
  return out as UndoFields;
}

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
 * first (parents first; an item whose parent came back with it needs no step of its own), then moves
 * back, then deletes of what the change created, then the other field patches, children before
 * parents so the last word on a parent's status is its own old status, not a roll-up from a child.
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
  // What the change created goes before the fields come back: a parent's status put back first
  // ('completed' again after a new todo under a finished campaign) would complete the new todo with
  // it, on the device and on the server, whose version bump made the todo's delete a conflict with
  // oneself (issue 50). A move back out of a created item still goes first, so its delete takes
  // nothing that was there before.
  const moves = patches.filter((p) => p.fields.parent_uuid !== undefined);
  const rest = patches.filter((p) => p.fields.parent_uuid === undefined);
  return [
    ...restores.map((uuid) => ({ kind: 'restore' as const, uuid })),
    ...moves.map((p) => ({ kind: 'patch' as const, ...p })),
    ...topDeletes.map((uuid) => ({ kind: 'delete' as const, uuid })),
    ...rest.map((p) => ({ kind: 'patch' as const, ...p })),
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
