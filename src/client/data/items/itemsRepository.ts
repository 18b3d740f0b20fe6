import { type HierarchyNode, hierarchyError } from '../../../shared/hierarchy';
import {
  FAMILY_FULL_MESSAGE,
  FAMILY_MAX_ITEMS,
  type ItemStatus,
  type UserSummary,
} from '../../../shared/item';
import { declaredValues } from '../../../shared/itemFields';
import { bringsNextOccurrence, ownStatusAfter, planUpdate } from '../../../shared/itemUpdate';
import type { ItemCreateInput, ItemPatch, ItemPatchInput } from '../../../shared/schemas';
import { spanProblem } from '../../../shared/span';
import { completedAtFor, reopenDirect } from '../../../shared/status';
import { deviceTimeZone } from '../../../shared/timeZone';
import { inverseSteps, type UndoFields, undoFieldsOf, undoLabel } from '../../../shared/undo';
import { applyInPlaceEdit, applyLocalChange } from '../changes/applyLocalChange';
import { echoable, type LocalEcho } from '../changes/localEcho';
import { isStaleGuess, StaleGuess, sameStoredRow, writeGuessesOf } from '../changes/writeGuess';
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
import { keyAfterLastSibling, storeNewItem } from './newItems';
import { NotFoundError, ValidationError } from './repositoryErrors';

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

export type ItemsRepository = ReturnType<typeof createItemsRepository>;
type RecurrenceRules = typeof import('../../../shared/recurrenceRule');

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

const TYPE_WORD = { campaign: 'Campaign', task: 'Task', todo: 'Todo' } as const;

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

/** What a toast and the undo stack call an edit: 'Todo completed', 'Task moved'. */
function changeLabel(before: LocalItem, after: LocalItem, changed: readonly string[]): string {
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

/** The item writes the screens call; each is one IndexedDB transaction with its queue entry. */
export function createItemsRepository(deps: RepositoryDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date().toISOString());
  const localTransaction = <T>(work: () => Promise<T>): Promise<T> => db.transaction('rw', [...TABLES], work);
  /** The item's stored row, read raw inside a write's transaction (store/rawReads.ts). */
  const storedItem = (id: number): Promise<LocalItem | undefined> =>
    rawGet<LocalItem>('items', id) ?? db.items.get(id);

  /** Rows as the undo snapshots see them: the fields a change moves, the parent by uuid. */
  async function snapshotOf(
    items: readonly LocalItem[],
    readParents = true,
  ): Promise<Map<string, UndoFields | null>> {
    const parentIds = [...new Set(items.map((i) => i.parent_id).filter((p): p is number => p !== null))];
    const parents = new Map<number, string | null>();
    if (readParents && parentIds.length > 0)
      for (const parent of await db.items.bulkGet(parentIds)) if (parent) parents.set(parent.id, parent.uuid);
    return snapshotWith(items, parents);
  }

  /** snapshotOf with the parents' uuids given (none: the snapshots name no parent). */
  function snapshotWith(
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

  /**
   * What undoes a change (null when it is not recorded or undoes nothing), stored by the funnel in the
   * change's own transaction, so it survives a reload before sync. `before` and `after` are the rows
   * the change touched (absent or marked deleted when gone).
   */
  async function undoRecordOf(
    options: WriteOptions | undefined,
    label: string,
    before: readonly LocalItem[],
    after: readonly LocalItem[],
    occurrences: readonly LocalItem[] = [],
  ): Promise<UndoRecord | null> {
    if (options?.record === false) return null;
    // One row edited in place (a title, a date): its parent is the same on both sides, so the undo
    // step never names it and no parent is read; the record then goes out with the row's own put.
    const inPlace =
      before.length === 1 &&
      after.length === 1 &&
      before[0]!.id === after[0]!.id &&
      before[0]!.parent_id === after[0]!.parent_id;
    const [was, is] = await Promise.all([snapshotOf(before, !inPlace), snapshotOf(after, !inPlace)]);
    return undoRecordFrom(options, label, was, is, occurrences);
  }

  /** The undo record of a change from its rows' snapshots before and after (undoRecordOf). */
  function undoRecordFrom(
    options: WriteOptions | undefined,
    label: string,
    was: Map<string, UndoFields | null>,
    is: Map<string, UndoFields | null>,
    occurrences: readonly LocalItem[] = [],
  ): UndoRecord | null {
    for (const uuid of was.keys()) if (!is.has(uuid)) is.set(uuid, null);
    // A next occurrence the change created goes with its undo only while nobody has edited it (N4).
    const created = new Map(occurrences.map((o) => [o.uuid, o]));
    const steps = inverseSteps(was, is).map((step) => {
      const occurrence = step.kind === 'delete' ? created.get(step.uuid) : undefined;
      return occurrence
        ? { ...step, unlessEdited: { version: occurrence.version, localVersion: occurrence._localVersion } }
        : step;
    });
    if (steps.length === 0) return null;
    return {
      owner: deps.viewer().userId,
      at: now(),
      label: options?.label ?? label,
      steps,
      group: options?.group ?? null,
    };
  }

  async function ancestorsOf(parentId: number): Promise<HierarchyNode[]> {
    const out: HierarchyNode[] = [];
    let current = await db.items.get(parentId);
    for (let depth = 0; depth < 4 && current?.parent_id != null; depth++) {
      current = await db.items.get(current.parent_id);
      if (current) out.push({ id: current.id, type: current.type, parent_id: current.parent_id });
    }
    return out;
  }

  async function checkParent(
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
      await ancestorsOf(parentId),
    );
    if (problem) throw new ValidationError({ parent_id: [problem] });
  }

  /**
   * The server's family cap (FAMILY_MAX_ITEMS, issue 29 F0), kept on the device too: a guest's family
   * past it could never be uploaded. Read from the maintained counters (one key per scope), before the
   * write's transaction, which does not span them.
   */
  async function assertFamilyRoom(parentId: number): Promise<void> {
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

  async function assigneeSummary(userId: number | null): Promise<UserSummary | null> {
    if (userId === null) return null;
    return (await db.users.get(userId)) ?? null;
  }

  /**
   * W1: once the local transaction (rows, queue entry, undo record) has committed the write has
   * succeeded, and it answers the stored copy (an online create: the pending copy, temporary id and
   * all; the alias table keeps that id working after the server's answer swaps it). The push starts
   * at once in the background and is never awaited; the sync status (badge, 'Pending sync', a toast
   * if the change is finally dropped) reports what the network does. Never throws.
   */
  function finish(item: LocalItem, entry: QueueEntry | null, after?: QueueEntry): LocalItem {
    // A write that queued a second entry (a next occurrence's create) sends both.
    if (entry) sendInBackground(after ?? entry);
    return item;
  }

  /** Starts the push of a just-queued entry; its outcome is the sync status's business (W2, W3). */
  function sendInBackground(entry: QueueEntry): void {
    deps.pushNow(entry.id).catch(() => {
      // The change is stored and queued; the next sync run sends it.
    });
  }

  /**
   * The checks a rule gets on the item as it will be (the server runs the same, a 422 there).
   * `rules` is ../../shared/recurrenceRule, loaded by the caller before its transaction.
   */
  function checkRecurrence(
    rules: RecurrenceRules,
    item: Pick<LocalItem, 'type' | 'due_date' | 'recurrence'>,
    ruleChanged: boolean,
  ) {
    const problem = rules.recurrenceProblem(
      { type: item.type, due_date: item.due_date, recurrence: item.recurrence ?? null },
      ruleChanged ? now().slice(0, 10) : '0000-00-00',
    );
    if (problem) throw new ValidationError({ recurrence: [problem] });
  }

  /** Creates an item: a counter id for guests, a temporary negative id and a queued POST when signed in. */
  async function create(input: ItemCreateInput, options?: WriteOptions): Promise<LocalItem> {
    const { parent_id: rawParent, ...rest } = input;
    const { itemCreateSchema } = schemasLoaded ?? (await schemas());
    const parsed = itemCreateSchema.safeParse(rest);
    if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
    const data = parsed.data;
    const span = spanProblem(data.start_date, data.due_date);
    if (span) throw new ValidationError({ start_date: [span] });
    if (data.recurrence)
      checkRecurrence(
        await import('../../../shared/recurrenceRule'),
        { type: data.type, due_date: data.due_date ?? null, recurrence: data.recurrence ?? null },
        data.series_uuid == null,
      );
    const viewer = deps.viewer();
    const givenParent = localRef(rawParent);
    if (givenParent !== null) await assertFamilyRoom(await resolveId(db, givenParent));
    const { item, entry } = await localTransaction(async () => {
      // A screen may still hold a temporary id the server has just replaced (the swap is one transaction).
      const parentId = givenParent === null ? null : await resolveId(db, givenParent);
      const [, last] = await Promise.all([
        checkParent({ type: data.type }, parentId),
        viewer.isGuest ? 0 : lastSeq(db),
      ]);
      const at = now();
      const owner = summaryOf(viewer.user);
      const assignedTo = data.assigned_to ?? null;
      const status: ItemStatus = data.status ?? 'pending';
      const { item, entry, rolledBefore, rolled } = await storeNewItem(
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
          assignedUser: await assigneeSummary(assignedTo),
          parent: null,
          children_count: 0,
          completed_count: 0,
        },
        at,
        last,
        options?.batch ? 'batch' : null,
      );
      const undo = await undoRecordOf(options, `${TYPE_WORD[item.type]} created`, rolledBefore, [
        item,
        ...rolled,
      ]);
      await applyLocalChange(db, { undo });
      return { item, entry };
    });
    return options?.batch ? item : finish(item, entry);
  }

  /**
   * Applies changed fields locally with the roll-up, and queues them. `request` overrides the queued
   * request (assign uses its own endpoint).
   */
  async function write(
    givenId: number,
    givenPatch: ItemPatch,
    request?: { kind: 'assign'; data: Record<string, unknown> },
    options?: WriteOptions,
  ): Promise<LocalItem> {
    const viewer = deps.viewer();
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
    let settleEcho: ((stored: boolean) => void) | null = null;
    // W9: an edit in place of a row this tab knows puts at once from what it knows, checked in the
    // same transaction (a move or a status change reads its family anyway, so it reads first).
    const guesses = writeGuessesOf(db);
    const guessRow =
      !('parent_id' in givenPatch) && !('status' in givenPatch) ? guesses.row(early) : undefined;
    const guessSeq = viewer.isGuest ? 0 : guesses.lastSeq();
    /** The row the edit makes of `current` (a roll-up may then move its status). */
    const edited = (current: LocalItem, changed: readonly string[], patch: ItemPatch, at: string) => {
      const next: LocalItem = { ...current, updated_at: at, _localVersion: current._localVersion + 1 };
      for (const f of changed)
        (next as unknown as Record<string, unknown>)[f] = patch[f as keyof ItemPatch] ?? null;
      if (viewer.isGuest) return next;
      return {
        ...next,
        _syncStatus: 'pending' as const,
        _base: baseOf(current),
        _dirty: [...new Set([...current._dirty, ...changed])] as LocalItem['_dirty'],
      };
    };
    /** The request the edit queues: the fields it changed, against the version it started from. */
    const queuedEdit = (id: number, current: LocalItem, changed: readonly string[], patch: ItemPatch) => {
      const data: Record<string, unknown> = {};
      for (const f of changed) data[f] = patch[f as keyof ItemPatch] ?? null;
      return {
        kind: request?.kind ?? ('update' as const),
        data: request?.data ?? data,
        itemId: id,
        baseVersion: baseOf(current)?.version ?? null,
      };
    };
    /**
     * SYNC.md I12: an edit in place from a guess that nothing else moves (no roll-up, no assignee to
     * look up, no rule to check) is stored by one raw transaction with every request issued at once;
     * null when it is not one, and the write goes the way below.
     */
    const inPlaceNow = (guess: { row: LocalItem; last: number }) => {
      const current = guess.row;
      if (early < 0 || current._deleted === 1) return null;
      const update = planUpdate(current, givenPatch);
      const changed = update.fields;
      if (
        changed.length === 0 ||
        changed.includes('assigned_to') ||
        update.changed.parent_id ||
        update.recurrenceCheck ||
        update.spanProblem ||
        update.direct.size > 0 ||
        update.touched.length > 0
      )
        return null;
      const at = now();
      const next = edited(current, changed, givenPatch, at);
      if (ownStatusAfter(current, update, new Map(), at)) return null;
      const label = changeLabel(current, next, changed);
      const undo =
        options?.record === false
          ? null
          : undoRecordFrom(
              options,
              label,
              snapshotWith([current], new Map()),
              snapshotWith([next], new Map()),
            );
      const stored = applyInPlaceEdit(db, {
        row: replacing(next, current),
        undo,
        queue: viewer.isGuest
          ? null
          : { entry: queuedEdit(early, current, changed, givenPatch), after: guess.last },
        unchanged: (row, last) => !!row && sameStoredRow(row, current) && last <= guess.last,
      });
      if (!stored) return null;
      const settle = deps.echo && echoable(current, next) ? deps.echo.announce([next]) : null;
      return stored.then(
        ([entry]) => {
          settle?.(true);
          return { item: next, entry: entry ?? null, extra: null };
        },
        (error: unknown) => {
          settle?.(false);
          throw error;
        },
      );
    };
    const attempt = (guess: { row: LocalItem; last: number } | null) =>
      localTransaction(async () => {
        if (!guess) {
          // Again inside the transaction: a swap may have committed since.
          const id = early >= 0 ? early : await resolveId(db, early);
          // The queue's last seq is read alongside the item: one round trip, not two.
          const [current, last] = await Promise.all([storedItem(id), viewer.isGuest ? 0 : lastSeq(db)]);
          if (current) guesses.sawRows([current]);
          guesses.sawSeq(last);
          return change(id, current, last, null);
        }
        // Made before any write of this transaction, so they read as it was before them: the row, the
        // queue's end, and that a temporary id has not been swapped since.
        const id = early;
        const stored = Promise.all([storedItem(id), viewer.isGuest ? 0 : lastSeq(db), resolveId(db, id)]);
        const checked = stored.then(([current, last, resolved]) => {
          if (!current || resolved !== id || !sameStoredRow(current, guess.row) || last > guess.last) {
            if (current) guesses.sawRows([current]);
            else guesses.forget(id);
            throw new StaleGuess();
          }
        });
        // Awaited below on every path; until then a failed check is not an unhandled rejection.
        checked.catch(() => undefined);
        try {
          return await change(id, guess.row, guess.last, checked);
        } catch (error) {
          // An answer from a wrong guess (a refusal too) is no answer: the check speaks first.
          await checked;
          throw error;
        }
      });
    const change = async (
      id: number,
      current: LocalItem | undefined,
      last: number,
      checked: Promise<void> | null,
    ) => {
      let patch =
        typeof givenPatch.parent_id === 'number'
          ? { ...givenPatch, parent_id: await resolveId(db, givenPatch.parent_id) }
          : givenPatch;
      if (!current || current._deleted === 1) throw new NotFoundError(id);
      // A move to another parent that names no place goes last there (SYNC.md O4): the device picks
      // the key, so the place shows at once and the PATCH carries it.
      if (
        'parent_id' in patch &&
        !patch.sort_key &&
        (patch.parent_id || null) !== (current.parent_id || null)
      )
        patch = {
          ...patch,
          sort_key: await keyAfterLastSibling(db, patch.parent_id || null, current.user_id),
        };
      // What the PATCH changes is the shared update rule's decision (src/shared/itemUpdate.ts).
      const update = planUpdate(current, patch);
      const changed = update.fields;
      if (changed.length === 0) {
        await checked;
        return { item: current, entry: null, extra: null };
      }
      if (update.changed.parent_id) await checkParent({ id, type: current.type }, patch.parent_id ?? null);
      if (rules && update.recurrenceCheck)
        checkRecurrence(rules, update.recurrenceCheck.item, update.recurrenceCheck.ruleChanged);
      // D10: the server refuses the same with a 422 naming start_date.
      if (update.spanProblem) throw new ValidationError({ start_date: [update.spanProblem] });
      const at = now();
      let next = edited(current, changed, patch, at);
      if (changed.includes('assigned_to'))
        next = { ...next, assignedUser: await assigneeSummary(next.assigned_to) };
      const { direct, touched } = update;
      // Only status and parent changes move the roll-up; a title edit skips loading the family.
      const rolls = direct.size > 0 || touched.length > 0;
      const roots = rolls ? [await rootIdOf(db, current), await rootIdOf(db, next)] : [];
      const rolled = rolls
        ? await applyLocalRollUp(db, roots, direct, touched, at, new Map([[id, next]]))
        : new Map<number, LocalItem>();
      const own = ownStatusAfter(current, update, rolled, at);
      if (own) next = { ...next, status: own.status, completed_at: own.completed_at };
      const puts = [replacing(next, current), ...[...rolled.values()].filter((i) => i.id !== id)];
      if (deps.echo && puts.length === 1 && echoable(current, next)) settleEcho = deps.echo.announce([next]);
      // The edited row as it was is `current`; only rows the roll-up moved are read (a title edit reads none).
      const others = puts.slice(1);
      const touchedBefore = [
        current,
        ...(others.length === 0
          ? []
          : (await db.items.bulkGet(others.map((i) => i.id))).filter((i): i is LocalItem => !!i)),
      ];
      // The item itself and every item the cascade or the roll-up completed bring their next
      // occurrences (N1, N6), as the server does in the completing transaction.
      const wasById = new Map(touchedBefore.map((i) => [i.id, i]));
      const occurrences = recurrence
        ? puts.flatMap((is) => {
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
      const label = changeLabel(current, next, changed);
      // Without a next occurrence the undo record is known now: it is stored alongside the rows, so
      // the transaction takes two round trips after its first read, not four.
      const undo = occurrences.length > 0 ? null : await undoRecordOf(options, label, touchedBefore, puts);
      const [[queued]] = await Promise.all([
        applyLocalChange(db, {
          rows: puts,
          undo,
          ...(viewer.isGuest
            ? {}
            : { queue: { entries: [queuedEdit(id, current, changed, patch)], after: last } }),
        }),
        checked,
      ]);
      const entry: QueueEntry | null = queued ?? null;
      if (occurrences.length === 0 || !recurrence) return { item: next, entry, extra: null };
      // After the completion in the queue, so the server has completed them when the creates arrive.
      const afterById = new Map(puts.map((i) => [i.id, i]));
      const beforeIds = new Set(touchedBefore.map((i) => i.id));
      const created: LocalItem[] = [];
      let lastEntry = entry;
      for (const { completed, following } of occurrences) {
        // A roll-up by an earlier occurrence may have moved this item's row since: its parent is read anew.
        const added = await recurrence.addOccurrence(
          db,
          viewer,
          completed,
          following,
          at,
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
      await applyLocalChange(db, {
        undo: await undoRecordOf(options, label, touchedBefore, [...afterById.values(), ...created], created),
      });
      return { item: next, entry, extra: lastEntry === entry ? null : lastEntry };
    };
    const settled = (guess: { row: LocalItem; last: number } | null) =>
      attempt(guess).then(
        (result) => {
          settleEcho?.(true);
          return result;
        },
        (error: unknown) => {
          settleEcho?.(false);
          settleEcho = null;
          throw error;
        },
      );
    const guess = guessRow && guessSeq !== undefined ? { row: guessRow, last: guessSeq } : null;
    // Whatever failed the raw transaction stored nothing: made again from a fresh read, the long way.
    const raw = guess ? inPlaceNow(guess)?.catch(() => settled(null)) : undefined;
    const { item, entry, extra } = raw
      ? await raw
      : guess
        ? await settled(guess).catch((error: unknown) => {
            if (isStaleGuess(error)) return settled(null);
            throw error;
          })
        : await settled(null);
    return finish(item, entry, extra ?? undefined);
  }

  /** Updates the given fields (the changed ones only are queued). */
  async function update(id: number, input: ItemPatchInput, options?: WriteOptions): Promise<LocalItem> {
    const { parent_id: rawParent, ...rest } = input;
    if (Object.keys(rest).length === 0)
      return write(id, { parent_id: localRef(rawParent) }, undefined, options);
    const { itemPatchSchema } = schemasLoaded ?? (await schemas());
    const parsed = itemPatchSchema.safeParse(rest);
    if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
    // A reminder set here keeps its wall-clock time where it was set (N5), as a new item's does.
    const data =
      parsed.data.remind_at && !('time_zone' in parsed.data)
        ? { ...parsed.data, time_zone: deviceTimeZone() }
        : parsed.data;
    return write(
      id,
      'parent_id' in input ? { ...data, parent_id: localRef(rawParent) } : data,
      undefined,
      options,
    );
  }

  /** Sets a status directly (Start, Complete, Reopen); completing completes the descendants. */
  function setStatus(id: number, status: ItemStatus, options?: WriteOptions): Promise<LocalItem> {
    return write(id, { status }, undefined, options);
  }

  /**
   * A person's status change from a screen. Reopening a completed item over a subtree that is all
   * done reopens what was completed last (shared reopenDirect), so status, counts and progress agree
   * ('pending · 2 of 2 done · 100%' never shows); every other change is `setStatus`.
   */
  async function changeStatus(
    givenId: number,
    status: ItemStatus,
    options?: WriteOptions,
  ): Promise<LocalItem> {
    const id = await resolveId(db, givenId);
    const current = await db.items.get(id);
    if (status === 'completed' || current?.status !== 'completed') return setStatus(id, status, options);
    const below = await descendantIds(db, id);
    if (below.length === 0) return setStatus(id, status, options);
    const nodes = (await db.items.bulkGet([id, ...below])).filter(
      (i): i is LocalItem => i !== undefined && i._deleted === 0,
    );
    const direct = reopenDirect(nodes, id, status);
    let own: LocalItem | undefined;
    // One gesture, one undo: every reopen it makes shares a group.
    const group = options?.group ?? crypto.randomUUID();
    for (const [target, next] of direct) {
      const written = await setStatus(target, next, { group });
      if (target === id) own = written;
    }
    return own ?? (await db.items.get(id)) ?? current;
  }

  /** A todo's icon: pending ↔ completed (an in-progress todo completes). */
  async function toggle(givenId: number): Promise<LocalItem> {
    const id = await resolveId(db, givenId);
    const item = await db.items.get(id);
    if (!item) throw new NotFoundError(id);
    return setStatus(id, item.status === 'completed' ? 'pending' : 'completed');
  }

  /** Assigns to a user; 0 unassigns. Queued as POST /api/items/{id}/assign. */
  function assign(id: number, userId: number, options?: WriteOptions): Promise<LocalItem> {
    return write(
      id,
      { assigned_to: userId === 0 ? null : userId },
      { kind: 'assign', data: { user_id: userId } },
      options,
    );
  }

  /** Deletes an item and its descendants: at once for guests, marked and queued when signed in. */
  async function remove(givenId: number, options?: WriteOptions): Promise<void> {
    const viewer = deps.viewer();
    const entry = await localTransaction(async () => {
      const id = await resolveId(db, givenId);
      const [current, last] = await Promise.all([db.items.get(id), viewer.isGuest ? 0 : lastSeq(db)]);
      if (!current || current._deleted === 1) throw new NotFoundError(id);
      const descendants = await descendantIds(db, id);
      const at = now();
      const root = await rootIdOf(db, current);
      // The trash keeps what this delete takes, as it was, so a restore is instant and offline too.
      const taken = (await db.items.bulkGet(descendants)).filter(
        (i): i is LocalItem => !!i && i._deleted === 0,
      );
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
      if (viewer.isGuest) {
        await applyLocalChange(db, { removed: [id, ...descendants] });
      } else {
        const hidden = (await db.items.bulkGet(descendants)).filter((i): i is LocalItem => !!i);
        await applyLocalChange(db, {
          rows: [
            {
              ...current,
              _deleted: 1,
              _syncStatus: 'pending',
              _base: baseOf(current),
              _localVersion: current._localVersion + 1,
            },
            ...hidden.map((i) => ({ ...i, _deleted: 1 as const })),
          ],
        });
      }
      let rolledPuts: LocalItem[] = [];
      let rolledBefore: LocalItem[] = [];
      if (current.parent_id !== null && root !== id) {
        const rolled = await applyLocalRollUp(db, [root], new Map(), [current.parent_id], at);
        rolledPuts = [...rolled.values()];
        rolledBefore = (await db.items.bulkGet(rolledPuts.map((i) => i.id))).filter(
          (i): i is LocalItem => !!i,
        );
      }
      const undo = await undoRecordOf(
        options,
        `${TYPE_WORD[current.type]} deleted`,
        [current, ...rolledBefore],
        rolledPuts,
      );
      const [entry] = await applyLocalChange(db, {
        rows: rolledPuts,
        undo,
        ...(viewer.isGuest
          ? {}
          : {
              queue: {
                entries: [
                  { kind: 'delete', data: null, itemId: id, baseVersion: baseOf(current)?.version ?? null },
                ],
                after: last,
              },
            }),
      });
      return entry ?? null;
    });
    // W1, W3: stored and queued is done; the network is the sync status's business.
    if (entry) sendInBackground(entry);
  }

  // Each write counts as under way until stored, whichever door called it (the command map, undo, the
  // transfer): a pull ends only once the writes made while it streamed are stored (L8).
  return trackedWrites(db, {
    create,
    update,
    remove,
    /** The raw field write (undo puts fields back through it, `record: false`). */
    write,
    toggle,
    assign,
    setStatus,
    changeStatus,
    start: (id: number) => setStatus(id, 'in_progress'),
    complete: (id: number) => setStatus(id, 'completed'),
    reopen: (id: number) => setStatus(id, 'pending'),
  });
}

export { ApiError };
