/**
 * The item writes the screens call (ARCHITECTURE §6 'One door'): module functions over an explicit
 * context (`ItemsContext`), each one IndexedDB transaction with its queue entry. An edit is planned by
 * the pure itemPlan.ts (what it changes, its queue entry, its undo, its route's facts) and stored by
 * one write through the funnel (changes/applyLocalChange.ts); this module does only the reads a plan
 * asks for and the transactions. `createItemsRepository` binds the functions to one device's context.
 */
import { type HierarchyNode, hierarchyError } from '../../../shared/hierarchy';
import {
  FAMILY_FULL_MESSAGE,
  FAMILY_MAX_ITEMS,
  type ItemStatus,
  type UserSummary,
} from '../../../shared/item';
import { declaredValues } from '../../../shared/itemFields';
import { bringsNextOccurrence } from '../../../shared/itemUpdate';
import type { NextOccurrence } from '../../../shared/recurrence';
import type { ItemCreateInput, ItemPatch, ItemPatchInput } from '../../../shared/schemas';
import { spanProblem } from '../../../shared/span';
import { completedAtFor, reopenDirect } from '../../../shared/status';
import { deviceTimeZone } from '../../../shared/timeZone';
import type { UndoFields } from '../../../shared/undo';
import { applyInPlaceEdit, applyLocalChange } from '../changes/applyLocalChange';
import { inAskedOrder } from '../changes/askedOrder';
import { echoable, type LocalEcho } from '../changes/localEcho';
import { isStaleGuess, StaleGuess, sameStoredRow } from '../changes/staleGuess';
import { writeGuessesOf } from '../changes/writeGuess';
import { ApiError } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import { resolveId } from '../store/idAliases';
import { applyLocalRollUp, baseOf, descendantIds, rootIdOf, summaryOf } from '../store/localItems';
import { rawGet } from '../store/rawReads';
import type { LocalItem, QueueEntry, UndoRecord, Viewer } from '../store/types';
import { replacing } from '../store/writeFacts';
import { trackedWrites } from '../store/writesInFlight';
import type { PushOutcome } from '../sync';
import { lastSeq } from '../sync/queue';
import {
  type EditBasis,
  editRows,
  planEdit,
  snapshotWith,
  TYPE_WORD,
  undoRecordFrom,
  type WriteOptions,
} from './itemPlan';
import { keyAfterLastSibling, storeNewItem } from './newItems';
import { NotFoundError, ValidationError } from './repositoryErrors';

export type { WriteOptions } from './itemPlan';
export { NotFoundError, ValidationError } from './repositoryErrors';

export interface RepositoryDeps {
  db: OutpostDb;
  viewer: () => Viewer & { user: UserSummary };
  /** Sends a just-queued entry now when possible (signed in and online); see SyncEngine.pushNow. */
  pushNow: (entryId: string) => Promise<PushOutcome>;
  /** Told of an edit in place before its transaction commits, so the lists on screen show it at once. */
  echo?: LocalEcho;
  now?: () => string;
}

/** What the item writes work with: one device's database, viewer, push, echo and clock. */
export interface ItemsContext extends RepositoryDeps {
  now: () => string;
}

type RecurrenceRules = typeof import('../../../shared/recurrenceRule');
type Occurrences = typeof import('./occurrences');

const TABLES = ['items', 'syncQueue', 'meta', 'users', 'trash', 'undo'] as const;

type Schemas = typeof import('../../../shared/schemas');
let schemasLoaded: Schemas | null = null;
/**
 * zod and the item schemas load with the first write, not the first screen (bench/bundle.ts
 * budgets that); later writes take them at once, not one promise hop later.
 */
function schemas(): Schemas | Promise<Schemas> {
  return (
    schemasLoaded ??
    import('../../../shared/schemas').then((m) => {
      schemasLoaded = m;
      return m;
    })
  );
}

function zodErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'body';
    const list = out[key] ?? [];
    list.push(issue.message);
    out[key] = list;
  }
  return out;
}

/** A parent reference as stored locally: 0 and absent mean none; temporary (negative) ids are allowed. */
function localRef(value: unknown): number | null {
  if (value === undefined || value === null || value === 0) return null;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ValidationError({ parent_id: ['Must be a whole number.'] });
  }
  return value;
}

function localTransaction<T>(ctx: ItemsContext, work: () => Promise<T>): Promise<T> {
  return ctx.db.transaction('rw', [...TABLES], work);
}

/** The item's stored row, read raw inside a write's transaction (store/rawReads.ts). */
function storedItem(db: OutpostDb, id: number): Promise<LocalItem | undefined> {
  return rawGet<LocalItem>('items', id) ?? db.items.get(id);
}

/**
 * What undoes a change (null when it is not recorded or undoes nothing), stored by the funnel in the
 * change's own transaction, so it survives a reload before sync. `before` and `after` are the rows
 * the change touched (absent or marked deleted when gone); their parents are read by uuid unless the
 * change is one row edited in place (its parent the same on both sides, so the step never names it).
 */
async function undoRecordOf(
  ctx: ItemsContext,
  options: WriteOptions | undefined,
  label: string,
  before: readonly LocalItem[],
  after: readonly LocalItem[],
  occurrences: readonly LocalItem[] = [],
): Promise<UndoRecord | null> {
  if (options?.record === false) return null;
  const inPlace =
    before.length === 1 &&
    after.length === 1 &&
    before[0]!.id === after[0]!.id &&
    before[0]!.parent_id === after[0]!.parent_id;
  const parents = new Map<number, string | null>();
  const parentIds = inPlace
    ? []
    : [...new Set([...before, ...after].map((i) => i.parent_id).filter((p): p is number => p !== null))];
  if (parentIds.length > 0)
    for (const parent of await ctx.db.items.bulkGet(parentIds))
      if (parent) parents.set(parent.id, parent.uuid);
  const was: Map<string, UndoFields | null> = snapshotWith(before, parents);
  return undoRecordFrom(
    options,
    { owner: ctx.viewer().userId, at: ctx.now() },
    label,
    was,
    snapshotWith(after, parents),
    occurrences,
  );
}

async function ancestorsOf(db: OutpostDb, parentId: number): Promise<HierarchyNode[]> {
  const out: HierarchyNode[] = [];
  let current = await db.items.get(parentId);
  for (let depth = 0; depth < 4 && current?.parent_id != null; depth++) {
    current = await db.items.get(current.parent_id);
    if (current) out.push({ id: current.id, type: current.type, parent_id: current.parent_id });
  }
  return out;
}

async function checkParent(
  db: OutpostDb,
  child: { id?: number; type: LocalItem['type'] },
  parentId: number | null,
): Promise<void> {
  if (parentId === null) return;
  const parent = await db.items.get(parentId);
  if (!parent || parent._deleted === 1)
    throw new ValidationError({ parent_id: ['The selected parent does not exist.'] });
  const problem = hierarchyError(
    child,
    { id: parent.id, type: parent.type, parent_id: parent.parent_id },
    await ancestorsOf(db, parentId),
  );
  if (problem) throw new ValidationError({ parent_id: [problem] });
}

/**
 * The server's family cap (FAMILY_MAX_ITEMS, issue 29 F0), kept on the device too: a guest's family
 * past it could never be uploaded. Read from the maintained counters (one key per scope), before the
 * write's transaction, which does not span them.
 */
async function assertFamilyRoom(db: OutpostDb, parentId: number): Promise<void> {
  const parent = await db.items.get(parentId);
  if (!parent) return;
  const root = await rootIdOf(db, parent);
  const counts = await db.counts.bulkGet([
    [root, 'g'],
    [root, 'a'],
  ]);
  const below = counts.reduce((sum, row) => sum + (row ? row.n + row.gn : 0), 0);
  if (below >= FAMILY_MAX_ITEMS) throw new ValidationError({ parent_id: [FAMILY_FULL_MESSAGE] });
}

async function assigneeSummary(db: OutpostDb, userId: number | null): Promise<UserSummary | null> {
  if (userId === null) return null;
  return (await db.users.get(userId)) ?? null;
}

/** Starts the push of a just-queued entry; its outcome is the sync status's business (W2, W3). */
function sendInBackground(ctx: ItemsContext, entry: QueueEntry): void {
  ctx.pushNow(entry.id).catch(() => {
    // The change is stored and queued; the next sync run sends it.
  });
}

/**
 * W1: once the local transaction (rows, queue entry, undo record) has committed the write has
 * succeeded, and it answers the stored copy (an online create: the pending copy, temporary id and
 * all; the alias table keeps that id working after the server's answer swaps it). The push starts
 * at once in the background and is never awaited; the sync status (badge, 'Pending sync', a toast
 * if the change is finally dropped) reports what the network does. Never throws.
 */
function finish(ctx: ItemsContext, item: LocalItem, entry: QueueEntry | null, after?: QueueEntry): LocalItem {
  // A write that queued a second entry (a next occurrence's create) sends both.
  if (entry) sendInBackground(ctx, after ?? entry);
  return item;
}

/** Creates an item: a counter id for guests, a temporary negative id and a queued POST when signed in. */
export async function createItem(
  ctx: ItemsContext,
  input: ItemCreateInput,
  options?: WriteOptions,
): Promise<LocalItem> {
  const { db } = ctx;
  const { parent_id: rawParent, ...rest } = input;
  const { itemCreateSchema } = schemasLoaded ?? (await schemas());
  const parsed = itemCreateSchema.safeParse(rest);
  if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
  const data = parsed.data;
  const span = spanProblem(data.start_date, data.due_date);
  if (span) throw new ValidationError({ start_date: [span] });
  if (data.recurrence) {
    const rules: RecurrenceRules = await import('../../../shared/recurrenceRule');
    const problem = rules.recurrenceProblem(
      { type: data.type, due_date: data.due_date ?? null, recurrence: data.recurrence ?? null },
      data.series_uuid == null ? ctx.now().slice(0, 10) : '0000-00-00',
    );
    if (problem) throw new ValidationError({ recurrence: [problem] });
  }
  const viewer = ctx.viewer();
  const givenParent = localRef(rawParent);
  if (givenParent !== null) await assertFamilyRoom(db, await resolveId(db, givenParent));
  const { item, entry } = await localTransaction(ctx, async () => {
    // A screen may still hold a temporary id the server has just replaced (the swap is one transaction).
    const parentId = givenParent === null ? null : await resolveId(db, givenParent);
    const [, last] = await Promise.all([
      checkParent(db, { type: data.type }, parentId),
      viewer.isGuest ? 0 : lastSeq(db),
    ]);
    const at = ctx.now();
    const owner = summaryOf(viewer.user);
    const assignedTo = data.assigned_to ?? null;
    const status: ItemStatus = data.status ?? 'pending';
    return storeNewItem(
      db,
      viewer,
      {
        uuid: data.uuid ?? crypto.randomUUID(),
        // Every declared field as given, else its default (shared/itemFields.ts); storeNewItem gives
        // a blank place ('') one after the last sibling's.
        ...declaredValues(data),
        type: data.type,
        status,
        user_id: viewer.userId,
        assigned_to: assignedTo,
        parent_id: parentId,
        // The zone a repeating reminder keeps its wall-clock time in (N5): where it was made.
        time_zone: data.time_zone ?? deviceTimeZone(),
        created_at: at,
        updated_at: at,
        completed_at: completedAtFor(status, null, at),
        deleted_at: null,
        created_by: owner,
        user: owner,
        assignedUser: await assigneeSummary(db, assignedTo),
        parent: null,
        children_count: 0,
        completed_count: 0,
      },
      at,
      last,
      options?.batch ? 'batch' : null,
      // Stored with the item and the roll-up it moved, in the same one write.
      ({ item, rolledBefore, rolled }) =>
        undoRecordOf(ctx, options, `${TYPE_WORD[item.type]} created`, rolledBefore, [item, ...rolled]),
    );
  });
  return options?.batch ? item : finish(ctx, item, entry);
}

/** An edit as its caller asked it, with what it loaded before its transaction. */
interface EditAsk {
  /** The item's id: a temporary one is resolved first (a screen opened before the server answered). */
  id: number;
  patch: ItemPatch;
  request: { kind: 'assign'; data: Record<string, unknown> } | undefined;
  options: WriteOptions | undefined;
  viewer: Viewer & { user: UserSummary };
  /** The next-occurrence code, loaded for a completion (null: none, or not loadable offline). */
  recurrence: Occurrences | null;
  /** The rule checks, loaded for an edit that can break them. */
  rules: RecurrenceRules | null;
}

/** The tab's guess of the row an edit replaces and of the queue's last seq (W9). */
interface Guess {
  row: LocalItem;
  last: number;
}

/** What an edit stored: the item, its queued entry, and the last entry a next occurrence queued after it. */
interface Edited {
  item: LocalItem;
  entry: QueueEntry | null;
  extra: QueueEntry | null;
}

/** Where an edit's echo, once shown, is told whether its transaction stored it (W5, W6). */
interface EchoShown {
  settle: ((stored: boolean) => void) | null;
}

/** The plan of `ask` for the item `id` with `patch` (a move's parent resolved and placed), from `basis`. */
function planOf(ctx: ItemsContext, ask: EditAsk, id: number, patch: ItemPatch, basis: EditBasis) {
  return planEdit(
    {
      id,
      patch,
      request: ask.request,
      viewer: ask.viewer,
      at: ctx.now(),
      options: ask.options,
      rules: ask.rules,
    },
    basis,
  );
}

/**
 * SYNC.md I12: an edit in place from a guess whose plan reads nothing else (no roll-up, no assignee to
 * look up, no rule to check) is stored by one raw transaction with every request issued at once; null
 * when it is not one (its plan's facts choose another route), and the edit goes the long way.
 */
function editInPlace(ctx: ItemsContext, ask: EditAsk, guess: Guess): Promise<Edited> | null {
  const plan = planOf(ctx, ask, ask.id, ask.patch, { row: guess.row, last: guess.last, guessed: true });
  if (plan.kind !== 'change' || !plan.facts.fromGuess) return null;
  const { before, row } = plan;
  const stored = applyInPlaceEdit(ctx.db, {
    row: replacing(row, before),
    undo: plan.undo,
    queue: plan.queue,
    facts: plan.facts,
    unchanged: (stored, last) => !!stored && sameStoredRow(stored, before) && last <= guess.last,
  });
  if (!stored) return null;
  const settle = ctx.echo && echoable(before, row) ? ctx.echo.announce([row]) : null;
  return stored.then(
    ([entry]) => {
      settle?.(true);
      return { item: row, entry: entry ?? null, extra: null };
    },
    (error: unknown) => {
      settle?.(false);
      throw error;
    },
  );
}

/**
 * An edit in one Dexie transaction: from the guess, checked against the stored row and the queue as
 * they were before its writes (a wrong guess throws StaleGuess and stores nothing), or from a fresh
 * read of them (`guess` null).
 */
function editInTransaction(ctx: ItemsContext, ask: EditAsk, guess: Guess | null): Promise<Edited> {
  const { db } = ctx;
  const guesses = writeGuessesOf(db);
  const echo: EchoShown = { settle: null };
  const stored = localTransaction(ctx, async () => {
    if (!guess) {
      // Again inside the transaction: a swap may have committed since.
      const id = ask.id >= 0 ? ask.id : await resolveId(db, ask.id);
      // The queue's last seq is read alongside the item: one round trip, not two.
      const [row, last] = await Promise.all([storedItem(db, id), ask.viewer.isGuest ? 0 : lastSeq(db)]);
      if (row) guesses.sawRows([row]);
      guesses.sawSeq(last);
      return storeEdit(ctx, ask, echo, id, { row, last, guessed: false }, null);
    }
    // Made before any write of this transaction, so they read as it was before them: the row, the
    // queue's end, and that a temporary id has not been swapped since.
    const id = ask.id;
    const read = Promise.all([storedItem(db, id), ask.viewer.isGuest ? 0 : lastSeq(db), resolveId(db, id)]);
    const checked = read.then(([row, last, resolved]) => {
      if (!row || resolved !== id || !sameStoredRow(row, guess.row) || last > guess.last) {
        if (row) guesses.sawRows([row]);
        else guesses.forget(id);
        throw new StaleGuess();
      }
    });
    // Awaited below on every path; until then a failed check is not an unhandled rejection.
    checked.catch(() => undefined);
    try {
      return await storeEdit(
        ctx,
        ask,
        echo,
        id,
        { row: guess.row, last: guess.last, guessed: true },
        checked,
      );
    } catch (error) {
      // An answer from a wrong guess (a refusal too) is no answer: the check speaks first.
      await checked;
      throw error;
    }
  });
  return stored.then(
    (result) => {
      echo.settle?.(true);
      return result;
    },
    (error: unknown) => {
      echo.settle?.(false);
      throw error;
    },
  );
}

/**
 * Stores an edit inside its transaction: the reads its plan asks for (a move's place and parent, the
 * assignee, the family the roll-up moves), then one write through the funnel of its rows, queue entry
 * and undo record. A completion that brings next occurrences (N1, N6) stores them after it.
 */
async function storeEdit(
  ctx: ItemsContext,
  ask: EditAsk,
  echo: EchoShown,
  id: number,
  basis: EditBasis,
  checked: Promise<void> | null,
): Promise<Edited> {
  const { db } = ctx;
  const current = basis.row;
  let patch =
    typeof ask.patch.parent_id === 'number'
      ? { ...ask.patch, parent_id: await resolveId(db, ask.patch.parent_id) }
      : ask.patch;
  if (!current || current._deleted === 1) throw new NotFoundError(id);
  // A move to another parent that names no place goes last there (SYNC.md O4): the device picks
  // the key, so the place shows at once and the PATCH carries it.
  if ('parent_id' in patch && !patch.sort_key && (patch.parent_id || null) !== (current.parent_id || null))
    patch = {
      ...patch,
      sort_key: await keyAfterLastSibling(db, patch.parent_id || null, current.user_id),
    };
  const plan = planOf(ctx, ask, id, patch, basis);
  if (plan.kind === 'missing') throw new NotFoundError(id);
  if (plan.kind === 'unchanged') {
    await checked;
    return { item: current, entry: null, extra: null };
  }
  if (plan.reads.parent) await checkParent(db, { id, type: current.type }, patch.parent_id ?? null);
  if (plan.problem) throw new ValidationError(plan.problem);
  const { row: planned, update, label } = plan;
  const at = planned.updated_at;
  const assignedUser = plan.reads.assignee ? await assigneeSummary(db, planned.assigned_to) : undefined;
  const rolled = plan.reads.family
    ? await applyLocalRollUp(
        db,
        [await rootIdOf(db, current), await rootIdOf(db, planned)],
        update.direct,
        update.touched,
        at,
        new Map([[id, planned]]),
      )
    : undefined;
  const { row: next, rows, facts } = editRows(plan, { assignedUser, rolled });
  replacing(next, current);
  if (ctx.echo && rows.length === 1 && echoable(current, next)) echo.settle = ctx.echo.announce([next]);
  // The edited row as it was is `current`; only rows the roll-up moved are read (a title edit reads none).
  const others = rows.slice(1);
  const touchedBefore = [
    current,
    ...(others.length === 0
      ? []
      : (await db.items.bulkGet(others.map((i) => i.id))).filter((i): i is LocalItem => !!i)),
  ];
  // The item itself and every item the cascade or the roll-up completed bring their next
  // occurrences (N1, N6), as the server does in the completing transaction.
  const wasById = new Map(touchedBefore.map((i) => [i.id, i]));
  const recurrence = ask.recurrence;
  const occurrences = recurrence
    ? rows.flatMap((is) => {
        const was = is.id === id ? current : wasById.get(is.id);
        if (!was || !bringsNextOccurrence(was, is)) return [];
        const following = recurrence.nextOccurrence({
          ...is,
          recurrence: is.recurrence ?? null,
          series_uuid: is.series_uuid ?? null,
        });
        return following ? [{ completed: is, following }] : [];
      })
    : [];
  // Without a next occurrence the undo record is known now: it is stored alongside the rows, so the
  // transaction takes two round trips after its first read, not four. An edit of one row in place has
  // it from its plan.
  const undo =
    occurrences.length > 0
      ? null
      : plan.reads.family
        ? await undoRecordOf(ctx, ask.options, label, touchedBefore, rows)
        : plan.undo;
  const [[queued]] = await Promise.all([
    applyLocalChange(db, {
      rows,
      undo,
      facts,
      ...(plan.queue ? { queue: { entries: [plan.queue.entry], after: plan.queue.after } } : {}),
    }),
    checked,
  ]);
  const entry: QueueEntry | null = queued ?? null;
  if (occurrences.length === 0 || !recurrence) return { item: next, entry, extra: null };
  const extra = await storeOccurrences(ctx, ask, recurrence, occurrences, {
    label,
    at,
    rows,
    touchedBefore,
    entry,
  });
  return { item: next, entry, extra };
}

/**
 * N1, N6: the next occurrences a completion brings, stored after it in its transaction (queued after
 * it, so the server has completed them when the creates arrive), then what undoes all of it. Answers
 * the last entry they queued (null: none).
 */
async function storeOccurrences(
  ctx: ItemsContext,
  ask: EditAsk,
  recurrence: Occurrences,
  occurrences: readonly { completed: LocalItem; following: NextOccurrence }[],
  completion: {
    label: string;
    at: string;
    /** The rows the completion stored, and as they were before it. */
    rows: readonly LocalItem[];
    touchedBefore: readonly LocalItem[];
    entry: QueueEntry | null;
  },
): Promise<QueueEntry | null> {
  const { entry } = completion;
  const afterById = new Map(completion.rows.map((i) => [i.id, i]));
  const touchedBefore = [...completion.touchedBefore];
  const beforeIds = new Set(touchedBefore.map((i) => i.id));
  const created: LocalItem[] = [];
  let lastEntry = entry;
  for (const { completed, following } of occurrences) {
    // A roll-up by an earlier occurrence may have moved this item's row since: its parent is read anew.
    const added = await recurrence.addOccurrence(
      ctx.db,
      ask.viewer,
      completed,
      following,
      completion.at,
      lastEntry?.seq ?? 0,
    );
    if (!added) continue;
    created.push(added.item);
    lastEntry = added.entry ?? lastEntry;
    for (const row of added.rolled) afterById.set(row.id, row);
    for (const row of added.rolledBefore) if (!beforeIds.has(row.id)) touchedBefore.push(row);
    for (const row of added.rolledBefore) beforeIds.add(row.id);
  }
  // Recorded once the next occurrences are stored, so undoing the completion takes them away too
  // (unless edited by then), and the roll-up they moved is the one the undo puts back.
  await applyLocalChange(ctx.db, {
    undo: await undoRecordOf(
      ctx,
      ask.options,
      completion.label,
      touchedBefore,
      [...afterById.values(), ...created],
      created,
    ),
  });
  return lastEntry === entry ? null : lastEntry;
}

/**
 * Applies changed fields locally with the roll-up, and queues them, after any write of the same item
 * this tab asked for before (W15). `request` overrides the queued request (assign uses its own endpoint).
 */
export function writeItem(
  ctx: ItemsContext,
  givenId: number,
  givenPatch: ItemPatch,
  request?: { kind: 'assign'; data: Record<string, unknown> },
  options?: WriteOptions,
): Promise<LocalItem> {
  return inAskedOrder(ctx.db, givenId, () => writeItemNow(ctx, givenId, givenPatch, request, options));
}

async function writeItemNow(
  ctx: ItemsContext,
  givenId: number,
  givenPatch: ItemPatch,
  request: { kind: 'assign'; data: Record<string, unknown> } | undefined,
  options: WriteOptions | undefined,
): Promise<LocalItem> {
  const { db } = ctx;
  const viewer = ctx.viewer();
  // Temporary ids (a screen opened before the server answered) resolve to the server's; others read nothing.
  const early = givenId >= 0 ? givenId : await resolveId(db, givenId);
  // Completing a repeating item steps its rule: the stepping code loads before the
  // transaction, which a dynamic import would otherwise let commit half-way.
  // Any completion may cascade to or roll up into a repeating item (N6), not only a repeating one's.
  const recurrence =
    givenPatch.status === 'completed'
      ? // Not loadable (offline before the chunk was cached): the completion still counts, and the
        // server's next occurrence arrives with the next pull.
        await import('./occurrences').catch(() => null)
      : null;
  // The rule checks load only for writes that can break them (not with the first screen).
  const rules =
    'recurrence' in givenPatch || 'due_date' in givenPatch
      ? await import('../../../shared/recurrenceRule')
      : null;
  const ask: EditAsk = { id: early, patch: givenPatch, request, options, viewer, recurrence, rules };
  // W9: an edit in place of a row this tab knows puts at once from what it knows, checked in the
  // same transaction (a move or a status change reads its family anyway, so it reads first).
  const guesses = writeGuessesOf(db);
  const guessRow = !('parent_id' in givenPatch) && !('status' in givenPatch) ? guesses.row(early) : undefined;
  const guessSeq = viewer.isGuest ? 0 : guesses.lastSeq();
  const guess = guessRow && guessSeq !== undefined ? { row: guessRow, last: guessSeq } : null;
  // Whatever failed the raw transaction stored nothing: made again from a fresh read, the long way.
  const raw = guess
    ? editInPlace(ctx, ask, guess)?.catch(() => editInTransaction(ctx, ask, null))
    : undefined;
  const { item, entry, extra } = raw
    ? await raw
    : guess
      ? await editInTransaction(ctx, ask, guess).catch((error: unknown) => {
          if (isStaleGuess(error)) return editInTransaction(ctx, ask, null);
          throw error;
        })
      : await editInTransaction(ctx, ask, null);
  return finish(ctx, item, entry, extra ?? undefined);
}

/** Updates the given fields (the changed ones only are queued). */
export async function updateItem(
  ctx: ItemsContext,
  id: number,
  input: ItemPatchInput,
  options?: WriteOptions,
): Promise<LocalItem> {
  const { parent_id: rawParent, ...rest } = input;
  if (Object.keys(rest).length === 0)
    return writeItem(ctx, id, { parent_id: localRef(rawParent) }, undefined, options);
  const { itemPatchSchema } = schemasLoaded ?? (await schemas());
  const parsed = itemPatchSchema.safeParse(rest);
  if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
  // A reminder set here keeps its wall-clock time where it was set (N5), as a new item's does.
  const data =
    parsed.data.remind_at && !('time_zone' in parsed.data)
      ? { ...parsed.data, time_zone: deviceTimeZone() }
      : parsed.data;
  return writeItem(
    ctx,
    id,
    'parent_id' in input ? { ...data, parent_id: localRef(rawParent) } : data,
    undefined,
    options,
  );
}

/** Sets a status directly (Start, Complete, Reopen); completing completes the descendants. */
export function setItemStatus(
  ctx: ItemsContext,
  id: number,
  status: ItemStatus,
  options?: WriteOptions,
): Promise<LocalItem> {
  return writeItem(ctx, id, { status }, undefined, options);
}

/**
 * A person's status change from a screen. Reopening a completed item over a subtree that is all
 * done reopens what was completed last (shared reopenDirect), so status, counts and progress agree
 * ('pending · 2 of 2 done · 100%' never shows); every other change is `setItemStatus`.
 */
export async function changeItemStatus(
  ctx: ItemsContext,
  givenId: number,
  status: ItemStatus,
  options?: WriteOptions,
): Promise<LocalItem> {
  const { db } = ctx;
  const id = await resolveId(db, givenId);
  const current = await db.items.get(id);
  if (status === 'completed' || current?.status !== 'completed')
    return setItemStatus(ctx, id, status, options);
  const below = await descendantIds(db, id);
  if (below.length === 0) return setItemStatus(ctx, id, status, options);
  const nodes = (await db.items.bulkGet([id, ...below])).filter(
    (i): i is LocalItem => i !== undefined && i._deleted === 0,
  );
  const direct = reopenDirect(nodes, id, status);
  let own: LocalItem | undefined;
  // One gesture, one undo: every reopen it makes shares a group.
  const group = options?.group ?? crypto.randomUUID();
  for (const [target, next] of direct) {
    const written = await setItemStatus(ctx, target, next, { group });
    if (target === id) own = written;
  }
  return own ?? (await db.items.get(id)) ?? current;
}

/** A todo's icon: pending ↔ completed (an in-progress todo completes). */
export async function toggleItem(ctx: ItemsContext, givenId: number): Promise<LocalItem> {
  const id = await resolveId(ctx.db, givenId);
  const item = await ctx.db.items.get(id);
  if (!item) throw new NotFoundError(id);
  return setItemStatus(ctx, id, item.status === 'completed' ? 'pending' : 'completed');
}

/** Assigns to a user; 0 unassigns. Queued as POST /api/items/{id}/assign. */
export function assignItem(
  ctx: ItemsContext,
  id: number,
  userId: number,
  options?: WriteOptions,
): Promise<LocalItem> {
  return writeItem(
    ctx,
    id,
    { assigned_to: userId === 0 ? null : userId },
    { kind: 'assign', data: { user_id: userId } },
    options,
  );
}

/**
 * Deletes an item and its descendants: at once for guests, marked and queued when signed in. The
 * roll-up is worked out over the family as the delete leaves it, so the rows, the roll-up, the queued
 * delete and the undo record go in one write through the funnel.
 */
export async function removeItem(ctx: ItemsContext, givenId: number, options?: WriteOptions): Promise<void> {
  const { db } = ctx;
  const viewer = ctx.viewer();
  const entry = await localTransaction(ctx, async () => {
    const id = await resolveId(db, givenId);
    const [current, last] = await Promise.all([db.items.get(id), viewer.isGuest ? 0 : lastSeq(db)]);
    if (!current || current._deleted === 1) throw new NotFoundError(id);
    const descendants = await descendantIds(db, id);
    const at = ctx.now();
    const root = await rootIdOf(db, current);
    const below = (await db.items.bulkGet(descendants)).filter((i): i is LocalItem => !!i);
    // The trash keeps what this delete takes, as it was, so a restore is instant and offline too.
    const taken = below.filter((i) => i._deleted === 0);
    if (current.uuid) {
      const newest = await db.trash.orderBy('deletedAt').last();
      await db.trash.put({
        uuid: current.uuid,
        owner: viewer.userId,
        deletedAt: at,
        seq: (newest?.seq ?? 0) + 1,
        deletedBy: { id: viewer.user.id, name: viewer.user.name },
        rows: [current, ...taken],
        ...(options?.undoneCreation ? { undoneCreation: true } : {}),
      });
    }
    // What the delete leaves of the rows it takes: marked deleted until the server confirms (a
    // guest's are removed outright, which the roll-up reads the same way).
    const gone: LocalItem[] = [
      {
        ...current,
        _deleted: 1,
        _syncStatus: 'pending',
        _base: baseOf(current),
        _localVersion: current._localVersion + 1,
      },
      ...below.map((i) => ({ ...i, _deleted: 1 as const })),
    ];
    const rolled =
      current.parent_id !== null && root !== id
        ? await applyLocalRollUp(
            db,
            [root],
            new Map(),
            [current.parent_id],
            at,
            new Map(gone.map((row) => [row.id, row])),
          )
        : new Map<number, LocalItem>();
    const rolledPuts = [...rolled.values()];
    const rolledBefore =
      rolledPuts.length === 0
        ? []
        : (await db.items.bulkGet(rolledPuts.map((i) => i.id))).filter((i): i is LocalItem => !!i);
    const undo = await undoRecordOf(
      ctx,
      options,
      `${TYPE_WORD[current.type]} deleted`,
      [current, ...rolledBefore],
      rolledPuts,
    );
    const [entry] = await applyLocalChange(
      db,
      viewer.isGuest
        ? { removed: [id, ...descendants], rows: rolledPuts, undo }
        : {
            rows: [...gone, ...rolledPuts],
            undo,
            queue: {
              entries: [
                { kind: 'delete', data: null, itemId: id, baseVersion: baseOf(current)?.version ?? null },
              ],
              after: last,
            },
          },
    );
    return entry ?? null;
  });
  // W1, W3: stored and queued is done; the network is the sync status's business.
  if (entry) sendInBackground(ctx, entry);
}

/** The item writes the screens call, bound to one device's context; each is one IndexedDB transaction. */
export function createItemsRepository(deps: RepositoryDeps) {
  const ctx: ItemsContext = { ...deps, now: deps.now ?? (() => new Date().toISOString()) };
  const setStatus = (id: number, status: ItemStatus, options?: WriteOptions) =>
    setItemStatus(ctx, id, status, options);
  // Each write counts as under way until stored, whichever door called it (the command map, undo, the
  // transfer): a pull ends only once the writes made while it streamed are stored (L8).
  return trackedWrites(deps.db, {
    create: (input: ItemCreateInput, options?: WriteOptions) => createItem(ctx, input, options),
    update: (id: number, input: ItemPatchInput, options?: WriteOptions) =>
      updateItem(ctx, id, input, options),
    remove: (id: number, options?: WriteOptions) => removeItem(ctx, id, options),
    /** The raw field write (undo puts fields back through it, `record: false`). */
    write: (
      id: number,
      patch: ItemPatch,
      request?: { kind: 'assign'; data: Record<string, unknown> },
      options?: WriteOptions,
    ) => writeItem(ctx, id, patch, request, options),
    toggle: (id: number) => toggleItem(ctx, id),
    assign: (id: number, userId: number, options?: WriteOptions) => assignItem(ctx, id, userId, options),
    setStatus,
    changeStatus: (id: number, status: ItemStatus, options?: WriteOptions) =>
      changeItemStatus(ctx, id, status, options),
    start: (id: number) => setStatus(id, 'in_progress'),
    complete: (id: number) => setStatus(id, 'completed'),
    reopen: (id: number) => setStatus(id, 'pending'),
  });
}

export type ItemsRepository = ReturnType<typeof createItemsRepository>;

export { ApiError };
