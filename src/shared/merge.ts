import type { PatchableField } from './item';
import { fieldsWith, ITEM_FIELDS } from './itemFields';
import { PLANNING_DEFAULTS, sameFieldValue } from './planning';

/** The fields a local edit and a server change can disagree on. */
export const MERGE_FIELDS: readonly MergeField[] = fieldsWith('merge');
export type MergeField = PatchableField;

/**
 * The fields of a move (ARCHITECTURE §5 'Order'): both sides moving an item is no conflict, the later
 * write wins. The local move reaches the server after the copy it is rebased onto, so it is laid over
 * it, and every device ends with the server's order (SYNC.md O3).
 */
export const MOVE_FIELDS: readonly MergeField[] = MERGE_FIELDS.filter(
  (f) => ITEM_FIELDS[f].merge === 'later wins',
);

export type MergeRecord = { [K in MergeField]?: unknown } & { version: number };

function same(a: unknown, b: unknown, field?: MergeField): boolean {
  const norm = (v: unknown) => {
    // A copy stored before priority and labels existed has neither: it reads as their defaults,
    // so it does not differ from a server copy that holds them.
    if (v === undefined && (field === 'priority' || field === 'labels')) return PLANNING_DEFAULTS[field];
    // Null, undefined and 0 all mean "no parent / nobody" for references.
    return v === undefined || v === 0 ? null : v;
  };
  // Labels are a list: the same labels in the same order are no change.
  return sameFieldValue(norm(a), norm(b));
}

/** The fields whose values differ between two copies. */
export function changedFields(before: MergeRecord, after: MergeRecord): MergeField[] {
  return MERGE_FIELDS.filter((f) => !same(before[f], after[f], f));
}

export interface MergeInput<T extends MergeRecord> {
  /** The server copy the local edits were based on. */
  base: T;
  /** The local copy, carrying the unconfirmed edits. */
  local: T;
  /** The newer server copy. */
  remote: T;
  /** Fields the user changed locally and the server has not confirmed. */
  dirty: readonly MergeField[];
}

export interface MergeResult<T> {
  /** Fields both sides changed to different values since the base. Empty means no conflict. */
  conflicts: MergeField[];
  /** The remote copy with the local edits laid over it; meaningful only without conflicts. */
  merged: T;
}

/**
 * Three-way merge by version: a conflict only when the server is newer than the base and both sides
 * changed the same field to different values (a move's fields excepted: the later wins); edits to
 * different fields merge silently.
 */
export function mergeEdits<T extends MergeRecord>({
  base,
  local,
  remote,
  dirty,
}: MergeInput<T>): MergeResult<T> {
  if (remote.version <= base.version) return { conflicts: [], merged: local };
  const conflicts: MergeField[] = [];
  const merged: T = { ...remote };
  for (const field of dirty) {
    const remoteChanged = !same(base[field], remote[field], field);
    const differs = !same(local[field], remote[field], field);
    if (remoteChanged && differs && !MOVE_FIELDS.includes(field)) conflicts.push(field);
    merged[field] = local[field] as T[MergeField];
  }
  return { conflicts, merged };
}

/** A delete conflicts when the server changed the item after the version the delete was based on. */
export function deleteConflicts(baseVersion: number | null, remoteVersion: number): boolean {
  return baseVersion !== null && remoteVersion > baseVersion;
}

/** The local side of a rebase: the local copy, the server copy its edits are based on, and which fields. */
export interface RebaseLocal<T> {
  /** The local copy, carrying the unconfirmed edits. */
  item: T;
  /** The server copy the edits were based on (with this device's own predictions); null if none. */
  base: T | null;
  /** Fields changed locally that the server has not confirmed. */
  dirty: readonly MergeField[];
  /** A local delete awaits the server. */
  deleted: boolean;
}

/**
 * What a newer server copy does to pending local edits:
 * - `current`: the server copy is not newer than the edits' base: nothing to do;
 * - `merged`: the local edits laid over the server copy, which becomes the new base (the queued
 *   edits are then based on its version);
 * - `conflict`: both changed the same field (`update`), or the server changed an item deleted here
 *   after the delete's base (`delete`): the user chooses (C2).
 */
export type Rebased<T> =
  | { kind: 'current' }
  | { kind: 'merged'; item: T; base: T }
  | { kind: 'conflict'; type: 'update' | 'delete' };

type Rebasable = MergeRecord & { completed_at: string | null };

/**
 * The one merge of local edits onto a newer server copy, for a pulled page and for a 412 alike (C3,
 * Q9). `completed_at` travels with `status`: it comes from the side whose status wins.
 */
export function rebase<T extends Rebasable>(local: RebaseLocal<T>, remote: T): Rebased<T> {
  const { base } = local;
  if (base && remote.version <= base.version) return { kind: 'current' };
  if (local.deleted) {
    return deleteConflicts(base?.version ?? null, remote.version)
      ? { kind: 'conflict', type: 'delete' }
      : { kind: 'current' };
  }
  const merge = mergeEdits({ base: base ?? remote, local: local.item, remote, dirty: local.dirty });
  if (merge.conflicts.length > 0) return { kind: 'conflict', type: 'update' };
  const completedAt = local.dirty.includes('status') ? local.item.completed_at : remote.completed_at;
  return { kind: 'merged', item: { ...merge.merged, completed_at: completedAt }, base: remote };
}
