/**
 * The update rule: what a PATCH changes, decided once for the device's write (the repository) and the
 * server's (items/service.ts updateItem). Each side keeps only its I/O: the device reads and writes
 * IndexedDB, the server SQL under its locks; which fields change, which rule check the change calls
 * for, what it sets directly for the roll-up, the item's own status and completion time after it,
 * and whether it brings a repeating item's next occurrence are this module's.
 */
import { type ItemStatus, type ItemType, PATCHABLE_FIELDS, type PatchableField } from './item';
import { sameFieldValue } from './planning';
import { spanProblem as spanProblemOf } from './span';
import { completedAtFor, type StatusChange } from './status';

/** The fields an update may read of the item as stored. */
export type UpdatableItem = { id: number; type: ItemType; parent_id: number | null; status: ItemStatus } & {
  completed_at: string | null;
  due_date: string | null;
  start_date?: string | null;
  recurrence?: string | null;
} & Partial<Record<PatchableField, unknown>>;

/** A field's value before and after. */
export interface FieldChange {
  old: unknown;
  new: unknown;
}

export interface UpdatePlan {
  /** The fields the patch really changes (a value equal to the stored one changes nothing). */
  changed: Partial<Record<PatchableField, FieldChange>>;
  /** The same fields, in the patch's order. */
  fields: PatchableField[];
  /**
   * The recurrence check the change calls for (a new rule, or a due date under a rule), or null. An
   * unchanged rule is not judged for its end date again (`ruleChanged` false): only losing its due
   * date breaks it.
   */
  recurrenceCheck: {
    item: { type: ItemType; due_date: string | null; recurrence: string | null };
    ruleChanged: boolean;
  } | null;
  /** Why the item's dates after the change break its span (D10: start after due), or null. */
  spanProblem: string | null;
  /** The status the patch sets on the item itself, for the roll-up (empty when it sets none). */
  direct: Map<number, ItemStatus>;
  /** The parents whose children change: the old and the new one of a move (empty otherwise). */
  touched: (number | null)[];
}

/** Plans a PATCH against the item as stored: nothing is written. */
export function planUpdate(
  current: UpdatableItem,
  patch: Partial<Record<PatchableField, unknown>>,
): UpdatePlan {
  const changed: UpdatePlan['changed'] = {};
  const fields: PatchableField[] = [];
  for (const field of Object.keys(patch) as PatchableField[]) {
    if (!PATCHABLE_FIELDS.includes(field)) continue;
    const next = patch[field] ?? null;
    const prev = current[field] ?? null;
    if (sameFieldValue(next, prev)) continue;
    changed[field] = { old: prev, new: next };
    fields.push(field);
  }
  const after = <T>(field: PatchableField, stored: T): T =>
    changed[field] ? (changed[field].new as T) : stored;
  const recurrenceCheck =
    changed.recurrence || changed.due_date
      ? {
          item: {
            type: current.type,
            due_date: after('due_date', current.due_date ?? null),
            recurrence: after('recurrence', current.recurrence ?? null),
          },
          ruleChanged: !!changed.recurrence,
        }
      : null;
  const spanProblem =
    changed.start_date || changed.due_date
      ? spanProblemOf(
          after('start_date', current.start_date ?? null),
          after('due_date', current.due_date ?? null),
        )
      : null;
  return {
    changed,
    fields,
    recurrenceCheck,
    spanProblem,
    direct: new Map(changed.status ? [[current.id, changed.status.new as ItemStatus]] : []),
    touched: changed.parent_id ? [current.parent_id, (changed.parent_id.new as number | null) ?? null] : [],
  };
}

/**
 * The item's own status and completion time after the update: what the roll-up decided for it when
 * it decided anything, else the status the patch set (completed_at by the one rule), else none.
 */
export function ownStatusAfter(
  current: Pick<UpdatableItem, 'id' | 'completed_at'>,
  plan: UpdatePlan,
  rolledUp: ReadonlyMap<number, StatusChange> | null,
  now: string,
): StatusChange | undefined {
  const rolled = rolledUp?.get(current.id);
  if (rolled) return rolled;
  const status = plan.direct.get(current.id);
  return status === undefined
    ? undefined
    : { status, completed_at: completedAtFor(status, current.completed_at, now) };
}

/** Completing a repeating item that has a due date brings its next occurrence (§5 Recurrence, SYNC.md N1). */
export function bringsNextOccurrence(
  before: { status: ItemStatus },
  after: { status: ItemStatus; recurrence?: string | null; due_date: string | null },
): boolean {
  return (
    before.status !== 'completed' && after.status === 'completed' && !!after.recurrence && !!after.due_date
  );
}
