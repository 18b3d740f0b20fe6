import type { SQL } from 'drizzle-orm';
import type { ItemStatus, ItemType } from '../../shared/item';
import type { Role } from '../../shared/membership';
import {
  EMPTY_KEPT,
  type MergeState,
  type VtodoFields,
  type VtodoKept,
  vtodoEtag,
  vtodoFieldsOf,
  writeVtodo,
} from '../../shared/vtodo';
import { type Executor, rows, sql } from '../db/client';
import { iso, isoOrNull } from '../http/serialize';
import { visibleTo } from '../items/queries';

/**
 * What /dav/ reads (ARCHITECTURE §4 'CalDAV', SYNC.md V): a person's calendars (one per campaign they
 * see, and 'Outpost' for the rest), the tasks and todos in each as VTODOs, and what changed since a
 * sync token. Every read goes through `visibleTo`, the rule every other read uses.
 */

/** The calendar of the items outside every campaign the person sees. */
export const OUTPOST_CALENDAR = 'outpost';

/** A calendar collection: 'Outpost', or a campaign the person sees. */
export interface Calendar {
  /** Its path segment: `outpost` or `campaign-{id}`. */
  key: string;
  campaignId: number | null;
  name: string;
  /** The person's role in the campaign (null: no campaign rules apply). */
  role: Role | null;
}

/** A segment that names a calendar, or null. */
export function calendarKeyOf(segment: string): { campaignId: number | null } | null {
  if (segment === OUTPOST_CALENDAR) return { campaignId: null };
  const match = /^campaign-([1-9]\d{0,9})$/.exec(segment);
  if (!match || Number(match[1]) > 2_147_483_647) return null;
  return { campaignId: Number(match[1]) };
}

/** The person's calendars: 'Outpost' first, then every live campaign they see, by title. */
export async function listCalendars(db: Executor, userId: number): Promise<Calendar[]> {
  const found = await rows<{ id: number; title: string; role: Role | null }>(
    db,
    sql`SELECT i.id, i.title,
          CASE WHEN i.user_id = ${userId} THEN 'owner'
            ELSE (SELECT m.role FROM campaign_members m WHERE m.campaign_id = i.id AND m.user_id = ${userId}) END AS role
        FROM items i
        WHERE i.type = 'campaign' AND i.deleted_at IS NULL AND ${visibleTo(userId)}
        ORDER BY lower(i.title), i.id`,
  );
  return [
    { key: OUTPOST_CALENDAR, campaignId: null, name: 'Outpost', role: null },
    ...found.map((c) => ({ key: `campaign-${c.id}`, campaignId: c.id, name: c.title, role: c.role })),
  ];
}

/** One calendar of the person's, or null when they see no such campaign. */
export async function findCalendar(db: Executor, userId: number, segment: string): Promise<Calendar | null> {
  const key = calendarKeyOf(segment);
  if (key === null) return null;
  if (key.campaignId === null)
    return { key: OUTPOST_CALENDAR, campaignId: null, name: 'Outpost', role: null };
  const [found] = await rows<{ id: number; title: string; role: Role | null }>(
    db,
    sql`SELECT i.id, i.title,
          CASE WHEN i.user_id = ${userId} THEN 'owner'
            ELSE (SELECT m.role FROM campaign_members m WHERE m.campaign_id = i.id AND m.user_id = ${userId}) END AS role
        FROM items i
        WHERE i.id = ${key.campaignId} AND i.type = 'campaign' AND i.deleted_at IS NULL AND ${visibleTo(userId)}`,
  );
  return found
    ? { key: `campaign-${found.id}`, campaignId: found.id, name: found.title, role: found.role }
    : null;
}

/** An item as a VTODO reads it, with where it lies and what a calendar app wrote of it. */
export interface TodoRow {
  id: number;
  uuid: string | null;
  type: ItemType;
  title: string;
  description: string | null;
  start_date: string | null;
  due_date: string | null;
  priority: number;
  status: ItemStatus;
  labels: string[];
  recurrence: string | null;
  time_zone: string;
  version: number;
  user_id: number;
  parent_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
  deleted_at: Date | string | null;
  /** The top-level item above it (itself at the top). */
  root: number;
  root_type: ItemType;
  /** The parent's uuid when the parent is a task the person sees (a VTODO of the same calendar). */
  parent_uid: string | null;
  co_uid: string | null;
  co_name: string | null;
  co_kept: VtodoKept | null;
}

/**
 * The columns of TodoRow for item i (with its parent p and grandparent g). The parent's UID is the
 * custom UID a calendar app gave it, else its uuid; it is there only when the parent is a task the
 * person sees (in a campaign's calendar every item's task is seen: the campaign is).
 */
const todoColumns = (userId: number) => sql`
  i.id, i.uuid, i.type, i.title, i.description, i.start_date::text AS start_date, i.due_date::text AS due_date,
  i.priority, i.status, i.labels, i.recurrence, i.time_zone, i.version, i.user_id, i.parent_id,
  i.created_at, i.updated_at, i.completed_at, i.deleted_at,
  COALESCE(g.id, p.id, i.id) AS root, COALESCE(g.type, p.type, i.type) AS root_type,
  CASE WHEN p.type = 'task' AND p.deleted_at IS NULL
    AND (SELECT ${visibleTo(userId)} FROM items i WHERE i.id = p.id)
    THEN COALESCE(pco.uid, p.uuid::text) END AS parent_uid,
  co.uid AS co_uid, co.name AS co_name, co.kept AS co_kept`;

const todoFrom = sql`FROM items i
  LEFT JOIN items p ON p.id = i.parent_id
  LEFT JOIN items g ON g.id = p.parent_id
  LEFT JOIN caldav_objects co ON co.item_id = i.id
  LEFT JOIN caldav_objects pco ON pco.item_id = p.id`;

/**
 * Whether item i lies in the calendar: under its campaign, or (Outpost) under no campaign the person
 * sees (`campaigns`, the ids of those they see).
 */
function inCalendar(calendar: Calendar, campaigns: readonly number[]): SQL {
  if (calendar.campaignId !== null)
    return sql`(i.parent_id = ${calendar.campaignId} OR p.parent_id = ${calendar.campaignId})`;
  return sql`NOT (COALESCE(g.id, p.id, i.id) = ANY(${`{${campaigns.join(',')}}`}::int[]))`;
}

/** The ids of the campaigns the person sees (the calendars besides Outpost). */
export async function seenCampaigns(db: Executor, userId: number): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT i.id FROM items i WHERE i.type = 'campaign' AND i.deleted_at IS NULL AND ${visibleTo(userId)}`,
  );
  return found.map((r) => r.id);
}

const campaignsFor = async (db: Executor, userId: number, calendar: Calendar) =>
  calendar.campaignId === null ? await seenCampaigns(db, userId) : [];

/** Every live task and todo of the calendar the person sees, oldest first. */
export async function listTodos(db: Executor, userId: number, calendar: Calendar): Promise<TodoRow[]> {
  const campaigns = await campaignsFor(db, userId, calendar);
  return rows<TodoRow>(
    db,
    sql`SELECT ${todoColumns(userId)} ${todoFrom}
        WHERE i.deleted_at IS NULL AND i.type <> 'campaign' AND ${inCalendar(calendar, campaigns)} AND ${visibleTo(userId)}
        ORDER BY i.id`,
  );
}

const UUID_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.ics$/i;

/**
 * The live task or todo a resource name names in the calendar, as the person sees it: the name a
 * calendar app PUT it under, else `{uuid}.ics`. Of two items with one uuid (two owners), the oldest.
 */
export async function findTodoByName(
  db: Executor,
  userId: number,
  calendar: Calendar,
  name: string,
): Promise<TodoRow | null> {
  const campaigns = await campaignsFor(db, userId, calendar);
  const uuid = UUID_NAME.exec(name)?.[1]?.toLowerCase() ?? null;
  const named =
    uuid === null
      ? sql`co.name = ${name}`
      : sql`(co.name = ${name} OR (i.uuid = ${uuid}::uuid AND (co.name IS NULL OR co.name = ${name})))`;
  const [found] = await rows<TodoRow>(
    db,
    sql`SELECT ${todoColumns(userId)} ${todoFrom}
        WHERE ${named} AND i.deleted_at IS NULL AND i.type <> 'campaign'
          AND ${inCalendar(calendar, campaigns)} AND ${visibleTo(userId)}
        ORDER BY i.id LIMIT 1`,
  );
  return found ?? null;
}

/**
 * A live task the person sees in the calendar by its UID (a RELATED-TO's parent): the custom UID a
 * calendar app gave it, else its uuid. Null when there is none.
 */
export async function findTaskByUid(
  db: Executor,
  userId: number,
  calendar: Calendar,
  uid: string,
  uuid: string,
): Promise<TodoRow | null> {
  const campaigns = await campaignsFor(db, userId, calendar);
  const [found] = await rows<TodoRow>(
    db,
    sql`SELECT ${todoColumns(userId)} ${todoFrom}
        WHERE (co.uid = ${uid} OR (co.uid IS NULL AND i.uuid = ${uuid}::uuid)) AND i.deleted_at IS NULL
          AND i.type <> 'campaign' AND ${inCalendar(calendar, campaigns)} AND ${visibleTo(userId)}
        ORDER BY i.id LIMIT 1`,
  );
  return found ?? null;
}

/** Whether the person already has an item with this uuid (live or in their trash), anywhere. */
export async function uuidTaken(db: Executor, userId: number, uuid: string): Promise<boolean> {
  const [found] = await rows<{ id: number }>(
    db,
    sql`SELECT i.id FROM items i WHERE i.uuid = ${uuid}::uuid AND (i.user_id = ${userId} OR ${visibleTo(userId)}) LIMIT 1`,
  );
  return found !== undefined;
}

/** The database's sync horizon: every transaction below it has finished (sync/cursor.ts). */
export async function syncHorizon(db: Executor): Promise<bigint> {
  const [found] = await rows<{ xmin: string | number }>(
    db,
    sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
  );
  return BigInt(found?.xmin ?? 0);
}

/** A change since a sync token: a VTODO of the calendar, or a resource name that is gone from it. */
export type SyncChange = { kind: 'todo'; row: TodoRow } | { kind: 'gone'; name: string };

/**
 * What changed in the calendar since `from` (V6): every task and todo the person sees there that was
 * written since (change_xid at or after the token's horizon), and, as gone, every item they saw that
 * was written since and is not in the calendar now: deleted, moved to another calendar, or out of their
 * sight (an item_revocations row). A tree granted since (a membership) counts as written: its items
 * leave 'Outpost' for the campaign's calendar. Someone else's item the person never saw is never named.
 */
export async function changesSince(
  db: Executor,
  userId: number,
  calendar: Calendar,
  from: bigint,
): Promise<SyncChange[]> {
  const campaigns = await campaignsFor(db, userId, calendar);
  const since = from.toString();
  const written = await rows<TodoRow & { here: boolean; seen: boolean }>(
    db,
    sql`SELECT ${todoColumns(userId)},
          (i.deleted_at IS NULL AND ${inCalendar(calendar, campaigns)}) AS here, ${visibleTo(userId)} AS seen
        ${todoFrom}
        WHERE i.type <> 'campaign' AND i.id IN (
          SELECT x.id FROM items x WHERE x.change_xid >= ${since}::bigint
          UNION SELECT x.id FROM campaign_members m JOIN items x ON x.parent_id = m.campaign_id
            WHERE m.user_id = ${userId} AND m.change_xid >= ${since}::bigint
          UNION SELECT x.id FROM campaign_members m JOIN items xp ON xp.parent_id = m.campaign_id
            JOIN items x ON x.parent_id = xp.id
            WHERE m.user_id = ${userId} AND m.change_xid >= ${since}::bigint)
        ORDER BY i.id`,
  );
  const revoked = await rows<{ id: number; uuid: string | null; name: string | null }>(
    db,
    sql`SELECT i.id, i.uuid, co.name FROM item_revocations v JOIN items i ON i.id = v.item_id
        LEFT JOIN caldav_objects co ON co.item_id = i.id
        WHERE v.user_id = ${userId} AND v.change_xid >= ${since}::bigint AND i.type <> 'campaign'`,
  );
  const changes: SyncChange[] = [];
  const named = new Set<number>();
  for (const row of written) {
    if (!row.seen) continue;
    named.add(row.id);
    changes.push(row.here ? { kind: 'todo', row } : { kind: 'gone', name: resourceName(row) });
  }
  for (const row of revoked) {
    if (named.has(row.id) || row.uuid === null) continue;
    named.add(row.id);
    changes.push({ kind: 'gone', name: row.name ?? `${row.uuid}.ics` });
  }
  return changes;
}

/** The name of an item's resource in its calendar: the one a calendar app PUT it under, else `{uuid}.ics`. */
export const resourceName = (row: Pick<TodoRow, 'uuid' | 'co_name' | 'id'>): string =>
  row.co_name ?? `${row.uuid ?? `item-${row.id}`}.ics`;

/** The kept lines of a row (none when a calendar app never wrote it). */
export const keptOf = (row: Pick<TodoRow, 'co_kept'>): VtodoKept => ({
  ...EMPTY_KEPT,
  ...(row.co_kept ?? {}),
});

/** The VTODO fields of a row, as the mapping shows them (shared/vtodo.ts vtodoFieldsOf). */
export const fieldsOf = (row: TodoRow): VtodoFields =>
  vtodoFieldsOf({ ...row, labels: row.labels ?? [] }, row.parent_uid, row.co_uid);

/** What a PUT's merge compares for a row. */
export function mergeStateOf(row: TodoRow): MergeState {
  const { uid: _uid, ...fields } = fieldsOf(row);
  return { ...fields, kept: keptOf(row) };
}

/** A row's strong ETag (V3). */
export const etagOf = (row: TodoRow): string => vtodoEtag(row.version, mergeStateOf(row));

/** A row's VCALENDAR text. */
export const calendarDataOf = (row: TodoRow): string =>
  writeVtodo(fieldsOf(row), keptOf(row), {
    created: iso(row.created_at),
    updated: iso(row.updated_at),
    completed: isoOrNull(row.completed_at),
  });

/** Writes what a calendar app said of an item beyond its fields (the caldav_objects row), in the write's transaction. */
export async function saveObject(
  tx: Executor,
  itemId: number,
  object: { uid: string | null; name: string | null; kept: VtodoKept },
): Promise<void> {
  await tx.execute(
    sql`INSERT INTO caldav_objects (item_id, uid, name, kept)
        VALUES (${itemId}, ${object.uid}, ${object.name}, ${JSON.stringify(object.kept)}::jsonb)
        ON CONFLICT (item_id) DO UPDATE SET uid = EXCLUDED.uid, name = EXCLUDED.name, kept = EXCLUDED.kept`,
  );
}

/**
 * Moves an item's version and sync position when only its kept lines changed (no item field did), so
 * its ETag and every calendar's next sync see the change.
 */
export async function touchItem(tx: Executor, itemId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE items SET version = version + 1, updated_at = now(),
          change_xid = pg_current_xact_id()::text::bigint WHERE id = ${itemId}`,
  );
}
