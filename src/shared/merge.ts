import { PATCHABLE_FIELDS, type PatchableField } from './item';

/** The fields a local edit and a server change can disagree on. */
export const MERGE_FIELDS = PATCHABLE_FIELDS;
export type MergeField = PatchableField;

export type MergeRecord = { [K in MergeField]?: unknown } & { version: number };

function same(a: unknown, b: unknown): boolean {
  // Null, undefined and 0 all mean "no parent / nobody" for references.
  const norm = (v: unknown) => (v === undefined || v === 0 ? null : v);
  return norm(a) === norm(b);
}

/** The fields whose values differ between two copies. */
export function changedFields(before: MergeRecord, after: MergeRecord): MergeField[] {
  return MERGE_FIELDS.filter((f) => !same(before[f], after[f]));
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
 * changed the same field to different values; edits to different fields merge silently.
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
    const remoteChanged = !same(base[field], remote[field]);
    const differs = !same(local[field], remote[field]);
    if (remoteChanged && differs) conflicts.push(field);
    merged[field] = local[field] as T[MergeField];
  }
  return { conflicts, merged };
}

/** A delete conflicts when the server changed the item after the version the delete was based on. */
export function deleteConflicts(baseVersion: number | null, remoteVersion: number): boolean {
  return baseVersion !== null && remoteVersion > baseVersion;
}

/** A queued change as the server replays it: the Idempotency-Key makes a repeat a no-op. */
export interface ReplayEntry {
  key: string;
  id: number;
  patch: Partial<Record<MergeField, unknown>> | null;
}

/** Applies queued changes the way an idempotent server does; repeats of a key change nothing. */
export function replayQueue<T extends Record<string, unknown>>(
  state: ReadonlyMap<number, T>,
  entries: readonly ReplayEntry[],
  seen: ReadonlySet<string> = new Set(),
): { state: Map<number, T>; seen: Set<string> } {
  const next = new Map(state);
  const keys = new Set(seen);
  for (const entry of entries) {
    if (keys.has(entry.key)) continue;
    keys.add(entry.key);
    const current = next.get(entry.id);
    if (entry.patch === null) next.delete(entry.id);
    else if (current) next.set(entry.id, { ...current, ...entry.patch });
  }
  return { state: next, seen: keys };
}
