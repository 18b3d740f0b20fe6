import type { SQL } from 'drizzle-orm';
import { SYNC_FIRST_PAGE_SIZE, SYNC_PAGE_SIZE } from '../../shared/item';
import { type ChildTombstone, ITEM_CHILDREN } from '../../shared/itemChildren';
import { SYNC_LISTS, type SyncListName } from '../../shared/syncLists';
import { type Executor, hotStatement, rows, sql } from '../db/client';
import type { ItemChildServer, ItemChildServers } from '../http/itemChildren';
import { iso } from '../http/serialize';
import { syncItemsJson, visibleTo } from '../items/queries';
import { templatesChangedBetween } from '../templates/store';
import { viewsChangedBetween } from '../views/service';
import { type CursorPosition, encodeCursor } from './cursor';

/** What GET /api/sync asks: where to start (the decoded cursor) and whether to count what is left. */
export interface SyncPageQuery {
  from: CursorPosition;
  count?: '1' | undefined;
}

/** One page of changes: the SyncPage body as JSON text, and what the route caches and counts by. */
export interface SyncPageAnswer {
  body: string;
  /** The rows the page sent (before one entry per item was kept). */
  sent: number;
  hasMore: boolean;
  nextCursor: string;
  /** No transaction was in flight at the snapshot: every row below the new cursor has been sent. */
  quiescent: boolean;
}

/** The database's newest transaction id (its snapshot's xmax), for cursors from before a restore. */
export async function snapshotXmax(db: Executor): Promise<bigint> {
  const [found] = await rows<{ xmax: string | number }>(
    db,
    sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`,
  );
  return BigInt(found?.xmax ?? 0);
}

/**
 * One page of changes after `query.from` for `user` (K13, X5, M2, K14, L7): every visible item,
 * tombstone and child of an item (each declared kind: `children` reads their rows) changed after the
 * cursor, read in one hot statement.
 */
export async function syncPage(
  db: Executor,
  user: { id: number },
  query: SyncPageQuery,
  children: ItemChildServers,
): Promise<SyncPageAnswer> {
  const { from, count } = query;
  // One statement, one snapshot: the horizon and the rows below it are read together, and the
  // horizon comes back even when no row does.
  const xid = from.xid.toString();
  // K13, X5: within one transaction id the item rows come first, then each child kind in declaration
  // order (src/shared/itemChildren.ts). From a child's position (`at`, its kind's rank) every item row
  // of its xid has been sent, and every row of the kinds before it.
  const at = from.child ?? 0;
  // A row comparison, not the equivalent OR: it is one range of items_change_idx (change_xid, id)
  // that starts at the cursor, where the OR scanned from the cursor's xid and filtered out every row
  // of it already sent (a bootstrap inside one large transaction read 500 more rows each page).
  const itemsAfter =
    at > 0
      ? sql`i.change_xid > ${xid}::bigint`
      : sql`(i.change_xid, i.id) > (${xid}::bigint, ${from.id}::int)`;
  const revokedAfter =
    at > 0
      ? sql`v.change_xid > ${xid}::bigint`
      : sql`(v.change_xid, v.item_id) > (${xid}::bigint, ${from.id}::int)`;
  // M2: a membership granted (or a role changed) after the cursor sends the campaign's whole live
  // tree at the grant's position, however old its rows' own change_xid: the member never had them.
  const grantedAfter =
    at > 0
      ? sql`m.change_xid > ${xid}::bigint`
      : sql`(m.change_xid > ${xid}::bigint
      OR (m.change_xid = ${xid}::bigint AND t.id > ${from.id}))`;
  /** Rows of the kind of rank `rank` whose position (`column`, then c.id) lies after the cursor. */
  const childAfter = (rank: number, column: SQL) =>
    at > rank
      ? sql`${column} > ${xid}::bigint`
      : at === rank
        ? sql`(${column} > ${xid}::bigint OR (${column} = ${xid}::bigint AND c.id > ${from.id}))`
        : sql`${column} >= ${xid}::bigint`;
  // A pull from the very beginning meets every tree granted before its first page among the item
  // changes: no grant rows below that page's xmin, there and on the pages that follow (cursor.ts).
  const fresh = from.xid === 0n && from.id === 0 && from.since === undefined;
  // Its grant rows would lie at or above the horizon and below it at once: none, so its statement
  // leaves the grant branches (and their counts) out, which halves what the first page plans.
  // L16: a bootstrap's first page is small, so a fresh device stores it and shows its first rows sooner.
  const size = fresh ? SYNC_FIRST_PAGE_SIZE : SYNC_PAGE_SIZE;
  const grantFloor =
    from.since === undefined ? sql`` : sql`AND m.change_xid >= ${from.since.toString()}::bigint`;
  const tree = sql`campaign_members m CROSS JOIN LATERAL (
        SELECT f.id FROM items f WHERE f.id = m.campaign_id AND f.deleted_at IS NULL
        UNION ALL SELECT f.id FROM items f WHERE f.parent_id = m.campaign_id AND f.deleted_at IS NULL
        UNION ALL SELECT f.id FROM items f JOIN items fp ON fp.id = f.parent_id
          WHERE fp.parent_id = m.campaign_id AND f.deleted_at IS NULL) t`;
  const granted = sql`m.user_id = ${user.id} AND m.change_xid >= ${xid}::bigint AND m.change_xid < horizon.xmin
        ${grantFloor}`;
  const grants = sql`FROM ${tree} WHERE ${granted} AND ${grantedAfter}`;
  // Each child kind, by its declaration: its rank (k) follows the items' 0.
  const kinds = ITEM_CHILDREN.map((child, n) => {
    const rank = n + 1;
    const table = sql.raw(child.name);
    const itemColumn = sql.raw(child.itemColumn);
    return {
      child,
      rank,
      // K13: a child goes to whoever sees its live item, exactly as the item does; nobody else learns
      // of it, not even as a tombstone. The plain `>=` bound lets the planner range-scan the index.
      changed: sql`FROM ${table} c JOIN items i ON i.id = c.${itemColumn}
      WHERE c.change_xid >= ${xid}::bigint AND c.change_xid < horizon.xmin AND ${childAfter(rank, sql`c.change_xid`)}
        AND i.deleted_at IS NULL AND ${visibleTo(user.id)}`,
      // K14: the grant sends the tree's live children too, at the grant's position, after its items.
      granted: sql`FROM ${tree} JOIN ${table} c ON c.${itemColumn} = t.id AND c.deleted_at IS NULL
      WHERE ${granted} AND ${childAfter(rank, sql`m.change_xid`)}`,
    };
  });
  // L7: asked for, the same statement counts every change after the cursor below the same horizon,
  // by the page's own filters (items_change_idx and item_revocations_change_idx ranges), once.
  // The plain `>=` bound is implied by the cursor's OR, but only it lets the planner range-scan the
  // index: without it an incremental pull's count would read every row of the table.
  const counted = count
    ? sql`(SELECT count(*) FROM items i
              WHERE i.change_xid >= ${xid}::bigint AND i.change_xid < horizon.xmin AND ${itemsAfter}
                AND ${visibleTo(user.id)})
          + (SELECT count(*) FROM item_revocations v
              WHERE v.user_id = ${user.id} AND v.change_xid >= ${xid}::bigint
                AND v.change_xid < horizon.xmin AND ${revokedAfter})
          ${sql.join(
            kinds.map((kind) => sql`+ (SELECT count(*) ${kind.changed})`),
            sql` `,
          )}
          ${
            fresh
              ? sql``
              : sql`+ (SELECT count(*) ${grants}) ${sql.join(
                  kinds.map((kind) => sql`+ (SELECT count(*) ${kind.granted})`),
                  sql` `,
                )}`
          }`
    : sql`NULL::bigint`;
  const found = await rows<{
    id: number | null;
    change_xid: string | number | null;
    revoked_at: Date | string | null;
    k: number | null;
    horizon: string | number;
    xmax: string | number;
    after: string | number | null;
  }>(
    db,
    hotStatement(sql`WITH horizon AS (
            SELECT pg_snapshot_xmin(s)::text::bigint AS xmin, pg_snapshot_xmax(s)::text::bigint AS xmax
            FROM pg_current_snapshot() s
          ), counted AS MATERIALIZED (
            SELECT ${counted} AS after FROM horizon
          )
          SELECT r.id, r.change_xid, r.revoked_at, r.k, horizon.xmin AS horizon, horizon.xmax AS xmax,
            counted.after::text AS after
          FROM horizon CROSS JOIN counted LEFT JOIN LATERAL (
            SELECT u.id, u.change_xid, u.revoked_at, u.k FROM (
              (SELECT i.id, i.change_xid, NULL::timestamptz AS revoked_at, 0 AS k
               FROM items i
               WHERE i.change_xid < horizon.xmin AND ${itemsAfter} AND ${visibleTo(user.id)}
               ORDER BY i.change_xid, i.id
               LIMIT ${size + 1})
              UNION ALL
              (SELECT v.item_id AS id, v.change_xid, v.revoked_at, 0 AS k
               FROM item_revocations v
               WHERE v.user_id = ${user.id} AND v.change_xid < horizon.xmin AND ${revokedAfter}
               ORDER BY v.change_xid, v.item_id
               LIMIT ${size + 1})
              ${sql.join(
                kinds.map(
                  ({ rank, changed }) => sql`UNION ALL
              (SELECT c.id, c.change_xid, NULL::timestamptz AS revoked_at, ${sql.raw(String(rank))} AS k ${changed}
               ORDER BY c.change_xid, c.id
               LIMIT ${size + 1})`,
                ),
                sql` `,
              )}
              ${
                fresh
                  ? sql``
                  : sql`UNION ALL
              (SELECT t.id, m.change_xid, NULL::timestamptz AS revoked_at, 0 AS k ${grants}
               ORDER BY m.change_xid, t.id
               LIMIT ${size + 1})
              ${sql.join(
                kinds.map(
                  ({ rank, granted: grantedRows }) => sql`UNION ALL
              (SELECT c.id, m.change_xid, NULL::timestamptz AS revoked_at, ${sql.raw(String(rank))} AS k ${grantedRows}
               ORDER BY m.change_xid, c.id
               LIMIT ${size + 1})`,
                ),
                sql` `,
              )}`
              }
            ) u
            ORDER BY u.change_xid, u.k, u.id
            LIMIT ${size + 1}
          ) r ON true
          ORDER BY r.change_xid, r.k, r.id`),
  );
  const horizon = BigInt(found[0]?.horizon ?? 0);
  const changed = found.filter(
    (r): r is typeof r & { id: number; change_xid: string | number; k: number } =>
      r.id !== null && r.change_xid !== null && r.k !== null,
  );
  const hasMore = changed.length > size;
  const page = changed.slice(0, size);
  const last = page.at(-1);
  let next: CursorPosition = { xid: from.xid, id: from.id };
  if (hasMore && last)
    next =
      Number(last.k) > 0
        ? { xid: BigInt(last.change_xid), id: last.id, child: Number(last.k) }
        : { xid: BigInt(last.change_xid), id: last.id };
  else if (horizon > from.xid) next = { xid: horizon, id: 0 };
  // Carried until the pull passes it; past it, `>= xid` already leaves out every grant below it.
  const since = fresh ? horizon : from.since;
  if (since !== undefined && next.xid < since) next = { ...next, since };
  // One entry per item, the latest: a revocation and a later re-grant (or the reverse) in one page.
  const latest = new Map<number, (typeof page)[number]>();
  // Each child kind's ids on the page, by rank.
  const childIds = kinds.map(() => new Set<number>());
  for (const row of page) {
    const rank = Number(row.k);
    if (rank > 0) {
      childIds[rank - 1]?.add(row.id);
      continue;
    }
    latest.delete(row.id);
    latest.set(row.id, row);
  }
  // The page's items as JSON text built by the database (syncItemsJson), sent as it is. A lost item
  // travels as a tombstone, exactly like a deleted one: the id, the uuid and when, never what the
  // item has become since (its title may be what the user must no longer read).
  const rowsOfPage = [...latest.values()];
  const items = await syncItemsJson(
    db,
    user.id,
    rowsOfPage.map((row) => row.id),
    rowsOfPage.map((row) => (row.revoked_at === null ? null : iso(row.revoked_at))),
  );
  const childJson: string[] = [];
  for (const [n, { child }] of kinds.entries()) {
    const changes = await pageChildren(db, children[child.name], [...(childIds[n] ?? [])]);
    childJson.push(`"${child.name}":${JSON.stringify(changes)}`);
  }
  // L13: the lists (templates, views) that changed between this page's cursor and the next one's, by
  // transaction id alone: consecutive pages cover consecutive ranges, and a page inside one
  // transaction's rows covers none.
  const lists: Record<SyncListName, object[]> = { templates: [], views: [] };
  if (next.xid > from.xid) {
    lists.templates = await templatesChangedBetween(db, user.id, from.xid, next.xid);
    lists.views = await viewsChangedBetween(db, user.id, from.xid, next.xid);
  }
  const listJson = SYNC_LISTS.map((name) => `"${name}":${JSON.stringify(lists[name])}`).join(',');
  const nextCursor = encodeCursor(next);
  // The count took in this page's rows (before one entry per item was kept): what is left after them.
  const after = found[0]?.after;
  const remaining =
    count && after !== null && after !== undefined
      ? hasMore
        ? Math.max(0, Number(after) - page.length)
        : 0
      : undefined;
  // The SyncPage shape, written out around the items' text: {items, <each child kind>, <each list>, cursor, has_more, remaining?}.
  const body = `{"items":${items},${childJson.join(',')},${listJson},"cursor":${JSON.stringify(nextCursor)},"has_more":${hasMore}${remaining === undefined ? '' : `,"remaining":${remaining}`}}`;
  // With no transaction in flight at the snapshot (xmin = xmax), every row below the new cursor
  // has been sent: until a change event for this user arrives, a pull from it finds nothing.
  const quiescent = String(found[0]?.xmax ?? '') === String(found[0]?.horizon ?? '');
  return { body, sent: page.length, hasMore, nextCursor, quiescent };
}

/**
 * A page's rows of one child kind: a live one as its resource shows it on a sync page, a deleted one
 * as a bare tombstone (the tombstone rule of src/shared/itemChildren.ts), in id order.
 */
async function pageChildren(db: Executor, kind: ItemChildServer, ids: readonly number[]): Promise<object[]> {
  if (ids.length === 0) return [];
  const found = await kind.syncRows(db, ids);
  return found
    .sort((a, b) => a.id - b.id)
    .map((r): object =>
      r.deleted_at === null
        ? kind.syncJson(r)
        : ({
            id: r.id,
            uuid: r.uuid,
            item_id: r.item_id,
            deleted_at: iso(r.deleted_at),
          } satisfies ChildTombstone),
    );
}
