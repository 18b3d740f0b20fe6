import type { SQL } from 'drizzle-orm';
import type { Item, ItemStatus, ItemType } from '../../shared/item';
import { ITEM_FIELD_NAMES, ITEM_FIELDS, type ItemFieldName } from '../../shared/itemFields';
import type { Role } from '../../shared/membership';
import { textArrayLiteral } from '../../shared/planning';
import { SAMPLE_USERS } from '../auth/users';
import { type Executor, prepared, rows, sql } from '../db/client';
import { iso, isoOrNull } from '../http/serialize';

/**
 * The declared fields (shared/itemFields.ts) after the row's head (id, uuid, title, description, type,
 * status, user_id, assigned_to, parent_id), which the lists below write out: their place in the API's
 * item is after the head, in declaration order.
 */
const HEAD: readonly ItemFieldName[] = ['title', 'description', 'status', 'assigned_to', 'parent_id'];
type TailField = Exclude<ItemFieldName, 'title' | 'description' | 'status' | 'assigned_to' | 'parent_id'>;
const TAIL = ITEM_FIELD_NAMES.filter((f): f is TailField => !HEAD.includes(f));

/** The tail's columns of the row `alias` (`i.`, or '' for the table itself), as itemJson reads them. */
const tailColumns = (alias: string) =>
  TAIL.map((f) => (ITEM_FIELDS[f].column === 'date' ? `${alias}${f}::text AS ${f}` : `${alias}${f}`)).join(
    ', ',
  );

/** The tail's keys and values of the row r in SQL, as ITEM_JSON builds them. */
const tailJsonFields = (): JsonFields =>
  TAIL.map((f) => [f, ITEM_FIELDS[f].column === 'instant' ? isoOf(f) : `r.${f}`]);

/** These declared fields of the API's item from a row (an instant as its ISO text). */
export function fieldsJson<F extends ItemFieldName>(
  r: Pick<ItemRow, F>,
  fields: readonly F[],
): Pick<Item, F> {
  const out: Record<string, unknown> = {};
  for (const f of fields)
    out[f] = ITEM_FIELDS[f].column === 'instant' ? isoOrNull(r[f] as Date | string | null) : r[f];
  return out as Pick<Item, F>;
}

/** Every declared field's column of the row `alias` (`i.`, or ''), as fieldsJson reads them. */
export const declaredColumns = (alias: string): SQL =>
  sql.raw(
    ITEM_FIELD_NAMES.map((f) =>
      ITEM_FIELDS[f].column === 'date' ? `${alias}${f}::text AS ${f}` : `${alias}${f}`,
    ).join(', '),
  );

/** The declared fields' columns an insert writes, in declaration order (with insertedValues). */
export const DECLARED_COLUMNS = sql.raw(ITEM_FIELD_NAMES.join(', '));

/**
 * The declared fields' values an insert writes, in declaration order: what the writer decided
 * (`decided`), else what the create gives, else the field's default; a label list as a PostgreSQL
 * array literal (textArrayLiteral: the builder would spread a JS array).
 */
export function insertedValues(
  input: Partial<Record<ItemFieldName, unknown>>,
  decided: Partial<Record<ItemFieldName, unknown>>,
): unknown[] {
  return ITEM_FIELD_NAMES.map((field) => {
    const value = field in decided ? decided[field] : (input[field] ?? ITEM_FIELDS[field].default);
    return ITEM_FIELDS[field].column === 'textArray' ? textArrayLiteral(value as readonly string[]) : value;
  });
}

/** insertedValues as the VALUES of DECLARED_COLUMNS (a label list cast to text[]). */
export const declaredValuesSql = (values: readonly unknown[]): SQL =>
  sql.join(
    values.map((value, i) =>
      ITEM_FIELDS[ITEM_FIELD_NAMES[i] as ItemFieldName].column === 'textArray'
        ? sql`${value}::text[]`
        : sql`${value}`,
    ),
    sql`, `,
  );

const SAMPLE_PHONES = sql.join(
  SAMPLE_USERS.map((s) => sql`${s.phone}`),
  sql`, `,
);

/**
 * The phone of the user row `alias` as `viewerId` may see it: their own, a sample user's, or one the
 * viewer already has in their contacts; '' otherwise, so an item never hands out a stranger's phone.
 */
export function phoneFor(alias: 'u' | 'a', viewerId: number): SQL {
  const user = sql.raw(alias);
  return sql`CASE WHEN ${user}.id = ${viewerId}
      OR (${user}.id <= ${SAMPLE_USERS.length} AND ${user}.phone IN (${SAMPLE_PHONES}))
      OR EXISTS (SELECT 1 FROM contacts k WHERE k.user_id = ${viewerId} AND k.contact_phone = ${user}.phone)
    THEN COALESCE(${user}.phone, '') ELSE '' END`;
}

/**
 * X14: `estimate_total_minutes` of item i (a task or a campaign; null for a todo): its own estimate,
 * else the sum of its live children's, each its own else the sum of its live children's (the
 * hierarchy is at most three deep); null when none has one. SUM skips nulls and is null over none,
 * as rollupEstimates (shared/timeRollup.ts) counts, which the tests hold it to. A todo holds nothing
 * (shared/hierarchy.ts), so a todo child's own children are not looked up: a task's total read one
 * index range per todo for nothing, and on the embedded engine's disk each asked a file's size (a
 * sync page of 500 tasks: 2,000 such calls, 1,300 of them for the todos).
 */
const ESTIMATE_TOTAL = sql.raw(`CASE WHEN i.type <> 'todo' THEN COALESCE(i.estimate_minutes,
    (SELECT sum(COALESCE(ec.estimate_minutes, CASE WHEN ec.type <> 'todo' THEN
        (SELECT sum(ed.estimate_minutes) FROM items ed WHERE ed.parent_id = ec.id AND ed.deleted_at IS NULL) END))::int
      FROM items ec WHERE ec.parent_id = i.id AND ec.deleted_at IS NULL)) END`);

/**
 * The columns of an item row as `viewerId` may see it, with creator, assignee, parent and child
 * counts. The parent summary is there only when the viewer sees the parent: the creator or assignee
 * of the parent or of its parent (the hierarchy is at most three deep).
 */
function itemSelect(viewerId: number): SQL {
  const parentVisible = sql`(p.user_id = ${viewerId} OR p.assigned_to = ${viewerId}
    OR g.user_id = ${viewerId} OR g.assigned_to = ${viewerId}
    OR EXISTS (SELECT 1 FROM campaign_members pm WHERE pm.user_id = ${viewerId} AND pm.campaign_id = COALESCE(g.id, p.id)))`;
  return sql`
  i.id, i.uuid, i.title, i.description, i.type, i.status, i.user_id, i.assigned_to, i.parent_id,
  ${sql.raw(tailColumns('i.'))}, i.created_at, i.updated_at,
  i.comments_count, i.spent_minutes, ${ESTIMATE_TOTAL} AS estimate_total_minutes,
  i.completed_at, i.deleted_at, i.version,
  u.name AS u_name, ${phoneFor('u', viewerId)} AS u_phone, u.created_at AS u_created_at, u.updated_at AS u_updated_at,
  a.name AS a_name, ${phoneFor('a', viewerId)} AS a_phone, a.created_at AS a_created_at, a.updated_at AS a_updated_at,
  CASE WHEN ${parentVisible} THEN p.title END AS p_title, p.type AS p_type, p.status AS p_status,
  p.parent_id AS p_parent_id,
  cc.children_count, cc.completed_count,
  ${myRole(viewerId)} AS my_role,
  CASE WHEN i.type = 'campaign'
    THEN 1 + (SELECT count(*)::int FROM campaign_members mc WHERE mc.campaign_id = i.id) END AS members_count`;
}

/**
 * The viewer's role in the campaign at the top of item i (aliases of ITEM_FROM): `owner` when they
 * created that campaign, their member row's role, else null (ARCHITECTURE §4 `my_role`).
 */
function myRole(viewerId: number): SQL {
  return sql`CASE WHEN COALESCE(g.type, p.type, i.type) = 'campaign'
      AND COALESCE(g.user_id, p.user_id, i.user_id) = ${viewerId} THEN 'owner'
    ELSE (SELECT mr.role FROM campaign_members mr
          WHERE mr.user_id = ${viewerId} AND mr.campaign_id = COALESCE(g.id, p.id, i.id)) END`;
}

/** The item i with its parent p and grandparent g (the hierarchy is at most three deep). */
export const ITEM_FROM = sql`
  FROM items i
  LEFT JOIN items p ON p.id = i.parent_id
  LEFT JOIN items g ON g.id = p.parent_id`;

const DETAIL_JOINS = sql`
  JOIN users u ON u.id = i.user_id
  LEFT JOIN users a ON a.id = i.assigned_to
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS children_count,
           (count(*) FILTER (WHERE c.status = 'completed'))::int AS completed_count
    FROM items c WHERE c.parent_id = i.id AND c.deleted_at IS NULL
  ) cc ON true`;

/**
 * A user as the visibility rule takes them: an id, or a column of the statement (`sql\`v.id\``), so a
 * recipient list tests many people against one item by the very rule a read uses (seersAmong).
 */
export type UserRef = number | SQL;

/**
 * Whether `userId` was removed from (or left) the campaign `campaignId`: the departure term of
 * visibleTo, for the change bus's set form of it (M10).
 */
export function departedFrom(userId: UserRef, campaignId: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM campaign_departures dx WHERE dx.user_id = ${userId} AND dx.campaign_id = ${campaignId})`;
}

/**
 * Whether the top of item i (i itself, its parent or its grandparent) is a campaign `userId` has a row
 * of `table` for: a member's, or a departure's. As sets the planner hashes once per statement (the
 * user's campaigns and their children), not a look-up per row: a member's first sync of a
 * 10,000-item campaign checked every row of the table that way, twice the owner's cost (bench
 * shared-scale), and the departure check's per-row scan of its (nearly always empty) table cost
 * each row of a sync page a file-size call on the embedded engine's disk (its rescan asks for one).
 * COALESCE keeps it false, never null, for a top-level row (`parent_id IN` of a null).
 */
function topOfIn(table: 'campaign_members' | 'campaign_departures', userId: UserRef): SQL {
  const t = sql.raw(table);
  const campaigns = sql`SELECT vc.campaign_id FROM ${t} vc WHERE vc.user_id = ${userId}`;
  return sql`COALESCE(i.id IN (${campaigns}) OR i.parent_id IN (${campaigns})
    OR i.parent_id IN (SELECT vt.id FROM ${t} vc JOIN items vt ON vt.parent_id = vc.campaign_id
      WHERE vc.user_id = ${userId}), false)`;
}

/**
 * Who sees what (§5): the creator, the assignee, and whoever sees an ancestor, unless they were
 * removed from (or left) the shared campaign it lies in (M4); and every member of that campaign
 * (M1). Only needs the alias i. The ancestors are looked up in a sub-query rather than through
 * ITEM_FROM's joins: OR stops at the first true term, so the common case (the caller's own items)
 * never touches the parent rows, and a count over thousands of items no longer hashes the whole
 * table twice (about 6x faster at 10k). The departure check costs the own-items case three probes
 * of sets that are empty for nearly everyone; the membership check comes last, after every cheaper
 * term has failed (both topOfIn). `userId` may be a column, to ask for many people in one statement
 * (a comment's recipients, K23).
 */
export function visibleTo(userId: UserRef): SQL {
  return sql`(((i.user_id = ${userId} OR i.assigned_to = ${userId}
    OR EXISTS (SELECT 1 FROM items vp LEFT JOIN items vg ON vg.id = vp.parent_id
      WHERE vp.id = i.parent_id AND (vp.user_id = ${userId} OR vp.assigned_to = ${userId}
        OR vg.user_id = ${userId} OR vg.assigned_to = ${userId})))
    AND NOT ${topOfIn('campaign_departures', userId)})
    OR ${topOfIn('campaign_members', userId)})`;
}

/**
 * Of `candidates`, the people who see item `itemId` (live or deleted) by visibleTo, in one statement:
 * the one filter every list of people told about an item goes through (notifications of every kind,
 * reminders, change events, the @ picker), so a departure hides the tree from them as it does from
 * reads (SYNC.md M10).
 */
export async function seersAmong(
  db: Executor,
  itemId: number,
  candidates: readonly number[],
  /** Judge the item as if assigned to this person: who saw it just before an unassignment. */
  asAssignedTo?: number,
): Promise<number[]> {
  const ids = [...new Set(candidates)];
  if (ids.length === 0) return [];
  // visibleTo reads only i's id, creator, assignee and parent.
  const item =
    asAssignedTo === undefined
      ? sql`items i`
      : sql`(SELECT it.id, it.user_id, it.parent_id, ${asAssignedTo}::int AS assigned_to FROM items it) i`;
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT v.id FROM unnest(${`{${ids.join(',')}}`}::int[]) AS v(id)
        JOIN ${item} ON i.id = ${itemId}
        WHERE ${visibleTo(sql`v.id`)}`,
  );
  return found.map((r) => r.id);
}

/** An item row's own columns as itemJson reads them, for `RETURNING` after a write. */
export const ITEM_COLUMNS =
  sql.raw(`id, uuid, title, description, type, status, user_id, assigned_to, parent_id,
  ${tailColumns('')}, comments_count, spent_minutes, created_at, updated_at, completed_at, deleted_at, version`);

/** An item row with its creator, assignee, parent summary and child counts, as itemSelect reads it. */
/** The tail's columns as the driver gives them: an instant as a Date (or its text), every other as the API has it. */
type TailRow = {
  [F in TailField]-?: (typeof ITEM_FIELDS)[F]['column'] extends 'instant'
    ? Date | string | null
    : Exclude<Item[F], undefined>;
};

export interface ItemRow extends TailRow {
  id: number;
  uuid: string | null;
  title: string;
  description: string | null;
  type: ItemType;
  status: ItemStatus;
  user_id: number;
  assigned_to: number | null;
  parent_id: number | null;
  /** Absent where a write's answer is built without reading it (a new item has none). */
  comments_count?: number;
  /** Absent where a write's answer is built without reading it (a new item has none). */
  spent_minutes?: number;
  /** X14, read by itemSelect; absent where a write's answer is built without reading it (a new item's is its own estimate). */
  estimate_total_minutes?: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
  deleted_at: Date | string | null;
  version: number;
  u_name: string;
  u_phone: string;
  u_created_at: Date | string;
  u_updated_at: Date | string;
  a_name: string | null;
  a_phone: string | null;
  a_created_at: Date | string | null;
  a_updated_at: Date | string | null;
  p_title: string | null;
  p_type: ItemType | null;
  p_status: ItemStatus | null;
  p_parent_id: number | null;
  children_count: number;
  completed_count: number;
  my_role?: Role | null;
  members_count?: number | null;
}

/** The API's item from a row with its people, parent summary and counts. */
export function itemJson(r: ItemRow): Item {
  const creator = {
    id: r.user_id,
    name: r.u_name,
    phone: r.u_phone,
    created_at: iso(r.u_created_at),
    updated_at: iso(r.u_updated_at),
  };
  return {
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    description: r.description,
    type: r.type,
    status: r.status,
    user_id: r.user_id,
    assigned_to: r.assigned_to,
    parent_id: r.parent_id,
    ...fieldsJson(r, TAIL),
    comments_count: r.comments_count ?? 0,
    spent_minutes: r.spent_minutes ?? 0,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    completed_at: isoOrNull(r.completed_at),
    deleted_at: isoOrNull(r.deleted_at),
    version: r.version,
    created_by: creator,
    user: creator,
    assignedUser:
      r.assigned_to === null || r.a_name === null
        ? null
        : {
            id: r.assigned_to,
            name: r.a_name,
            phone: r.a_phone ?? '',
            created_at: iso(r.a_created_at),
            updated_at: iso(r.a_updated_at),
          },
    parent:
      r.parent_id === null || r.p_title === null
        ? null
        : {
            id: r.parent_id,
            title: r.p_title,
            type: r.p_type!,
            status: r.p_status!,
            parent_id: r.p_parent_id,
          },
    children_count: r.children_count,
    completed_count: r.completed_count,
    my_role: r.my_role ?? null,
    ...(r.type === 'todo'
      ? {}
      : { estimate_total_minutes: r.estimate_total_minutes ?? r.estimate_minutes ?? null }),
    ...(r.type === 'campaign' ? { members_count: r.members_count ?? 1 } : {}),
  };
}

/** Items as `viewerId` sees them, for any filter and order over the aliases i, p and g. */
export async function selectItems(
  db: Executor,
  viewerId: number,
  where: SQL,
  tail: SQL = sql`ORDER BY i.created_at DESC, i.id DESC`,
): Promise<Item[]> {
  const found = await rows<ItemRow>(
    db,
    sql`SELECT ${itemSelect(viewerId)} ${ITEM_FROM} ${DETAIL_JOINS} WHERE ${where} ${tail}`,
  );
  return found.map(itemJson);
}

/** A timestamp column of the row r as iso() writes it: UTC, milliseconds (truncated, as Date parses them), Z. */
const isoOf = (column: string) => `to_char(r.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An object's keys and the SQL of their values, in the order the object has them. */
type JsonFields = readonly (readonly [key: string, value: string])[];

/**
 * The JSON object of `fields`, as row_to_json of one row whose columns they name: compact text, and
 * about a quarter cheaper on PGlite than json_build_object, which also wrote a space on each side of
 * every colon (a 10,000-item bootstrap's pages: 11.4 MB, 21 ms of the server's 30 ms a page).
 */
const jsonObject = (fields: JsonFields): string =>
  `row_to_json((SELECT o FROM (SELECT ${fields.map(([key, value]) => `${value} AS "${key}"`).join(', ')}) o))`;

/** A person of the row r (its u or a columns), as itemJson builds `created_by` and `assignedUser`. */
const personOf = (alias: 'u' | 'a', idColumn: string) =>
  jsonObject([
    ['id', `r.${idColumn}`],
    ['name', `r.${alias}_name`],
    ['phone', alias === 'a' ? "COALESCE(r.a_phone, '')" : 'r.u_phone'],
    ['created_at', isoOf(`${alias}_created_at`)],
    ['updated_at', isoOf(`${alias}_updated_at`)],
  ]);

/**
 * itemJson in SQL: the same keys, values and formats, built by the database from the same row. A page
 * of 500 items then comes back as one JSON value instead of 500 rows of 45 columns, which the
 * embedded engine's protocol reader decoded one field at a time (40% of a first sync's server time).
 * selectItems and this must agree on every item: items/itemJsonSql.test.ts compares them.
 */
const ITEM_JSON_FIELDS: JsonFields = [
  ['id', 'r.id'],
  ['uuid', 'r.uuid'],
  ['title', 'r.title'],
  ['description', 'r.description'],
  ['type', 'r.type'],
  ['status', 'r.status'],
  ['user_id', 'r.user_id'],
  ['assigned_to', 'r.assigned_to'],
  ['parent_id', 'r.parent_id'],
  ...tailJsonFields(),
  ['comments_count', 'COALESCE(r.comments_count, 0)'],
  ['spent_minutes', 'COALESCE(r.spent_minutes, 0)'],
  ['created_at', isoOf('created_at')],
  ['updated_at', isoOf('updated_at')],
  ['completed_at', isoOf('completed_at')],
  ['deleted_at', isoOf('deleted_at')],
  ['version', 'r.version'],
  ['created_by', 'pu.creator'],
  ['user', 'pu.creator'],
  [
    'assignedUser',
    `CASE WHEN r.assigned_to IS NOT NULL AND r.a_name IS NOT NULL THEN ${personOf('a', 'assigned_to')} END`,
  ],
  [
    'parent',
    `CASE WHEN r.parent_id IS NOT NULL AND r.p_title IS NOT NULL THEN ${jsonObject([
      ['id', 'r.parent_id'],
      ['title', 'r.p_title'],
      ['type', 'r.p_type'],
      ['status', 'r.p_status'],
      ['parent_id', 'r.p_parent_id'],
    ])} END`,
  ],
  ['children_count', 'COALESCE(r.children_count, 0)'],
  ['completed_count', 'COALESCE(r.completed_count, 0)'],
  ['my_role', 'r.my_role'],
];
/**
 * The creator's object of the row r, built once for both keys that carry it (`created_by`, `user`):
 * OFFSET 0 keeps the planner from copying the expression into each place it is read.
 */
const CREATOR_JSON = sql.raw(
  `CROSS JOIN LATERAL (SELECT ${personOf('u', 'user_id')} AS creator OFFSET 0) pu`,
);
// Only a task or a campaign has estimate_total_minutes and only a campaign members_count, as in
// itemJson (same keys in the same order).
const ESTIMATE_FIELD = ['estimate_total_minutes', 'r.estimate_total_minutes'] as const;
const ITEM_JSON = sql.raw(`CASE WHEN r.type = 'campaign'
  THEN ${jsonObject([...ITEM_JSON_FIELDS, ESTIMATE_FIELD, ['members_count', 'COALESCE(r.members_count, 1)']])}
  WHEN r.type = 'task' THEN ${jsonObject([...ITEM_JSON_FIELDS, ESTIMATE_FIELD])}
  ELSE ${jsonObject(ITEM_JSON_FIELDS)} END`);

/**
 * DETAIL_JOINS for a known list of items: their children counted in one grouped pass over the list,
 * not one look-up per item (null where none: ITEM_JSON_FIELDS reads it as 0).
 */
const BATCH_JOINS = (list: SQL) => sql`
  JOIN users u ON u.id = i.user_id
  LEFT JOIN users a ON a.id = i.assigned_to
  LEFT JOIN (
    SELECT c.parent_id, count(*)::int AS children_count,
           (count(*) FILTER (WHERE c.status = 'completed'))::int AS completed_count
    FROM items c WHERE c.parent_id = ANY(${list}::int[]) AND c.deleted_at IS NULL GROUP BY c.parent_id
  ) cc ON cc.parent_id = i.id`;

/**
 * The items of `ids` as `viewerId` sees them, exactly as selectItems gives them (any order): for a
 * sync page, whose rows the caller already chose by visibility.
 */
export async function selectItemsByIds(
  db: Executor,
  viewerId: number,
  ids: readonly number[],
): Promise<Item[]> {
  if (ids.length === 0) return [];
  const list = sql`${sql.param([...ids])}`;
  const [found] = await rows<{ items: Item[] | null }>(
    db,
    sql`SELECT json_agg(${ITEM_JSON}) AS items FROM (
          SELECT ${itemSelect(viewerId)} ${ITEM_FROM} ${BATCH_JOINS(list)}
          WHERE i.id = ANY(${list}::int[])) r ${CREATOR_JSON}`,
  );
  return found?.items ?? [];
}

/**
 * A sync page's items as JSON text, in the order of `ids` (ids with no row left out): each item as
 * selectItemsByIds gives it, or, when deleted or when `revokedAt` (ISO, one per id) names when the
 * viewer lost it, the tombstone `{id, uuid, deleted_at}` and nothing else (SYNC.md L4). Text, not
 * rows: the route sends it as it is, without parsing and serialising 500 items again. Each id's place
 * and revocation come from one pass over the lists (unnest WITH ORDINALITY, joined to the item),
 * where array_position per row searched the 500 ids twice for each of the 500 rows: ~14% of the
 * statement on PGlite (alternating, median of 5 runs of 10 pages).
 */
export async function syncItemsJson(
  db: Executor,
  viewerId: number,
  ids: readonly number[],
  revokedAt: readonly (string | null)[],
): Promise<string> {
  if (ids.length === 0) return '[]';
  const list = sql`${sql.param([...ids])}`;
  const [found] = await rows<{ items: string | null }>(
    db,
    sql`SELECT (json_agg(CASE WHEN r.deleted_at IS NULL AND r.revoked IS NULL THEN ${ITEM_JSON}
              ELSE json_build_object('id', r.id, 'uuid', r.uuid,
                'deleted_at', COALESCE(${sql.raw(isoOf('deleted_at'))}, r.revoked)) END
              ORDER BY r.position))::text AS items
        FROM (SELECT ${itemSelect(viewerId)}, l.position, l.revoked
              ${ITEM_FROM}
              JOIN unnest(${list}::int[], ${sql.param([...revokedAt])}::text[])
                WITH ORDINALITY AS l(id, revoked, position) ON l.id = i.id
              ${BATCH_JOINS(list)}) r ${CREATOR_JSON}`,
  );
  return found?.items ?? '[]';
}

// Every write reads its item through one of these two: their text is built once (db/client.ts).
const visibleItemById = prepared(
  (userId: number, id: number) =>
    sql`SELECT ${itemSelect(userId)} ${ITEM_FROM} ${DETAIL_JOINS}
        WHERE i.id = ${id} AND i.deleted_at IS NULL AND ${visibleTo(userId)}`,
);
const itemById = prepared(
  (viewerId: number, id: number) =>
    sql`SELECT ${itemSelect(viewerId)} ${ITEM_FROM} ${DETAIL_JOINS} WHERE i.id = ${id}`,
);

/** One live item the user may see, or null. */
export async function findVisibleItem(db: Executor, userId: number, id: number): Promise<Item | null> {
  const [row] = await rows<ItemRow>(db, visibleItemById(userId, id));
  return row ? itemJson(row) : null;
}

/** Any item by id, deleted or not, as `viewerId` may see its people and parent: for answers after a write. */
export async function findItem(db: Executor, viewerId: number, id: number): Promise<Item | null> {
  const [row] = await rows<ItemRow>(db, itemById(viewerId, id));
  return row ? itemJson(row) : null;
}
