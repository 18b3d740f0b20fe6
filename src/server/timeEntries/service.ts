import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Item } from '../../shared/item';
import { VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import {
  entryProblem,
  minutesOf,
  overlapsAny,
  type Span,
  startEffects,
  stopEnd,
  TIME_ENTRY_MAX_MS,
  TIME_ENTRY_OVERLAP_MESSAGE,
  type TimeEntry,
  type TimeEntryCreate,
  type TimeEntryPatch,
} from '../../shared/timeEntries';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { childServer } from '../http/itemChildren';
import { iso, isoOrNull } from '../http/serialize';
import { findVisibleItem, visibleTo } from '../items/queries';
import { noteWebhookEvent } from '../webhooks/events';

/** A time entry row with its author's name, as TIME_ENTRY_SELECT reads it. */
export interface TimeEntryRow {
  id: number;
  uuid: string;
  item_id: number;
  user_id: number;
  user_name: string;
  started_at: Date | string;
  ended_at: Date | string | null;
  note: string;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at: Date | string | null;
}

/** The entry columns with its author's name and its item's uuid (for sync pages). */
export const TIME_ENTRY_SELECT = sql`t.id, t.uuid, t.item_id, t.user_id, u.name AS user_name, t.started_at,
  t.ended_at, t.note, t.created_at, t.updated_at, t.deleted_at, ti.uuid AS item_uuid
  FROM time_entries t JOIN users u ON u.id = t.user_id JOIN items ti ON ti.id = t.item_id`;

/** The API's time entry from a row (§4); a running one counts its minutes up to now. */
export function timeEntryJson(r: TimeEntryRow): TimeEntry {
  const startedAt = iso(r.started_at);
  const endedAt = isoOrNull(r.ended_at);
  return {
    id: r.id,
    uuid: r.uuid,
    item_id: r.item_id,
    user: { id: r.user_id, name: r.user_name },
    started_at: startedAt,
    ended_at: endedAt,
    minutes: minutesOf(startedAt, endedAt),
    note: r.note,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

async function entryById(tx: Executor, id: number): Promise<TimeEntryRow | undefined> {
  const [found] = await rows<TimeEntryRow>(tx, sql`SELECT ${TIME_ENTRY_SELECT} WHERE t.id = ${id}`);
  return found;
}

/** A time entry's data in a webhook event (`{ time_entry }`), or null when it is gone; app.ts registers it. */
export async function timeEntryWebhookData(
  tx: Executor,
  id: number,
): Promise<{ time_entry: TimeEntry } | null> {
  const row = await entryById(tx, id);
  return row ? { time_entry: timeEntryJson(row) } : null;
}

/** Time entries as a child of an item (src/shared/itemChildren.ts): their sync rows (X5) and webhook data; app.ts registers it. */
export const timeEntryChild = childServer<'time_entries', TimeEntryRow & { item_uuid: string | null }>({
  syncRows: (db, ids) =>
    rows<TimeEntryRow & { item_uuid: string | null }>(
      db,
      sql`SELECT ${TIME_ENTRY_SELECT} WHERE t.id = ANY(${sql.param([...ids])}::int[])`,
    ),
  syncJson: (r) => ({ ...timeEntryJson(r), item_uuid: r.item_uuid }),
  webhookData: timeEntryWebhookData,
});

const spanOf = (r: { uuid: string; started_at: Date | string; ended_at: Date | string | null }): Span => ({
  uuid: r.uuid,
  start: Date.parse(iso(r.started_at)),
  end: r.ended_at === null ? null : Date.parse(iso(r.ended_at)),
});

/**
 * X2: one person's timer writes run one after another, whichever device or server instance they
 * come from: each takes the person's row lock first, then reads their entries.
 */
async function lockPerson(tx: Executor, userId: number): Promise<void> {
  await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
}

/**
 * The person's live entries the rule may touch around `at`: every running one, and those that began
 * within a day before it or at any time after (an entry is at most 24 h long, so older ones end before it).
 */
async function spansAround(tx: Executor, userId: number, at: number): Promise<(Span & { id: number })[]> {
  const since = new Date(at - TIME_ENTRY_MAX_MS).toISOString();
  const found = await rows<{
    id: number;
    uuid: string;
    started_at: Date | string;
    ended_at: Date | string | null;
  }>(
    tx,
    sql`SELECT id, uuid, started_at, ended_at FROM time_entries
        WHERE user_id = ${userId} AND deleted_at IS NULL
          AND (ended_at IS NULL OR started_at >= ${since}::timestamptz)`,
  );
  return found.map((r) => ({ id: r.id, ...spanOf(r) }));
}

/** The finished minutes an entry adds to its item's `spent_minutes` (a running one adds none yet). */
const finishedMinutes = (startedAt: string, endedAt: string | null) =>
  endedAt === null ? 0 : minutesOf(startedAt, endedAt);

/**
 * X7: moves `spent_minutes` of the item and its ancestors by `delta` in the entry's own transaction,
 * as comments_count is kept (the version and change_xid move, so every device pulls the new sum).
 */
async function addSpent(tx: Executor, itemId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await tx.execute(
    sql`UPDATE items SET spent_minutes = greatest(spent_minutes + ${delta}, 0), version = version + 1,
          change_xid = pg_current_xact_id()::text::bigint
        WHERE id IN (SELECT x.id FROM items i
          LEFT JOIN items p ON p.id = i.parent_id
          CROSS JOIN LATERAL (VALUES (i.id), (p.id), (p.parent_id)) AS x(id)
          WHERE i.id = ${itemId} AND x.id IS NOT NULL)`,
  );
}

/** Ends entry `id` at `end` (the rule's trim), keeping `spent_minutes` with it. */
async function endEntry(tx: Executor, id: number, end: number): Promise<void> {
  const [before] = await rows<{ item_id: number; started_at: Date | string; ended_at: Date | string | null }>(
    tx,
    sql`SELECT item_id, started_at, ended_at FROM time_entries WHERE id = ${id}`,
  );
  if (!before) return;
  const endedAt = new Date(end).toISOString();
  await tx.execute(
    sql`UPDATE time_entries SET ended_at = ${endedAt}::timestamptz, updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id}`,
  );
  const startedAt = iso(before.started_at);
  await addSpent(
    tx,
    before.item_id,
    finishedMinutes(startedAt, endedAt) - finishedMinutes(startedAt, isoOrNull(before.ended_at)),
  );
}

/** The live item the actor may track time on: 404 when unseen, 403 for a viewer (X8). */
async function trackableItem(tx: Executor, actor: UserRow, itemId: number): Promise<Item> {
  const item = await findVisibleItem(tx, actor.id, itemId);
  if (!item) throw notFound();
  if (item.my_role === 'viewer') throw new HttpError(403, VIEWER_READ_ONLY_MESSAGE);
  return item;
}

/** An entry named by its id, or by the uuid of one of the caller's own (what a device's queue knows). */
export type EntryRef = number | { uuid: string };

/** The live entry `ref` names when the actor sees its item, else the 404 of an unknown entry. */
async function visibleEntry(
  tx: Executor,
  actor: UserRow,
  ref: EntryRef,
): Promise<{ entry: TimeEntryRow; item: Item }> {
  const entry =
    typeof ref === 'number'
      ? await entryById(tx, ref)
      : (
          await rows<TimeEntryRow>(
            tx,
            sql`SELECT ${TIME_ENTRY_SELECT} WHERE t.user_id = ${actor.id} AND t.uuid = ${ref.uuid}`,
          )
        )[0];
  if (!entry || entry.deleted_at !== null) throw notFound('Time entry');
  const item = await findVisibleItem(tx, actor.id, entry.item_id);
  if (!item) throw notFound('Time entry');
  return { entry, item };
}

const changed = async (tx: Executor, itemId: number) => viewersOfItem(tx, itemId);

/**
 * Creates a time entry (X1–X4): a finished one (a manual entry) must overlap none of the actor's,
 * a running one (no `ended_at`) ends the actor's running timer at its start in this transaction.
 * A known uuid answers with the stored entry (X9).
 */
export async function createTimeEntry(
  tx: Executor,
  actor: UserRow,
  itemId: number,
  input: TimeEntryCreate,
): Promise<WriteResult> {
  await trackableItem(tx, actor, itemId);
  await lockPerson(tx, actor.id);
  const uuid = input.uuid ?? randomUUID();
  if (input.uuid !== undefined) {
    const [existing] = await rows<TimeEntryRow>(
      tx,
      sql`SELECT ${TIME_ENTRY_SELECT} WHERE t.user_id = ${actor.id} AND t.uuid = ${uuid}`,
    );
    if (existing) {
      if (existing.item_id !== itemId)
        throw unprocessable({ uuid: ['This uuid already names another entry.'] });
      return { status: 200, body: timeEntryJson(existing) };
    }
  }
  const start = Date.parse(input.started_at);
  const span: Span = { uuid, start, end: input.ended_at ? Date.parse(input.ended_at) : null };
  const others = await spansAround(tx, actor.id, start);
  let end = span.end;
  if (span.end === null) {
    const effects = startEffects(others, span);
    for (const trim of effects.ends) {
      const other = others.find((o) => o.uuid === trim.uuid);
      if (other) await endEntry(tx, other.id, trim.end);
    }
    end = effects.end;
  } else if (overlapsAny(others, span)) {
    throw unprocessable({ started_at: [TIME_ENTRY_OVERLAP_MESSAGE] });
  }
  const startedAt = new Date(start).toISOString();
  const endedAt = end === null ? null : new Date(end).toISOString();
  const [inserted] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO time_entries (uuid, item_id, user_id, started_at, ended_at, note)
        VALUES (${uuid}, ${itemId}, ${actor.id}, ${startedAt}::timestamptz, ${endedAt}::timestamptz,
          ${input.note ?? ''})
        RETURNING id`,
  );
  await addSpent(tx, itemId, finishedMinutes(startedAt, endedAt));
  noteWebhookEvent(tx, {
    kind: 'child',
    child: 'time_entries',
    type: 'time_entry.created',
    actor,
    itemId,
    childId: inserted!.id,
  });
  const created = await entryById(tx, inserted!.id);
  return { status: 201, body: timeEntryJson(created!), formerViewers: await changed(tx, itemId) };
}

/**
 * Stops a running entry (X3): at `at`, within 24 h of its start and before the actor's next entry;
 * an entry already ended (stopped on another device, or ended by a later start) stays as it is.
 */
export async function stopTimeEntry(
  tx: Executor,
  actor: UserRow,
  ref: EntryRef,
  at: string | null | undefined,
): Promise<WriteResult> {
  await lockPerson(tx, actor.id);
  const { entry, item } = await visibleEntry(tx, actor, ref);
  const id = entry.id;
  if (entry.user_id !== actor.id) throw new HttpError(403, 'Only its author can stop a timer.');
  if (item.my_role === 'viewer') throw new HttpError(403, VIEWER_READ_ONLY_MESSAGE);
  const span = spanOf(entry);
  const others = await spansAround(tx, actor.id, span.start);
  const end = stopEnd(others, span, at ? Date.parse(at) : Date.now());
  if (end === null) return { status: 200, body: timeEntryJson(entry) };
  await endEntry(tx, id, end);
  return {
    status: 200,
    body: timeEntryJson((await entryById(tx, id))!),
    formerViewers: await changed(tx, item.id),
  };
}

/** Edits an entry's start, end or note (its author; X4: the span must stay an entry and overlap none). */
export async function editTimeEntry(
  tx: Executor,
  actor: UserRow,
  ref: EntryRef,
  patch: TimeEntryPatch,
): Promise<WriteResult> {
  await lockPerson(tx, actor.id);
  const { entry, item } = await visibleEntry(tx, actor, ref);
  const id = entry.id;
  if (entry.user_id !== actor.id) throw new HttpError(403, 'Only its author can edit a time entry.');
  if (item.my_role === 'viewer') throw new HttpError(403, VIEWER_READ_ONLY_MESSAGE);
  const before = { started_at: iso(entry.started_at), ended_at: isoOrNull(entry.ended_at) };
  const startedAt = patch.started_at ?? before.started_at;
  const endedAt = patch.ended_at === undefined ? before.ended_at : patch.ended_at;
  const problem = entryProblem(startedAt, endedAt);
  if (problem) throw unprocessable(problem);
  const span: Span = {
    uuid: entry.uuid,
    start: Date.parse(startedAt),
    end: endedAt === null ? null : Date.parse(endedAt),
  };
  const others = await spansAround(tx, actor.id, span.start);
  // A running entry may only be the person's last; a finished one may not overlap any.
  const laterStart = span.end === null && others.some((o) => o.uuid !== span.uuid && o.start >= span.start);
  if (laterStart || overlapsAny(others, span))
    throw unprocessable({ started_at: [TIME_ENTRY_OVERLAP_MESSAGE] });
  await tx.execute(
    sql`UPDATE time_entries SET started_at = ${startedAt}::timestamptz, ended_at = ${endedAt}::timestamptz,
          note = ${patch.note ?? entry.note}, updated_at = now(), change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id}`,
  );
  await addSpent(
    tx,
    item.id,
    finishedMinutes(startedAt, endedAt) - finishedMinutes(before.started_at, before.ended_at),
  );
  return {
    status: 200,
    body: timeEntryJson((await entryById(tx, id))!),
    formerViewers: await changed(tx, item.id),
  };
}

/** Deletes an entry (its author, or the campaign's owner); a tombstone stays for sync (X5). */
export async function deleteTimeEntry(tx: Executor, actor: UserRow, ref: EntryRef): Promise<WriteResult> {
  const { entry, item } = await visibleEntry(tx, actor, ref);
  const id = entry.id;
  if (entry.user_id !== actor.id && item.my_role !== 'owner')
    throw new HttpError(403, 'Only its author or the campaign’s owner can delete a time entry.');
  const deleted = await rows<{ id: number }>(
    tx,
    sql`UPDATE time_entries SET deleted_at = now(), updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${id} AND deleted_at IS NULL RETURNING id`,
  );
  if (deleted.length > 0) {
    await addSpent(tx, item.id, -finishedMinutes(iso(entry.started_at), isoOrNull(entry.ended_at)));
  }
  return { status: 204, body: null, formerViewers: await changed(tx, item.id) };
}

/** An item's live entries, newest first, one page; the caller has checked that the reader sees the item. */
export async function listItemTimeEntries(
  db: Executor,
  itemId: number,
  page: number,
  perPage: number,
): Promise<{ data: TimeEntry[]; total: number }> {
  const [counted, found] = await Promise.all([
    rows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM time_entries WHERE item_id = ${itemId} AND deleted_at IS NULL`,
    ),
    rows<TimeEntryRow>(
      db,
      sql`SELECT ${TIME_ENTRY_SELECT} WHERE t.item_id = ${itemId} AND t.deleted_at IS NULL
          ORDER BY t.started_at DESC, t.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
    ),
  ]);
  return { data: found.map(timeEntryJson), total: counted[0]?.total ?? 0 };
}

/** A report line: the entry with its item's title, and its campaign's and task's where the reader sees them. */
export interface ReportRow extends TimeEntryRow {
  item_title: string;
  campaign_title: string | null;
  task_title: string | null;
}

/**
 * The finished and running entries on items the reader sees, by the report's filters (`from`/`to`
 * are UTC days, both included), newest first; `limit` null for all of them (the CSV).
 */
export async function reportRows(
  db: Executor,
  readerId: number,
  filters: { from?: string; to?: string; campaign_id?: number; user_id?: number },
  page: { limit: number; offset: number } | null,
): Promise<{ rows: ReportRow[]; total: number }> {
  const conditions = [sql`t.deleted_at IS NULL`, sql`i.deleted_at IS NULL`, visibleToReader(readerId)];
  if (filters.from) conditions.push(sql`t.started_at >= ${`${filters.from}T00:00:00Z`}::timestamptz`);
  if (filters.to)
    conditions.push(sql`t.started_at < (${`${filters.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
  if (filters.user_id !== undefined) conditions.push(sql`t.user_id = ${filters.user_id}`);
  if (filters.campaign_id !== undefined)
    conditions.push(sql`COALESCE(g.id, p.id, i.id) = ${filters.campaign_id}`);
  const where = sql.join(conditions, sql` AND `);
  const from = sql`FROM time_entries t JOIN users u ON u.id = t.user_id JOIN items i ON i.id = t.item_id
    LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id`;
  const [counted, found] = await Promise.all([
    rows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${from} WHERE ${where}`),
    rows<ReportRow>(
      db,
      sql`SELECT t.id, t.uuid, t.item_id, t.user_id, u.name AS user_name, t.started_at, t.ended_at, t.note,
            t.created_at, t.updated_at, t.deleted_at, i.title AS item_title,
            CASE WHEN COALESCE(g.type, p.type, i.type) = 'campaign' AND ${seesAncestor(readerId, sql`COALESCE(g.id, p.id, i.id)`)}
              THEN COALESCE(g.title, p.title, i.title) END AS campaign_title,
            CASE WHEN i.type = 'task' THEN i.title
              WHEN p.type = 'task' AND ${seesAncestor(readerId, sql`p.id`)} THEN p.title END AS task_title
          ${from} WHERE ${where} ORDER BY t.started_at DESC, t.id DESC
          ${page ? sql`LIMIT ${page.limit} OFFSET ${page.offset}` : sql``}`,
    ),
  ]);
  return { rows: found, total: counted[0]?.total ?? 0 };
}

const visibleToReader = (readerId: number) => visibleTo(readerId);

/**
 * Whether the reader sees `ancestor`, the entry's item i itself or its task or campaign (aliases p,
 * g of reportRows): its creator or assignee, or theirs of the campaign above it, or a member of that
 * campaign. Someone assigned one todo sees it, not the task and campaign it lies in, whose titles
 * the report then leaves out, as an item's parent summary does.
 */
function seesAncestor(readerId: number, ancestor: SQL): SQL {
  return sql`(${ancestor} = i.id OR EXISTS (SELECT 1 FROM items sa LEFT JOIN items sg ON sg.id = sa.parent_id
    WHERE sa.id = ${ancestor} AND (sa.user_id = ${readerId} OR sa.assigned_to = ${readerId}
      OR sg.user_id = ${readerId} OR sg.assigned_to = ${readerId}
      OR EXISTS (SELECT 1 FROM campaign_members sm WHERE sm.user_id = ${readerId}
        AND sm.campaign_id = COALESCE(sg.id, sa.id)))))`;
}
