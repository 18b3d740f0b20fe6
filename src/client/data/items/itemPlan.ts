/**
 * The pure half of an item edit (issue 63 item 4): given what the edit asks, the row it is made from
 * and whether that row is the tab's guess (SYNC.md W9), `planEdit` says what the edit changes (the new
 * row, the changed fields, the queue entry, what undoes it) and the facts its route is chosen by
 * (changes/writeRoute.ts). It reads and writes nothing: the repository (itemsRepository.ts) does the
 * reads a plan asks for (the parent's family, the assignee, a new parent's checks) and stores the
 * change with one write through the funnel (changes/applyLocalChange.ts).
 */
import type { UserSummary } from '../../../shared/item';
import { ownStatusAfter, planUpdate, type UpdatePlan } from '../../../shared/itemUpdate';
import type { ItemPatch, PatchableField } from '../../../shared/schemas';
import { inverseSteps, type UndoFields, undoFieldsOf, undoLabel } from '../../../shared/undo';
import { type ChangeFacts, changeFactsOf } from '../changes/writeRoute';
import { baseOf } from '../store/localItems';
import type { LocalItem, UndoRecord } from '../store/types';
import type { NewEntry } from '../sync/queue';

type RecurrenceRules = typeof import('../../../shared/recurrenceRule');

/** How a write is recorded for undo: `record: false` for undo's own writes and for imports. */
export interface WriteOptions {
  record?: boolean;
  /**
   * A delete that takes back a creation (undo): not a deletion the person made, so Trash does not
   * list it, nor the server's entry for it (issue 50).
   */
  undoneCreation?: boolean;
  /** Writes of one gesture share a group and are undone together. */
  group?: string | null;
  /** The undo step's words instead of the write's own ('Import': the toast offers 'Undo import'). */
  label?: string;
  /**
   * One of many creates (an import): queued to go up with its neighbours in one batch request, and
   * not sent on its own now; the caller syncs once at the end.
   */
  batch?: boolean;
}

export const TYPE_WORD = { campaign: 'Campaign', task: 'Task', todo: 'Todo' } as const;

/** What a toast and the undo stack call an edit: 'Todo completed', 'Task moved'. */
export function changeLabel(before: LocalItem, after: LocalItem, changed: readonly string[]): string {
  const word = TYPE_WORD[before.type];
  if (changed.includes('status')) {
    if (after.status === 'completed') return `${word} completed`;
    if (before.status === 'completed') return `${word} reopened`;
    return after.status === 'in_progress' ? `${word} started` : `${word} updated`;
  }
  return `${word} ${undoLabel(
    'update',
    changed.map((f) => (f === 'parent_id' ? 'parent_uuid' : f)),
  )}`;
}

/** Rows as the undo snapshots see them: the fields a change moves, the parent by the uuid given (none: no parent named). */
export function snapshotWith(
  items: readonly LocalItem[],
  parents: ReadonlyMap<number, string | null>,
): Map<string, UndoFields | null> {
  const out = new Map<string, UndoFields | null>();
  for (const i of items) {
    if (!i.uuid) continue;
    out.set(
      i.uuid,
      i._deleted === 1
        ? null
        : undoFieldsOf(i, i.parent_id === null ? null : (parents.get(i.parent_id) ?? null)),
    );
  }
  return out;
}

/** Who records an undo record, and when. */
export interface UndoAuthor {
  owner: number;
  at: string;
}

/**
 * The undo record of a change from its rows' snapshots before and after (null when it is not
 * recorded or undoes nothing). A next occurrence the change created goes with its undo only while
 * nobody has edited it (N4).
 */
export function undoRecordFrom(
  options: WriteOptions | undefined,
  author: UndoAuthor,
  label: string,
  was: Map<string, UndoFields | null>,
  is: Map<string, UndoFields | null>,
  occurrences: readonly LocalItem[] = [],
): UndoRecord | null {
  if (options?.record === false) return null;
  for (const uuid of was.keys()) if (!is.has(uuid)) is.set(uuid, null);
  const created = new Map(occurrences.map((o) => [o.uuid, o]));
  const steps = inverseSteps(was, is).map((step) => {
    const occurrence = step.kind === 'delete' ? created.get(step.uuid) : undefined;
    return occurrence
      ? { ...step, unlessEdited: { version: occurrence.version, localVersion: occurrence._localVersion } }
      : step;
  });
  if (steps.length === 0) return null;
  return {
    owner: author.owner,
    at: author.at,
    label: options?.label ?? label,
    steps,
    group: options?.group ?? null,
  };
}

/** What an edit asks (the repository's `write`). */
export interface EditInput {
  /** The item, by the id it is stored under (a temporary id the server replaced is resolved). */
  id: number;
  /** The fields to set: a move's parent by its stored id, its place given (SYNC.md O4). */
  patch: ItemPatch;
  /** The request queued instead of the PATCH of the changed fields (assign has its own endpoint). */
  request?: { kind: 'assign'; data: Record<string, unknown> } | undefined;
  /** Whose edit: a guest's queues nothing; the owner of its undo record. */
  viewer: { userId: number; isGuest: boolean };
  /** The edit's time: the row's `updated_at` and its undo record's. */
  at: string;
  options?: WriteOptions | undefined;
  /** The recurrence rules (shared/recurrenceRule.ts), loaded by the caller for an edit that can break them. */
  rules?: RecurrenceRules | null | undefined;
}

/** What an edit is made from. */
export interface EditBasis {
  /** The row as stored (read in the write's transaction) or as the tab last saw it; undefined: none. */
  row: LocalItem | undefined;
  /** The queue's last seq, which the edit's entry goes after. */
  last: number;
  /** Whether `row` and `last` are the tab's guess (W9), to be checked against the store as it writes. */
  guessed: boolean;
}

/** What the write must read before it can store the edit, as the plan found it. */
export interface EditReads {
  /** The new parent, to check the hierarchy under it (a move). */
  parent: boolean;
  /** The assignee's summary (a new assignee). */
  assignee: boolean;
  /** The family of the item's old and new parent, for the roll-up (a status or a move). */
  family: boolean;
}

/** An edit planned: nothing to store, or the change to store and how. */
export type EditPlan =
  /** The item is not stored, or is deleted: the edit fails (NotFoundError). */
  | { kind: 'missing' }
  /** The edit changes no field: nothing is written, nothing queued, nothing recorded. */
  | { kind: 'unchanged'; row: LocalItem }
  | EditChange;

export interface EditChange {
  kind: 'change';
  /** The row as the edit found it. */
  before: LocalItem;
  /** The row as the edit leaves it (a roll-up may still move its status; the assignee's summary is read). */
  row: LocalItem;
  /** The fields it changes, in the patch's order. */
  changed: readonly PatchableField[];
  /** The shared update rule's decision (shared/itemUpdate.ts): the roll-up's inputs among it. */
  update: UpdatePlan;
  /** The request to queue after the queue's last seq (null: a guest's edit, nothing queued). */
  queue: { entry: NewEntry; after: number } | null;
  /** What a toast and the undo stack call it. */
  label: string;
  /**
   * What undoes the edit of this one row (null: not recorded). A change that rolls up (`reads.family`)
   * records what undoes its whole family instead, once the roll-up is known.
   */
  undo: UndoRecord | null;
  /** What the write reads before it can store the change. */
  reads: EditReads;
  /** Why the edit is refused before anything is stored, as a form's field errors (null: it is not). */
  problem: Record<string, string[]> | null;
  /** The facts the change's route is chosen by (changes/writeRoute.ts). */
  facts: ChangeFacts;
}

/** The row `patch` makes of `current`: the changed fields set, pending on the server's version unless a guest's. */
function editedRow(
  current: LocalItem,
  changed: readonly PatchableField[],
  patch: ItemPatch,
  at: string,
  guest: boolean,
): LocalItem {
  const next: LocalItem = { ...current, updated_at: at, _localVersion: current._localVersion + 1 };
  for (const f of changed) (next as unknown as Record<string, unknown>)[f] = patch[f] ?? null;
  if (guest) return next;
  return {
    ...next,
    _syncStatus: 'pending',
    _base: baseOf(current),
    _dirty: [...new Set([...current._dirty, ...changed])] as LocalItem['_dirty'],
  };
}

/** The request an edit queues: the fields it changed, against the version it started from. */
function queuedEdit(input: EditInput, current: LocalItem, changed: readonly PatchableField[]): NewEntry {
  const data: Record<string, unknown> = {};
  for (const f of changed) data[f] = input.patch[f] ?? null;
  return {
    kind: input.request?.kind ?? 'update',
    data: input.request?.data ?? data,
    itemId: input.id,
    baseVersion: baseOf(current)?.version ?? null,
  };
}

/**
 * Plans an edit of one item (SYNC.md W1, W9, I12): pure, so the same input and basis always plan the
 * same change, and an edit that changes no field plans none.
 */
export function planEdit(input: EditInput, basis: EditBasis): EditPlan {
  const current = basis.row;
  if (!current || current._deleted === 1) return { kind: 'missing' };
  // What the PATCH changes is the shared update rule's decision (src/shared/itemUpdate.ts).
  const update = planUpdate(current, input.patch);
  const changed = update.fields;
  if (changed.length === 0) return { kind: 'unchanged', row: current };
  const { viewer, at } = input;
  const row = editedRow(current, changed, input.patch, at, viewer.isGuest);
  const reads: EditReads = {
    parent: !!update.changed.parent_id,
    assignee: changed.includes('assigned_to'),
    // Only status and parent changes move the roll-up; a title edit loads no family.
    family: update.direct.size > 0 || update.touched.length > 0,
  };
  const check = update.recurrenceCheck;
  const ruleProblem =
    check && input.rules
      ? input.rules.recurrenceProblem(
          { ...check.item, recurrence: check.item.recurrence ?? null },
          check.ruleChanged ? at.slice(0, 10) : '0000-00-00',
        )
      : null;
  // D10: the server refuses the same with a 422 naming start_date.
  const problem: Record<string, string[]> | null = ruleProblem
    ? { recurrence: [ruleProblem] }
    : update.spanProblem
      ? { start_date: [update.spanProblem] }
      : null;
  const label = changeLabel(current, row, changed);
  const queue = viewer.isGuest ? null : { entry: queuedEdit(input, current, changed), after: basis.last };
  // One row edited in place keeps its parent, so its undo step names none and no parent is read.
  const undo = reads.family
    ? null
    : undoRecordFrom(
        input.options,
        { owner: viewer.userId, at },
        label,
        snapshotWith([current], new Map()),
        snapshotWith([row], new Map()),
      );
  // W9, I12: made from the guess with nothing else to read first (a server or guest id, no roll-up, no
  // assignee, no rule checked), it may go by a raw transaction of its own.
  const alone =
    input.id >= 0 && !reads.parent && !reads.assignee && !reads.family && !check && problem === null;
  return {
    kind: 'change',
    before: current,
    row,
    changed,
    update,
    queue,
    label,
    undo,
    reads,
    problem,
    facts: changeFactsOf([row], [], queue !== null, basis.guessed && alone),
  };
}

/** What the write read for a planned change: the assignee's summary, the rows the roll-up moved. */
export interface EditReadings {
  assignedUser?: UserSummary | null;
  rolled?: ReadonlyMap<number, LocalItem>;
}

/** A planned change with what its write read: the rows to store (the item first) and their route facts. */
export interface EditRows {
  /** The item as stored: its assignee's summary, and its own status after the roll-up. */
  row: LocalItem;
  /** Every row the change stores: the item, then the others the roll-up moved. */
  rows: LocalItem[];
  facts: ChangeFacts;
}

/** The rows a planned change stores once its reads are done (pure, as planEdit). */
export function editRows(plan: EditChange, readings: EditReadings): EditRows {
  let row = plan.row;
  if (readings.assignedUser !== undefined) row = { ...row, assignedUser: readings.assignedUser };
  const rolled = readings.rolled ?? new Map<number, LocalItem>();
  const own = ownStatusAfter(plan.before, plan.update, rolled, row.updated_at);
  if (own) row = { ...row, status: own.status, completed_at: own.completed_at };
  const rows = [row, ...[...rolled.values()].filter((i) => i.id !== row.id)];
  const facts =
    rows.length === 1 && row === plan.row
      ? plan.facts
      : changeFactsOf(rows, [], plan.queue !== null, plan.facts.fromGuess && rows.length === 1);
  return { row, rows, facts };
}
