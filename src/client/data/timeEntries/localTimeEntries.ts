/**
 * Time entries as device data (SYNC.md X2, X3, X6, X10): each write is one local write through
 * applyLocalChange with its queue row, shown at once from the device and kept offline. The timer rule
 * of src/shared/timeEntries.ts runs here as it runs in the server's transaction: starting a timer ends
 * the person's running one at that instant on the device, and after every pull or answer the person's
 * entries are settled by the same rule, so the device never shows two running or two overlapping.
 * Requests name an entry by its uuid (the server takes one of the caller's own so), never waiting for
 * its id. A guest's entries stay on the device until they sign in, then go up after their items.
 */
import Dexie from 'dexie';
import {
  entryProblem,
  isTimeEntryTombstone,
  mergeTimeEntry,
  normalizeSpans,
  overlapsAny,
  type Span,
  type SyncTimeEntryChange,
  startEffects,
  stopEnd,
  TIME_ENTRY_OVERLAP_MESSAGE,
  type TimeEntry,
  type TimeEntryFields,
  type TimeEntryPatch,
} from '../../../shared/timeEntries';
import { applyLocalChange } from '../changes/applyLocalChange';
import type { OutpostDb } from '../store/db';
import { resolveId } from '../store/idAliases';
import type { LocalItem, LocalTimeEntry, QueueEntry, Viewer } from '../store/types';
import { discard, lastSeq, type NewEntry } from '../sync/queue';

/** The tables a time entry write touches in one transaction. */
export const TIME_TABLES = ['items', 'timeEntries', 'syncQueue', 'meta'] as const;

type Who = Viewer & { user: { id: number; name: string } };

/** A write the timer rule refuses (X1, X4), by field, as the server's 422 names it. */
export class TimeEntryProblem extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? 'This time entry is not valid.');
    this.name = 'TimeEntryProblem';
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The span the timer rule reads of a stored entry. */
export function spanOfEntry(row: Pick<LocalTimeEntry, 'uuid' | 'started_at' | 'ended_at'>): Span {
  return {
    uuid: row.uuid,
    start: Date.parse(row.started_at),
    end: row.ended_at === null ? null : Date.parse(row.ended_at),
  };
}

const fieldsOf = (row: TimeEntryFields): TimeEntryFields => ({
  started_at: row.started_at,
  ended_at: row.ended_at,
  note: row.note,
});

function withEnd(row: LocalTimeEntry, end: number | null): LocalTimeEntry {
  return { ...row, ended_at: end === null ? null : iso(end), running: end === null ? 1 : 0 };
}

/** One person's live entries on the device (the timer rule's input), by start. */
export function liveEntriesOf(db: OutpostDb, userId: number): Promise<LocalTimeEntry[]> {
  return db.timeEntries
    .where('[user_id+started_at]')
    .between([userId, Dexie.minKey], [userId, Dexie.maxKey])
    .filter((e) => e._deleted === 0)
    .toArray();
}

/** An item's live entries on the device, newest first. */
export async function entriesOfItem(db: OutpostDb, itemId: number): Promise<LocalTimeEntry[]> {
  const id = await resolveId(db, itemId);
  const rows = await db.timeEntries.where('item_id').equals(id).toArray();
  return rows
    .filter((e) => e._deleted === 0)
    .sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
}

/** The person's running timer on the device, if any. */
export async function runningEntryOf(db: OutpostDb, userId: number): Promise<LocalTimeEntry | null> {
  const rows = await db.timeEntries.where('[user_id+running]').equals([userId, 1]).toArray();
  return rows.find((e) => e._deleted === 0) ?? null;
}

async function liveItem(db: OutpostDb, itemId: number): Promise<LocalItem> {
  const item = await db.items.get(await resolveId(db, itemId));
  if (!item || item._deleted === 1) throw new Error('This item is not on the device.');
  return item;
}

async function ownEntry(db: OutpostDb, who: Who, uuid: string): Promise<LocalTimeEntry> {
  const row = await db.timeEntries.get(uuid);
  if (!row || row._deleted === 1) throw new Error('This time entry is not on the device.');
  if (row.user_id !== who.user.id) throw new Error('Only its author can change a time entry.');
  return row;
}

function newRow(
  who: Who,
  item: LocalItem,
  uuid: string,
  start: number,
  end: number | null,
  note: string,
): LocalTimeEntry {
  const now = new Date().toISOString();
  return {
    uuid,
    id: null,
    item_id: item.id,
    item_uuid: item.uuid ?? null,
    user_id: who.user.id,
    user_name: who.user.name,
    started_at: iso(start),
    ended_at: end === null ? null : iso(end),
    note,
    created_at: now,
    updated_at: now,
    running: end === null ? 1 : 0,
    _syncStatus: who.isGuest ? 'local' : 'pending',
    _deleted: 0,
    _pending: {},
    _base: null,
  };
}

/** What a local time write answers: the entry as stored and the queue rows to push (none for a guest). */
export interface TimeWrite {
  entry: LocalTimeEntry;
  queued: QueueEntry[];
}

/**
 * X2: starts the person's timer on an item at `at` (now): their running entry ends at that instant
 * on the device, in this same transaction, and the start is queued with its uuid (the server ends
 * the running one too, in its own transaction).
 */
export async function startTimer(
  db: OutpostDb,
  who: Who,
  input: { itemId: number; at?: number; uuid?: string; note?: string },
): Promise<TimeWrite> {
  return db.transaction('rw', [...TIME_TABLES], async () => {
    const [item, others, last] = await Promise.all([
      liveItem(db, input.itemId),
      liveEntriesOf(db, who.user.id),
      lastSeq(db),
    ]);
    const start = input.at ?? Date.now();
    const uuid = input.uuid ?? crypto.randomUUID();
    const effects = startEffects(others.map(spanOfEntry), { uuid, start, end: null });
    const ended = effects.ends.map((e) => withEnd(others.find((o) => o.uuid === e.uuid)!, e.end));
    const entry = newRow(who, item, uuid, start, effects.end, input.note ?? '');
    const entries: NewEntry[] = who.isGuest
      ? []
      : [
          {
            kind: 'time_create',
            itemId: item.id,
            data: { uuid, started_at: entry.started_at, ...(input.note ? { note: input.note } : {}) },
            baseVersion: null,
            child: { uuid },
          },
        ];
    const queued = await applyLocalChange(db, {
      children: { timeEntries: { put: [...ended, entry] } },
      queue: { entries, after: last },
    });
    return { entry, queued };
  });
}

/**
 * X3: stops a running entry at `at` (now), within 24 h of its start and before the person's next
 * entry. One already ended (by another device, or a later start) stays as it is, and nothing is queued.
 */
export async function stopTimer(db: OutpostDb, who: Who, uuid: string, at?: number): Promise<TimeWrite> {
  return db.transaction('rw', [...TIME_TABLES], async () => {
    const [row, others, last] = await Promise.all([
      ownEntry(db, who, uuid),
      liveEntriesOf(db, who.user.id),
      lastSeq(db),
    ]);
    const end = stopEnd(others.map(spanOfEntry), spanOfEntry(row), at ?? Date.now());
    if (end === null) return { entry: row, queued: [] };
    const endedAt = iso(end);
    const local = row._syncStatus === 'local';
    const entry: LocalTimeEntry = {
      ...withEnd(row, end),
      updated_at: new Date().toISOString(),
      ...(local
        ? {}
        : {
            _syncStatus: 'pending' as const,
            _pending: { ...row._pending, ended_at: endedAt },
            _base: row.id === null ? null : (row._base ?? fieldsOf(row)),
          }),
    };
    const entries: NewEntry[] = local
      ? []
      : [
          {
            kind: 'time_stop',
            itemId: row.item_id,
            data: { ended_at: endedAt },
            baseVersion: null,
            child: { uuid },
          },
        ];
    const queued = await applyLocalChange(db, {
      children: { timeEntries: { put: [entry] } },
      queue: { entries, after: last },
    });
    return { entry, queued };
  });
}

/** X1, X4: adds a finished entry by hand; it may not overlap another of the person's. */
export async function addManualEntry(
  db: OutpostDb,
  who: Who,
  input: { itemId: number; startedAt: string; endedAt: string; note?: string; uuid?: string },
): Promise<TimeWrite> {
  const problem = entryProblem(input.startedAt, input.endedAt);
  if (problem) throw new TimeEntryProblem(problem);
  return db.transaction('rw', [...TIME_TABLES], async () => {
    const [item, others, last] = await Promise.all([
      liveItem(db, input.itemId),
      liveEntriesOf(db, who.user.id),
      lastSeq(db),
    ]);
    const uuid = input.uuid ?? crypto.randomUUID();
    const span: Span = { uuid, start: Date.parse(input.startedAt), end: Date.parse(input.endedAt) };
    if (overlapsAny(others.map(spanOfEntry), span))
      throw new TimeEntryProblem({ started_at: [TIME_ENTRY_OVERLAP_MESSAGE] });
    const entry = newRow(who, item, uuid, span.start, span.end, input.note ?? '');
    const entries: NewEntry[] = who.isGuest
      ? []
      : [
          {
            kind: 'time_create',
            itemId: item.id,
            data: {
              uuid,
              started_at: entry.started_at,
              ended_at: entry.ended_at,
              ...(entry.note ? { note: entry.note } : {}),
            },
            baseVersion: null,
            child: { uuid },
          },
        ];
    const queued = await applyLocalChange(db, {
      children: { timeEntries: { put: [entry] } },
      queue: { entries, after: last },
    });
    return { entry, queued };
  });
}

/** X1, X4, X6: edits an entry's start, end or note (its author); the span is checked whole. */
export async function updateEntry(
  db: OutpostDb,
  who: Who,
  uuid: string,
  patch: TimeEntryPatch,
): Promise<TimeWrite> {
  return db.transaction('rw', [...TIME_TABLES], async () => {
    const [row, others, last] = await Promise.all([
      ownEntry(db, who, uuid),
      liveEntriesOf(db, who.user.id),
      lastSeq(db),
    ]);
    const next: TimeEntryFields = {
      started_at: patch.started_at ?? row.started_at,
      ended_at: patch.ended_at === undefined ? row.ended_at : patch.ended_at,
      note: patch.note ?? row.note,
    };
    const problem = entryProblem(next.started_at, next.ended_at);
    if (problem) throw new TimeEntryProblem(problem);
    const span = spanOfEntry({ uuid, ...next });
    const rest = others.map(spanOfEntry).filter((o) => o.uuid !== uuid);
    const laterStart = span.end === null && rest.some((o) => o.start >= span.start);
    if (laterStart || overlapsAny(rest, span))
      throw new TimeEntryProblem({ started_at: [TIME_ENTRY_OVERLAP_MESSAGE] });
    const local = row._syncStatus === 'local';
    const entry: LocalTimeEntry = {
      ...withEnd({ ...row, ...next }, span.end),
      updated_at: new Date().toISOString(),
      ...(local
        ? {}
        : {
            _syncStatus: 'pending' as const,
            _pending: { ...row._pending, ...patch },
            _base: row.id === null ? null : (row._base ?? fieldsOf(row)),
          }),
    };
    const entries: NewEntry[] = local
      ? []
      : [
          {
            kind: 'time_edit',
            itemId: row.item_id,
            data: { ...patch },
            baseVersion: null,
            child: { uuid },
          },
        ];
    const queued = await applyLocalChange(db, {
      children: { timeEntries: { put: [entry] } },
      queue: { entries, after: last },
    });
    return { entry, queued };
  });
}

/** The queue rows still naming a time entry, in order. */
async function queuedFor(db: OutpostDb, uuid: string): Promise<QueueEntry[]> {
  const rows = await db.syncQueue
    .filter((e) => e.child?.kind === 'time_entries' && e.child.uuid === uuid)
    .toArray();
  return rows.sort((a, b) => a.seq - b.seq);
}

/**
 * Deletes an entry (its author's, or on an item the person owns: the server judges). One the server
 * never had goes with its queued writes; one it has is hidden at once and its DELETE queued.
 */
export async function removeEntry(db: OutpostDb, who: Who, uuid: string): Promise<QueueEntry | null> {
  return db.transaction('rw', [...TIME_TABLES], async () => {
    const row = await db.timeEntries.get(uuid);
    if (!row || row._deleted === 1) return null;
    if (row._syncStatus === 'local' || row.id === null) {
      for (const queued of await queuedFor(db, uuid)) await discard(db, queued.id);
      await applyLocalChange(db, { children: { timeEntries: { removed: [uuid] } } });
      return null;
    }
    const ref = row.user_id === who.user.id ? uuid : String(row.id);
    const [entry] = await applyLocalChange(db, {
      children: {
        timeEntries: {
          put: [{ ...row, _deleted: 1, _syncStatus: 'pending', _base: row._base ?? fieldsOf(row) }],
        },
      },
      queue: {
        entries: [
          {
            kind: 'time_delete',
            itemId: row.item_id,
            data: null,
            baseVersion: null,
            child: { uuid, ref },
          },
        ],
        after: await lastSeq(db),
      },
    });
    return entry ?? null;
  });
}

/** The stored row of a server copy; `local` gives what the device alone knows (its item's uuid). */
function fromServer(
  server: TimeEntry & { item_uuid?: string | null },
  local: LocalTimeEntry | undefined,
): LocalTimeEntry {
  const running = server.ended_at === null ? 1 : 0;
  return {
    uuid: server.uuid,
    id: server.id,
    item_id: server.item_id,
    item_uuid: server.item_uuid ?? local?.item_uuid ?? null,
    user_id: server.user.id,
    user_name: server.user.name,
    started_at: server.started_at,
    ended_at: server.ended_at,
    note: server.note,
    created_at: server.created_at,
    updated_at: server.updated_at,
    running,
    _syncStatus: 'synced',
    _deleted: 0,
    _pending: {},
    _base: null,
  };
}

/** X6: a server copy under the device's changes still queued: the changed fields stay the device's. */
function underPending(server: LocalTimeEntry, local: LocalTimeEntry): LocalTimeEntry {
  const merged = mergeTimeEntry(server, local._pending);
  return {
    ...merged,
    running: merged.ended_at === null ? 1 : 0,
    _syncStatus: 'pending',
    _deleted: local._deleted,
    _pending: local._pending,
    _base: fieldsOf(server),
  };
}

/**
 * X2, X3 on the device: the person's entries as the timer rule leaves them, whatever order their
 * writes and pulls arrived in (each ends at the latest where the next begins), inside the caller's
 * transaction. The server does the same when the writes reach it, so both end alike.
 */
export async function settlePerson(db: OutpostDb, userId: number): Promise<void> {
  const rows = await liveEntriesOf(db, userId);
  const byUuid = new Map(rows.map((r) => [r.uuid, r]));
  const changed: LocalTimeEntry[] = [];
  for (const span of normalizeSpans(rows.map(spanOfEntry))) {
    const row = byUuid.get(span.uuid)!;
    const end = row.ended_at === null ? null : Date.parse(row.ended_at);
    if (end !== span.end) changed.push(withEnd(row, span.end));
  }
  if (changed.length > 0) await db.timeEntries.bulkPut(changed);
}

/**
 * Stores the server's answer to a pushed time entry, inside the push's transaction (the entry has
 * left the queue): the server's copy, under the device's changes still queued (X6).
 */
export async function confirmTimeEntry(db: OutpostDb, entry: QueueEntry, body: unknown): Promise<void> {
  const uuid = entry.child?.uuid ?? String(entry.data?.uuid ?? '');
  const local = await db.timeEntries.get(uuid);
  const pending = await queuedFor(db, uuid);
  if (entry.kind === 'time_delete') {
    if (local && pending.length === 0) await db.timeEntries.delete(uuid);
    return;
  }
  const server = body as TimeEntry;
  if (!server || typeof server.id !== 'number') return;
  const copy = fromServer(server, local);
  await db.timeEntries.put(local && pending.length > 0 ? underPending(copy, local) : copy);
  await settlePerson(db, server.user.id);
}

/**
 * A time write the server refused for good: the device gives way. A refused create goes from the
 * device with whatever was queued after it (the server never stored it); a refused stop, edit or
 * delete puts the server's copy back. Inside the push's transaction.
 */
export async function dropTimeEntry(db: OutpostDb, entry: QueueEntry): Promise<void> {
  const uuid = entry.child?.uuid ?? String(entry.data?.uuid ?? '');
  const local = await db.timeEntries.get(uuid);
  if (!local) return;
  if (entry.kind === 'time_create') {
    for (const queued of await queuedFor(db, uuid)) await discard(db, queued.id);
    await db.timeEntries.delete(uuid);
    return;
  }
  const base = local._base ?? fieldsOf(local);
  await db.timeEntries.put({
    ...local,
    ...base,
    running: base.ended_at === null ? 1 : 0,
    _syncStatus: 'synced',
    _deleted: 0,
    _pending: {},
    _base: null,
  });
  await settlePerson(db, local.user_id);
}

/**
 * X5, X6: stores a pulled page's time entries inside the page's transaction: live ones replace the
 * device's copy (under its changes still queued), tombstones remove; then each person's entries are
 * settled by the timer rule.
 */
export async function applyPulledTimeEntries(
  db: OutpostDb,
  changes: readonly SyncTimeEntryChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const stored = await db.timeEntries.bulkGet(changes.map((c) => c.uuid));
  const byUuid = new Map<string, LocalTimeEntry>();
  for (const row of stored) if (row) byUuid.set(row.uuid, row);
  const puts = new Map<string, LocalTimeEntry>();
  const deletes = new Set<string>();
  const people = new Set<number>();
  for (const change of changes) {
    if (isTimeEntryTombstone(change)) {
      puts.delete(change.uuid);
      deletes.add(change.uuid);
      const local = byUuid.get(change.uuid);
      if (local) people.add(local.user_id);
      continue;
    }
    deletes.delete(change.uuid);
    people.add(change.user.id);
    const local = byUuid.get(change.uuid);
    const copy = fromServer(change, local);
    const hasPending = local && (local._deleted === 1 || Object.keys(local._pending).length > 0);
    puts.set(change.uuid, hasPending ? underPending(copy, local) : copy);
  }
  if (deletes.size > 0) await db.timeEntries.bulkDelete([...deletes]);
  if (puts.size > 0) await db.timeEntries.bulkPut([...puts.values()]);
  for (const person of people) await settlePerson(db, person);
}

/**
 * A guest signs in: their entries go up after their items, each a create on its item's new id (`ids`:
 * guest id → temporary id), now `owner`'s. Inside the upgrade's transaction; answers the queue rows.
 */
export async function moveGuestTimeEntries(
  db: OutpostDb,
  ids: ReadonlyMap<number, number>,
  owner: { id: number; name: string },
): Promise<NewEntry[]> {
  const guest = await db.timeEntries.filter((e) => e._syncStatus === 'local').toArray();
  const rows: LocalTimeEntry[] = [];
  const entries: NewEntry[] = [];
  for (const row of guest.sort((a, b) => (a.started_at < b.started_at ? -1 : 1))) {
    const itemId = ids.get(row.item_id);
    if (itemId === undefined || row._deleted === 1) continue;
    rows.push({ ...row, item_id: itemId, user_id: owner.id, user_name: owner.name, _syncStatus: 'pending' });
    entries.push({
      kind: 'time_create',
      itemId,
      data: {
        uuid: row.uuid,
        started_at: row.started_at,
        ...(row.ended_at !== null ? { ended_at: row.ended_at } : {}),
        ...(row.note ? { note: row.note } : {}),
      },
      baseVersion: null,
      child: { uuid: row.uuid },
    });
  }
  if (rows.length > 0) await db.timeEntries.bulkPut(rows);
  return entries;
}
