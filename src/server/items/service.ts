import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { type HierarchyNode, hierarchyError } from '../../shared/hierarchy';
import { updateFeedEntries } from '../../shared/history';
import {
  FAMILY_FULL_MESSAGE,
  FAMILY_MAX_ITEMS,
  type Item,
  type ItemStatus,
  type ItemType,
  PATCHABLE_FIELDS,
  type PatchableField,
} from '../../shared/item';
import { ITEM_CHILDREN } from '../../shared/itemChildren';
import { ITEM_FIELDS, type ItemFieldName } from '../../shared/itemFields';
import { bringsNextOccurrence, ownStatusAfter, planUpdate } from '../../shared/itemUpdate';
import type { Role } from '../../shared/membership';
import { textArrayLiteral } from '../../shared/planning';
import type { ItemCreate, ItemPatch } from '../../shared/schemas';
import { spanProblem } from '../../shared/span';
import { parentKeepsStatus, planStatusChanges, type StatusNode } from '../../shared/status';
import {
  type ActivityInput,
  recordActivities as appendActivities,
  recordActivity as appendActivity,
} from '../activity/record';
import { SAMPLE_USERS, type UserRow } from '../auth/users';
import { assertRoleAllows } from '../campaigns/access';
import { revokeInvitesOf } from '../campaigns/invites';
import { type BoundStatement, type Executor, inOrder, pipelined, prepared, rows, sql } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { iso, isoOrNull } from '../http/serialize';
import { notifyFromActivity, notifyFromRollUp } from '../notifications/record';
import { itemEventOf, noteWebhookEvent } from '../webhooks/events';
import { keyAfterLastSibling } from './order';
import {
  DECLARED_COLUMNS,
  declaredValuesSql,
  fieldsJson,
  findItem,
  findVisibleItem,
  ITEM_COLUMNS,
  type ItemRow,
  insertedValues,
  itemJson,
  visibleTo,
} from './queries';
import {
  assertRecurrence,
  createCascadedOccurrences,
  createNextOccurrence,
  NOT_NEXT_OCCURRENCE,
  seriesCreate,
} from './recurrence';
import { deletedTogether, restoreRefusal } from './trash';

const CHANGE = sql`change_xid = pg_current_xact_id()::text::bigint`;

/**
 * Every feed entry of an item write, and the notifications it causes (notifications/record.ts), in
 * the writing transaction: the one place the write path tells the notifications module anything.
 */
async function recordActivity(tx: Executor, entry: ActivityInput): Promise<void> {
  // The webhooks hear of it too, written to their outbox at the end of this transaction.
  const event = itemEventOf(entry.action);
  if (event)
    noteWebhookEvent(tx, {
      kind: 'item',
      type: event,
      actor: { id: entry.actor.id, name: entry.actor.name },
      itemId: entry.item.id,
      rootId: entry.rootId,
    });
  // Neither waits on the other's answer: sent together where the connection allows (inOrder).
  await inOrder(
    tx,
    () => appendActivity(tx, entry),
    () => notifyFromActivity(tx, entry),
  );
}

interface NodeRow extends HierarchyNode {
  user_id: number;
  assigned_to: number | null;
  title: string;
  status: ItemStatus;
  // The drivers hand timestamps back as strings inside drizzle's execute, not as Date objects.
  completed_at: Date | string | null;
}

const rootQuery = prepared(
  (id: number) =>
    sql`SELECT COALESCE(g.id, p.id, i.id) AS root FROM items i
        LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id WHERE i.id = ${id}`,
);

/** The top-level item above `id` (itself when it has no parent). */
async function rootOf(tx: Executor, id: number): Promise<number> {
  const [row] = await rows<{ root: number }>(tx, rootQuery(id));
  return row?.root ?? id;
}

const lockRoot = prepared((root: number) => sql`SELECT id FROM items WHERE id = ${root} FOR UPDATE`);

/**
 * Locks the families (top-level items) a write touches, lowest id first so two writers never
 * deadlock; roll-up then always sees the family as it is, also on PostgreSQL under concurrency.
 */
async function lockFamilies(tx: Executor, roots: number[]): Promise<void> {
  const unique = [...new Set(roots)].sort((a, b) => a - b);
  for (const root of unique) await tx.execute(lockRoot(root));
}

/**
 * Locks the family of a live item the user may see, in one narrow statement (no item columns, no
 * people): its top-level item's id, or null when there is no such item. The caller re-reads the item
 * under the lock, since a write that committed while we waited may have changed or deleted it.
 */
async function lockVisibleFamily(tx: Executor, userId: number, id: number): Promise<number | null> {
  const [row] = await rows<{ root: number }>(tx, lockVisibleFamilyQuery(userId, id));
  return row?.root ?? null;
}
const lockVisibleFamilyQuery = prepared(
  (userId: number, id: number) =>
    sql`SELECT r.id AS root FROM items i
        LEFT JOIN items p ON p.id = i.parent_id LEFT JOIN items g ON g.id = p.parent_id
        JOIN items r ON r.id = COALESCE(g.id, p.id, i.id)
        WHERE i.id = ${id} AND i.deleted_at IS NULL AND ${visibleTo(userId)}
        FOR UPDATE OF r`,
);

/** Locks the family a new child of `parentId` joins: its top-level item's id, or null for no such item. */
async function lockParentFamily(tx: Executor, parentId: number): Promise<number | null> {
  const [row] = await rows<{ root: number }>(tx, lockParentFamilyQuery(parentId));
  return row?.root ?? null;
}
const lockParentFamilyQuery = prepared(
  (parentId: number) =>
    sql`SELECT r.id AS root FROM items p LEFT JOIN items g ON g.id = p.parent_id
        JOIN items r ON r.id = COALESCE(g.id, p.id)
        WHERE p.id = ${parentId} FOR UPDATE OF r`,
);

/**
 * Every live item of the families under these roots: the roots, their children, their grandchildren.
 * Three index lookups joined by UNION, not one OR across a join, which no index can serve: that
 * hashed the whole table on every write (4.5 ms at 10k items against 0.2 ms).
 */
async function loadFamilies(tx: Executor, roots: number[]): Promise<NodeRow[]> {
  const ids = [...new Set(roots)];
  if (ids.length === 0) return [];
  // Nearly every write loads one family: that statement is built once.
  if (ids.length === 1) return rows<NodeRow>(tx, oneFamily(ids[0] as number));
  return rows<NodeRow>(
    tx,
    familiesQuery(
      sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      ),
    ),
  );
}
const familiesQuery = (list: SQL) =>
  sql`SELECT i.id, i.type, i.parent_id, i.user_id, i.assigned_to, i.title, i.status, i.completed_at
        FROM items i
        WHERE i.deleted_at IS NULL AND i.id IN (
          SELECT f.id FROM items f WHERE f.id IN (${list})
          UNION SELECT f.id FROM items f WHERE f.parent_id IN (${list})
          UNION SELECT f.id FROM items f JOIN items fp ON fp.id = f.parent_id WHERE fp.parent_id IN (${list}))`;
const oneFamily = prepared((root: number) => familiesQuery(sql`${root}`));

const toStatusNode = (n: NodeRow): StatusNode => ({
  id: n.id,
  parent_id: n.parent_id,
  status: n.status,
  completed_at: isoOrNull(n.completed_at),
});

/** The top-level item above `node` as the loaded family shows it, or null when it does not reach one. */
function topOf(byId: ReadonlyMap<number, NodeRow>, node: NodeRow): number | null {
  let current: NodeRow | undefined = node;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.parent_id === null) return current.id;
    current = byId.get(current.parent_id);
  }
  return null;
}

/**
 * Writes the roll-up's consequences for every item but `skipId` and logs them in the feed. Set-based:
 * one UPDATE per resulting status and the feed entries a thousand to a statement, so completing a
 * campaign of 10,000 tasks is a handful of statements, not 30,000 (issue 29 F0: the embedded
 * database serves one statement at a time, and every other user waited for the cascade).
 */
async function applyStatusPlan(
  tx: Executor,
  actor: UserRow,
  family: NodeRow[],
  plan: Map<number, { status: ItemStatus; completed_at: string | null }>,
  skipId: number | null,
): Promise<void> {
  const byId = new Map(family.map((n) => [n.id, n]));
  // The changed item's type, for the items under it that its change carried with it (issue 50: a todo
  // completed with its task read 'because all its items are done').
  const changed = skipId === null ? undefined : byId.get(skipId);
  const under = (node: NodeRow) => {
    for (let p = node.parent_id, depth = 0; p !== null && depth < 8; depth++) {
      if (p === skipId) return true;
      p = byId.get(p)?.parent_id ?? null;
    }
    return false;
  };
  const groups = new Map<string, { status: ItemStatus; completed_at: string | null; ids: number[] }>();
  const entries: ActivityInput[] = [];
  const completed: number[] = [];
  const reopened: number[] = [];
  for (const [id, change] of plan) {
    if (id === skipId) continue;
    const node = byId.get(id);
    if (!node) continue;
    const key = `${change.status} ${change.completed_at ?? ''}`;
    const group = groups.get(key) ?? { ...change, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
    const action =
      change.status === 'completed' ? 'completed' : node.status === 'completed' ? 'reopened' : 'updated';
    if (action === 'completed') completed.push(id);
    if (action === 'reopened') reopened.push(id);
    entries.push({
      actor,
      action,
      item: { id, type: node.type, title: node.title },
      rootId: topOf(byId, node) ?? (await rootOf(tx, id)),
      metadata: {
        status: { old: node.status, new: change.status },
        rolled_up: true,
        ...(changed && under(node) ? { with_parent: changed.type } : {}),
      },
    });
  }
  for (const group of groups.values()) {
    await tx.execute(
      sql`UPDATE items SET status = ${group.status}, completed_at = ${group.completed_at},
            version = version + 1, updated_at = now(), ${CHANGE}
          WHERE id = ANY(${`{${group.ids.join(',')}}`}::int[])`,
    );
  }
  await appendActivities(tx, entries);
  await notifyFromRollUp(tx, 'completed', completed);
  await notifyFromRollUp(tx, 'reopened', reopened);
}

/** Marks everything under `id` as changed, so users who now see it through `id` pull it. */
async function touchDescendants(tx: Executor, id: number): Promise<void> {
  await tx.execute(
    sql`UPDATE items SET ${CHANGE} WHERE deleted_at IS NULL AND (parent_id = ${id}
        OR parent_id IN (SELECT c.id FROM items c WHERE c.parent_id = ${id}))`,
  );
}

/**
 * Marks the live children (every declared kind: comments, time entries…) of the items `ids` (a
 * subquery) as changed, so whoever now sees them pulls them (SYNC.md K14, K18); a deleted one stays
 * as it was (they never had it).
 */
export async function resendChildren(tx: Executor, ids: SQL): Promise<void> {
  for (const child of ITEM_CHILDREN)
    await tx.execute(
      sql`UPDATE ${sql.raw(child.name)} SET ${CHANGE}
          WHERE deleted_at IS NULL AND ${sql.raw(child.itemColumn)} IN (${ids})`,
    );
}

/** The children of `id` and everything under it, sent again to whoever now sees them (K18). */
async function touchChildren(tx: Executor, id: number): Promise<void> {
  await resendChildren(
    tx,
    sql`SELECT ${id}::int
          UNION ALL SELECT c.id FROM items c WHERE c.parent_id = ${id}
          UNION ALL SELECT g.id FROM items g JOIN items c ON g.parent_id = c.id WHERE c.parent_id = ${id}`,
  );
}

/**
 * Records, for each user who saw `id` before a move or reassignment, the items of its subtree they
 * no longer see, so their next pull removes them (a server-side delete would never reach them).
 */
async function revokeLostAccess(tx: Executor, id: number, formerViewers: readonly number[]): Promise<void> {
  for (const userId of new Set(formerViewers)) {
    await tx.execute(
      sql`INSERT INTO item_revocations (user_id, item_id)
          SELECT ${userId}, i.id FROM items i
          WHERE (i.id = ${id} OR i.parent_id = ${id} OR i.parent_id IN (SELECT c.id FROM items c WHERE c.parent_id = ${id}))
            AND NOT COALESCE(${visibleTo(userId)}, false)
          ON CONFLICT (user_id, item_id) DO UPDATE
            SET change_xid = EXCLUDED.change_xid, revoked_at = EXCLUDED.revoked_at`,
    );
  }
}

const PARENT_MISSING = 'The selected parent does not exist.';

const visibleParentQuery = prepared(
  (userId: number, parentId: number) =>
    sql`SELECT i.id, i.type, i.parent_id, i.title, i.status, g.id AS g_id, g.type AS g_type, g.parent_id AS g_parent_id
        FROM items i LEFT JOIN items g ON g.id = i.parent_id
        WHERE i.id = ${parentId} AND i.deleted_at IS NULL AND ${visibleTo(userId)}`,
);

/** The parent as a hierarchy node when the user may see it, or a 422 naming parent_id. */
async function visibleParent(
  tx: Executor,
  actor: UserRow,
  parentId: number,
  child: { id?: number; type: ItemType },
): Promise<{ node: HierarchyNode; root: number; title: string; status: ItemStatus }> {
  // The parent's own parent is read directly: the actor may see the parent without seeing its parent,
  // and the API's parent summary is left out for them, but the hierarchy rules still apply.
  const [parent] = await rows<{
    id: number;
    type: ItemType;
    parent_id: number | null;
    title: string;
    status: ItemStatus;
    g_id: number | null;
    g_type: ItemType | null;
    g_parent_id: number | null;
  }>(tx, visibleParentQuery(actor.id, parentId));
  if (!parent) throw unprocessable({ parent_id: [PARENT_MISSING] });
  const ancestors: HierarchyNode[] =
    parent.g_id === null ? [] : [{ id: parent.g_id, type: parent.g_type!, parent_id: parent.g_parent_id }];
  const node = { id: parent.id, type: parent.type, parent_id: parent.parent_id };
  const problem = hierarchyError(child, node, ancestors);
  if (problem) throw unprocessable({ parent_id: [problem] });
  return {
    node,
    root: parent.g_parent_id ?? parent.g_id ?? parent.id,
    title: parent.title,
    status: parent.status,
  };
}

/**
 * The name of a user the actor may assign work to: themselves, a mutual contact or a sample user.
 * Anyone else gets the same 422 as an id that names nobody, so assigning cannot be used to find
 * out who uses Outpost, and nobody is handed work by a stranger.
 */
async function assigneeName(
  tx: Executor,
  actor: UserRow,
  userId: number,
  root: number | null,
): Promise<string> {
  return (await assigneeUser(tx, actor, userId, root)).name;
}

/**
 * The assignee as assigneeName allows them, with what an item shows of them (their phone too: see
 * itemSelect). Inside a shared campaign (`root`) its members and owner may be given work by any of
 * its members too (§5 'Roles', M6), mutual contacts or not, and nobody else (M16).
 */
async function assigneeUser(
  tx: Executor,
  actor: UserRow,
  userId: number,
  root: number | null,
): Promise<UserRow> {
  const family = root ?? 0;
  const samplePhones = sql.join(
    SAMPLE_USERS.map((s) => sql`${s.phone}`),
    sql`, `,
  );
  const [row] = await rows<UserRow>(
    tx,
    sql`SELECT u.id, u.name, u.phone, u.created_at, u.updated_at FROM users u
        WHERE u.id = ${userId} AND (u.id = ${actor.id}
          OR (u.id <= ${SAMPLE_USERS.length} AND u.phone IN (${samplePhones}))
          OR (EXISTS (SELECT 1 FROM contacts mine WHERE mine.user_id = ${actor.id} AND mine.contact_phone = u.phone)
            AND EXISTS (SELECT 1 FROM contacts theirs WHERE theirs.user_id = u.id AND theirs.contact_phone = ${actor.phone}))
          OR EXISTS (SELECT 1 FROM campaign_members am WHERE am.campaign_id = ${family} AND am.user_id = u.id)
          OR (EXISTS (SELECT 1 FROM campaign_members am WHERE am.campaign_id = ${family} AND am.user_id = ${actor.id})
            AND EXISTS (SELECT 1 FROM items ar WHERE ar.id = ${family} AND ar.user_id = u.id)))`,
  );
  if (!row) throw unprocessable({ assigned_to: [ASSIGNEE_NOT_ALLOWED] });
  // M14: a person removed from (or who left) the campaign would be handed work they can never open
  // (a departure hides the tree from its assignees too, M4), and told of it: refused, said plainly.
  // The actor sees the campaign, whose activity already names who left.
  if (root !== null && row.id !== actor.id) {
    const [place] = await rows<{ gone: boolean; shared: boolean; inside: boolean }>(
      tx,
      sql`SELECT
            EXISTS (SELECT 1 FROM campaign_departures d WHERE d.user_id = ${row.id} AND d.campaign_id = ${root}) AS gone,
            EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = ${root}) AS shared,
            (EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = ${root} AND m.user_id = ${row.id})
              OR EXISTS (SELECT 1 FROM items c WHERE c.id = ${root} AND c.type = 'campaign' AND c.user_id = ${row.id})) AS inside`,
    );
    if (place?.gone && !place.inside) throw unprocessable({ assigned_to: [assigneeCannotSee(row.name)] });
    // M16: a shared campaign's work goes to its people only. A sample user or a mutual contact who is not
    // a member would be handed an item of a campaign they were never let into. The actor knows them
    // (the check above), so naming them tells nothing new.
    if (place?.shared && !place.inside) throw unprocessable({ assigned_to: [assigneeNotMember(row.name)] });
  }
  return row;
}

/** M16: why someone who is not a member of a shared campaign cannot be given work in it. */
export function assigneeNotMember(name: string): string {
  return `${name} is not a member of this shared campaign, so it cannot be assigned to them. Only its members can be given its items; add them in Share first.`;
}

/** M14: why a person who no longer sees the campaign cannot be given work in it. */
export function assigneeCannotSee(name: string): string {
  return `${name} is no longer a member of this campaign and cannot open it, so it cannot be assigned to them. Add them back in Share first.`;
}

export const ASSIGNEE_NOT_ALLOWED =
  'You can assign an item only to yourself, one of your mutual contacts or a sample user.';

/** An editor's (or assignee's) delete of another person's item: the cause, and who may (§5). */
export const DELETE_FORBIDDEN =
  'You can delete only items you created. Its creator or the owner of its campaign can delete this one.';
const MOVE_FORBIDDEN =
  'Only the creator of this item or of its campaign can move it out of its campaign. You can still move it within the campaign.';

const MOVE_CARRIES_OTHERS =
  'It holds items other people created, and they stay in this campaign: it cannot leave it. You can still move it within the campaign.';

/**
 * A move out of a family never carries another person's items away (their trash would lose them
 * with a parent they cannot see): refused when the subtree, deleted rows included, holds any.
 * Refused rather than leaving them behind re-parented: a move that silently splits what the mover
 * sees as one task would surprise the mover, and the refusal names nothing they cannot see (F5).
 */
async function assertCarriesOnlyOwn(tx: Executor, actor: UserRow, id: number): Promise<void> {
  const [other] = await rows<{ id: number }>(
    tx,
    sql`SELECT c.id FROM items c
        WHERE (c.parent_id = ${id} OR c.parent_id IN (SELECT d.id FROM items d WHERE d.parent_id = ${id}))
          AND c.user_id <> ${actor.id}
        LIMIT 1`,
  );
  if (other) throw unprocessable({ parent_id: [MOVE_CARRIES_OTHERS] });
}

const MOVE_TAKES_COMMENTS =
  'It holds comments other people wrote, and they would no longer see them: it cannot leave this campaign. You can still move it within the campaign.';

/**
 * K21: a move out of a family never takes a comment from its author. Checked on the moved state, in
 * the move's transaction (the refusal rolls it back): each other author of a live comment in the
 * subtree must still see that comment's item. Refused, as a move carrying others' items is (above),
 * rather than leaving the comments behind on an item they no longer belong to.
 */
async function assertKeepsCommentsSeen(tx: Executor, actor: UserRow, id: number): Promise<void> {
  const subtree = sql`(i.id = ${id} OR i.parent_id = ${id}
    OR i.parent_id IN (SELECT d.id FROM items d WHERE d.parent_id = ${id}))`;
  const authors = await rows<{ user_id: number }>(
    tx,
    sql`SELECT DISTINCT c.user_id FROM comments c JOIN items i ON i.id = c.item_id
        WHERE c.deleted_at IS NULL AND c.user_id <> ${actor.id} AND ${subtree}`,
  );
  for (const { user_id } of authors) {
    const [lost] = await rows<{ id: number }>(
      tx,
      sql`SELECT c.id FROM comments c JOIN items i ON i.id = c.item_id
          WHERE c.deleted_at IS NULL AND c.user_id = ${user_id} AND ${subtree}
            AND NOT COALESCE(${visibleTo(user_id)}, false)
          LIMIT 1`,
    );
    if (lost) throw unprocessable({ parent_id: [MOVE_TAKES_COMMENTS] });
  }
}

/** Only the item's creator or the creator of its top-level item may delete it (§5), move it away or restore it. */
async function mayDelete(tx: Executor, actor: UserRow, item: Pick<Item, 'user_id'>, root: number) {
  if (item.user_id === actor.id) return true;
  const [rootRow] = await rows<{ user_id: number }>(tx, sql`SELECT user_id FROM items WHERE id = ${root}`);
  return rootRow?.user_id === actor.id;
}

async function assertMayDelete(
  tx: Executor,
  actor: UserRow,
  item: Pick<Item, 'user_id'>,
  root: number,
  message: string,
): Promise<void> {
  if (!(await mayDelete(tx, actor, item, root))) throw new HttpError(403, message);
}

/** Parses an If-Match header into the version it names; undefined when absent or `*`. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw unprocessable({ 'If-Match': ['Must be an item version such as "3".'] });
  return Number(match[1]);
}

function assertVersion(item: Item, expected: number | undefined): void {
  if (expected !== undefined && expected !== item.version) {
    throw new HttpError(412, 'This item was changed since your version. The current item is attached.', {
      item,
    });
  }
}

const ok = (status: number, body: unknown): WriteResult => ({ status, body });

/**
 * What repeated creates in one transaction share (a batch): the families already locked, the uuids
 * already on the server (read once for the whole batch), and the parents whose roll-up is run once
 * at the end (`finishCreates`) instead of after every child. The rules are createItem's either way.
 */
export interface CreateRun {
  locked: Set<number>;
  known: Map<string, number>;
  rollUps: Map<number, Set<number>>;
  /** How many items each locked family holds under its top, counted once and kept up as the run adds. */
  sizes: Map<number, number>;
}

export function createRun(): CreateRun {
  return { locked: new Set(), known: new Map(), rollUps: new Map(), sizes: new Map() };
}

/** How many live items the family under `root` holds below it (children and grandchildren). */
async function familyBelow(tx: Executor, root: number): Promise<number> {
  const [row] = await rows<{ n: number }>(tx, familyBelowQuery(root));
  return row?.n ?? 0;
}
const familyBelowQuery = prepared(
  (root: number) =>
    sql`SELECT ((SELECT count(*) FROM items f WHERE f.parent_id = ${root} AND f.deleted_at IS NULL)
          + (SELECT count(*) FROM items f JOIN items fp ON fp.id = f.parent_id
             WHERE fp.parent_id = ${root} AND f.deleted_at IS NULL))::int AS n`,
);

/** F0: a family past FAMILY_MAX_ITEMS is refused, so no cascade over it can hold the database long. */
function assertFamilyRoom(below: number, adding: number): void {
  if (below + adding > FAMILY_MAX_ITEMS) throw unprocessable({ parent_id: [FAMILY_FULL_MESSAGE] });
}

/** Reads which of these uuids the actor already has (a repeated or resumed batch). */
export async function loadKnownUuids(tx: Executor, actor: UserRow, run: CreateRun, uuids: string[]) {
  if (uuids.length === 0) return;
  const list = sql.join(
    uuids.map((u) => sql`${u}`),
    sql`, `,
  );
  const found = await rows<{ id: number; uuid: string }>(
    tx,
    sql`SELECT id, uuid FROM items WHERE user_id = ${actor.id} AND uuid IN (${list})`,
  );
  for (const row of found) run.known.set(row.uuid, row.id);
}

/** The roll-up of every parent the run's creates touched, once per family. */
export async function finishCreates(
  tx: Executor,
  actor: UserRow,
  run: CreateRun,
  created: ReadonlySet<number>,
) {
  for (const [root, parents] of run.rollUps) {
    const family = await loadFamilies(tx, [root]);
    const plan = planStatusChanges(family.map(toStatusNode), new Map(), new Date().toISOString(), [
      ...parents,
    ]);
    // Items this run created were written with their final status; only their parents roll up.
    for (const id of created) if (!parents.has(id)) plan.delete(id);
    await applyStatusPlan(tx, actor, family, plan, null);
  }
  run.rollUps.clear();
}

const seenItemQuery = prepared(
  (userId: number, id: number) => sql`SELECT i.id FROM items i WHERE i.id = ${id} AND ${visibleTo(userId)}`,
);

/**
 * The refusal of a create whose uuid names an item the caller does not see (P5): under a parent, the
 * one an unknown parent gets (the device's lost-access rule, Q12, reads it so); without one, the
 * series refusal, the only way to name someone else's top-level item.
 */
function unknownToCaller(input: ItemCreate): HttpError {
  return input.parent_id != null
    ? unprocessable({ parent_id: [PARENT_MISSING] })
    : unprocessable({ series_uuid: [NOT_NEXT_OCCURRENCE] });
}

/** A user with what an item shows of them, whoever they are (a derived occurrence's copied assignee). */
async function userById(tx: Executor, id: number): Promise<UserRow | null> {
  const [row] = await rows<UserRow>(
    tx,
    sql`SELECT u.id, u.name, u.phone, u.created_at, u.updated_at FROM users u WHERE u.id = ${id}`,
  );
  return row ?? null;
}

// Built once (db/client.ts `prepared`): a completed create's completed_at is now(), chosen by a
// parameter. `fields` are the declared fields' values in declaration order (queries.ts insertedValues).
const insertItem = prepared(
  (uuid: string, type: ItemType, owner: number, completedNow: boolean, ...fields: unknown[]) =>
    sql`INSERT INTO items (uuid, type, user_id, ${DECLARED_COLUMNS}, completed_at)
        VALUES (${uuid}, ${type}, ${owner}, ${declaredValuesSql(fields)},
          CASE WHEN ${completedNow}::boolean THEN now() END)
        ON CONFLICT (user_id, uuid) DO NOTHING
        RETURNING ${ITEM_COLUMNS}`,
);

/**
 * Creates an item owned by the actor; a repeat of a known uuid answers with the existing item.
 * Within a batch (`run`), the answer body is only `{id}` (the caller reads all items at once)
 * and the parents' roll-up waits for `finishCreates`.
 */
export async function createItem(
  tx: Executor,
  actor: UserRow,
  request: ItemCreate,
  run?: CreateRun,
): Promise<WriteResult> {
  const answer = async (status: number, id: number) =>
    ok(status, run ? { id } : await findItem(tx, actor.id, id));
  // N2, P4: a next occurrence of someone else's series is theirs, and then the server's derivation.
  const { owner, input } = await seriesCreate(tx, actor, request);
  // P5: a known uuid answers only with an item the caller sees (deleted or not: their own trash);
  // anyone else gets the refusal of a create under a parent they do not see, with nothing of it.
  const answerKnown = async (id: number) => {
    const [seen] = await rows<{ id: number }>(tx, seenItemQuery(actor.id, id));
    if (!seen) throw unknownToCaller(input);
    return answer(200, id);
  };
  // A batch carries items stored on a device (a guest's upload): their rule's end was judged then.
  assertRecurrence(
    { type: input.type, due_date: input.due_date ?? null, recurrence: input.recurrence ?? null },
    input.series_uuid != null || run !== undefined,
  );
  // D10: never a start after the due date, a guest's upload included (its device checked the same).
  const span = spanProblem(input.start_date, input.due_date);
  if (span) throw unprocessable({ start_date: [span] });
  if (input.uuid) {
    const knownId = run ? run.known.get(input.uuid) : undefined;
    if (knownId !== undefined) return answerKnown(knownId);
    if (!run || owner !== actor.id) {
      const [existing] = await rows<{ id: number }>(
        tx,
        sql`SELECT id FROM items WHERE user_id = ${owner} AND uuid = ${input.uuid}`,
      );
      if (existing) return answerKnown(existing.id);
    }
  }
  const parentId = input.parent_id ?? null;
  let root: number | null = null;
  let parent: Awaited<ReturnType<typeof visibleParent>> | null = null;
  // The actor's role in the family the item joins: a new campaign is theirs (my_role in the answer).
  let myRole: Role | null = input.type === 'campaign' ? 'owner' : null;
  if (parentId !== null && run) {
    parent = await visibleParent(tx, actor, parentId, { type: input.type });
    root = parent.root;
    if (!run.locked.has(root)) {
      await lockFamilies(tx, [root]);
      run.locked.add(root);
      // Again under the lock: a delete that committed while we waited has taken the parent away.
      parent = await visibleParent(tx, actor, parentId, { type: input.type });
      root = parent.root;
      // M5: a viewer adds nothing to the campaign (checked once a family per batch).
      await assertRoleAllows(tx, actor.id, root, 'create');
    }
    if (!run.sizes.has(root)) run.sizes.set(root, await familyBelow(tx, root));
    assertFamilyRoom(run.sizes.get(root) ?? 0, 1);
  } else if (parentId !== null) {
    // Lock first, then read the parent once under the lock: a delete that committed while we waited
    // has taken it away, and the read sees that.
    const locked = await lockParentFamily(tx, parentId);
    parent = await visibleParent(tx, actor, parentId, { type: input.type });
    root = parent.root;
    if (locked !== root) {
      // Moved to another family while we waited: that family is the one to lock.
      await lockFamilies(tx, [root]);
      parent = await visibleParent(tx, actor, parentId, { type: input.type });
      root = parent.root;
    }
    myRole = await assertRoleAllows(tx, actor.id, root, 'create');
    assertFamilyRoom(await familyBelow(tx, root), 1);
  }
  const assignedTo = input.assigned_to ?? null;
  // A derived next occurrence (someone else's series) keeps its assignee unchecked, as the server's
  // own completion does (createNextOccurrence): the caller did not choose it.
  const assignee =
    assignedTo === null
      ? null
      : owner !== actor.id
        ? await userById(tx, assignedTo)
        : await assigneeUser(tx, actor, assignedTo, root);
  const status = input.status ?? 'pending';
  // Every item has a uuid (ARCHITECTURE §4): exports and imports name items by it.
  const uuid = input.uuid ?? randomUUID();
  // Without a place given, after the last sibling's (§5 'Order'), read under the family's lock.
  const sortKey = input.sort_key ?? (await keyAfterLastSibling(tx, parentId, owner));
  const [created] = await rows<ItemRow>(
    tx,
    insertItem(
      uuid,
      input.type,
      owner,
      status === 'completed',
      ...insertedValues(input, { status, assigned_to: assignedTo, parent_id: parentId, sort_key: sortKey }),
    ),
  );
  if (!created) {
    // A concurrent create with the same uuid won the race: answer with its item.
    const [existing] = await rows<{ id: number }>(
      tx,
      sql`SELECT id FROM items WHERE user_id = ${owner} AND uuid = ${input.uuid ?? null}`,
    );
    return answerKnown(existing!.id);
  }
  if (input.uuid) run?.known.set(input.uuid, created.id);
  // A campaign created in this run is its own family, already ours: its children need no lock.
  if (root === null) {
    run?.locked.add(created.id);
    run?.sizes.set(created.id, 0);
  } else if (run) run.sizes.set(root, (run.sizes.get(root) ?? 0) + 1);
  await recordActivity(tx, {
    actor,
    action: 'created',
    item: { id: created.id, type: input.type, title: input.title },
    rootId: root ?? created.id,
    metadata: assignee ? { assigned_to: assignee.name } : {},
  });
  // The parent's status after the roll-up, for the answer's parent summary.
  let parentStatus = parent?.status ?? null;
  // A child that cannot move its parent's status (shared rule) needs no family read for roll-up.
  if (root !== null && parentId !== null && parent && !parentKeepsStatus(parent.status, status)) {
    if (run) {
      const parents = run.rollUps.get(root) ?? new Set<number>();
      parents.add(parentId);
      run.rollUps.set(root, parents);
    } else {
      const family = await loadFamilies(tx, [root]);
      const plan = planStatusChanges(family.map(toStatusNode), new Map(), new Date().toISOString(), [
        parentId,
      ]);
      await applyStatusPlan(tx, actor, family, plan, created.id);
      parentStatus = plan.get(parentId)?.status ?? parentStatus;
    }
  }

  // Hooks that act on a new item (inside this transaction) go here.

  // Someone else's occurrence names its owner as creator: read back.
  if (run || owner !== actor.id) return answer(201, created.id);
  // The answer from what the INSERT returned and what this write already read, not a read-back.
  return ok(
    201,
    itemJson({
      ...created,
      u_name: actor.name,
      u_phone: actor.phone ?? '',
      u_created_at: actor.created_at,
      u_updated_at: actor.updated_at,
      a_name: assignee?.name ?? null,
      a_phone: assignee?.phone ?? null,
      a_created_at: assignee?.created_at ?? null,
      a_updated_at: assignee?.updated_at ?? null,
      p_title: parent?.title ?? null,
      p_type: parent?.node.type ?? null,
      p_status: parentStatus,
      p_parent_id: parent?.node.parent_id ?? null,
      children_count: 0,
      completed_count: 0,
      my_role: myRole,
      members_count: 1,
    }),
  );
}

/** The roll-up of `parentIds` after children were added under them (a child under a completed parent reopens it); `childId` is not logged. */
async function rollUpNewChild(
  tx: Executor,
  actor: UserRow,
  root: number,
  parentIds: readonly number[],
  childId: number | null,
) {
  const family = await loadFamilies(tx, [root]);
  const plan = planStatusChanges(family.map(toStatusNode), new Map(), new Date().toISOString(), [
    ...parentIds,
  ]);
  await applyStatusPlan(tx, actor, family, plan, childId);
}

/** The columns a PATCH writes as given, in the order the UPDATE sets them (status goes with the roll-up). */
const PATCHED_COLUMNS = PATCHABLE_FIELDS.filter(
  (field): field is Exclude<PatchableField, 'status'> => field !== 'status',
);
const isTextArray = (column: string) =>
  column in ITEM_FIELDS && ITEM_FIELDS[column as ItemFieldName].column === 'textArray';
const ownUpdates = new Map<string, (...values: unknown[]) => BoundStatement>();

/** The UPDATE of an item's own row that sets these columns (and the bookkeeping), built once per set. */
function ownUpdate(columns: readonly string[]): (...values: unknown[]) => BoundStatement {
  const key = columns.join(',');
  let statement = ownUpdates.get(key);
  if (!statement) {
    statement = prepared((...values: unknown[]) => {
      const sets = [sql`version = version + 1`, sql`updated_at = now()`, CHANGE];
      // A list (labels) travels as an array literal (textArrayLiteral): the builder would spread a JS array.
      for (const [i, column] of columns.entries())
        sets.push(
          isTextArray(column)
            ? sql`${sql.identifier(column)} = ${values[i]}::text[]`
            : sql`${sql.identifier(column)} = ${values[i]}`,
        );
      return sql`UPDATE items SET ${sql.join(sets, sql`, `)} WHERE id = ${values[columns.length]} RETURNING ${ITEM_COLUMNS}`;
    });
    ownUpdates.set(key, statement);
  }
  return statement;
}

/** Applies a partial update with roll-up, feed entries and the If-Match check. */
export async function updateItem(
  tx: Executor,
  actor: UserRow,
  id: number,
  patch: ItemPatch,
  ifMatch: number | undefined,
): Promise<WriteResult> {
  // The one full read, under the lock: the version check must see the latest committed write, and an
  // item deleted while we waited is gone. Sent with the lock (inOrder), it runs once the lock is held.
  const [oldRoot, current] = await inOrder(
    tx,
    () => lockVisibleFamily(tx, actor.id, id),
    () => findVisibleItem(tx, actor.id, id),
  );
  if (oldRoot === null || !current) throw notFound();
  assertVersion(current, ifMatch);
  // M5: every change inside a campaign is refused to its viewers, assignments and moves included.
  await assertRoleAllows(tx, actor.id, oldRoot, 'edit');

  // A move that names no place goes last in its new list (§5 'Order'), as a new item does. Read
  // here, before the new family is locked: a create racing it gets another jittered key, or a tie
  // that the uuid orders.
  const moves = patch.parent_id !== undefined && (patch.parent_id ?? null) !== current.parent_id;
  const placed: ItemPatch =
    moves && patch.sort_key === undefined
      ? { ...patch, sort_key: await keyAfterLastSibling(tx, patch.parent_id ?? null, current.user_id) }
      : patch;
  // What the PATCH changes is the shared update rule's decision (src/shared/itemUpdate.ts).
  const update = planUpdate(current, placed);
  const { changed } = update;
  if (update.fields.length === 0) return ok(200, current);
  if (update.recurrenceCheck)
    assertRecurrence(update.recurrenceCheck.item, !update.recurrenceCheck.ruleChanged);
  if (update.spanProblem) throw unprocessable({ start_date: [update.spanProblem] });

  // Who saw it before a move or a reassignment must hear about it too, or their caches keep it.
  const formerViewers = changed.parent_id || changed.assigned_to ? await viewersOfItem(tx, id) : [];
  let newRoot = oldRoot;
  if (changed.parent_id) {
    const parentId = patch.parent_id ?? null;
    if (parentId === null) newRoot = id;
    else newRoot = (await visibleParent(tx, actor, parentId, { id, type: current.type })).root;
    // Taking an item out of its family takes it from the family's owner, as a delete would: a move
    // must not be a way round the delete rule (§5).
    if (newRoot !== oldRoot) {
      await assertMayDelete(tx, actor, current, oldRoot, MOVE_FORBIDDEN);
      await assertCarriesOnlyOwn(tx, actor, id);
      // Into a campaign: as a create there, which its viewers may not do (M5).
      await assertRoleAllows(tx, actor.id, newRoot, 'create');
    }
    await lockFamilies(tx, [oldRoot, newRoot]);
    // The moved item and everything under it join the new family, which must have room for them.
    if (newRoot !== oldRoot && parentId !== null)
      assertFamilyRoom(await familyBelow(tx, newRoot), 1 + (await familyBelow(tx, id)));
    if (parentId !== null) await visibleParent(tx, actor, parentId, { id, type: current.type });
  }
  let newAssignee: string | null = null;
  if (changed.assigned_to && patch.assigned_to != null)
    newAssignee = await assigneeName(tx, actor, patch.assigned_to, newRoot);

  // The family is read for roll-up only when the change can move a status in it (shared rules): a
  // move, completing an item with children (the cascade), or a status its parent may not keep.
  const nextStatus = changed.status ? patch.status! : null;
  const needsFamily =
    !!changed.parent_id ||
    (nextStatus !== null &&
      ((nextStatus === 'completed' && current.children_count > 0) ||
        (current.parent_id !== null &&
          !(current.parent && parentKeepsStatus(current.parent.status, nextStatus)))));
  const family = needsFamily ? await loadFamilies(tx, [oldRoot, newRoot]) : [];
  const nodes = family
    .map(toStatusNode)
    .map((n) =>
      n.id === id ? { ...n, parent_id: changed.parent_id ? (patch.parent_id ?? null) : n.parent_id } : n,
    );
  const now = new Date().toISOString();
  const rolled = needsFamily ? planStatusChanges(nodes, update.direct, now, update.touched) : null;
  const own = ownStatusAfter(current, update, rolled, now);
  const plan = rolled ?? new Map(own ? [[id, own]] : []);

  const columns: string[] = [];
  const values: unknown[] = [];
  for (const column of PATCHED_COLUMNS) {
    if (!changed[column]) continue;
    columns.push(column);
    values.push(
      isTextArray(column)
        ? textArrayLiteral((placed[column] as readonly string[] | undefined) ?? [])
        : (placed[column] ?? null),
    );
  }
  if (own) {
    columns.push('status', 'completed_at');
    values.push(own.status, own.completed_at);
  }
  const writing = rows<ItemRow>(tx, ownUpdate(columns)(...values, id));
  // The item's own feed entries need nothing the UPDATE answers: on a pipelined connection they go
  // out right behind it (a move or a new assignee first touches the subtree, which waits for it).
  const moved = !!(changed.parent_id || changed.assigned_to);
  if (moved || !pipelined(tx)) await writing;
  const entries = (async () => {
    if (moved) {
      await touchDescendants(tx, id);
      await touchChildren(tx, id);
      await revokeLostAccess(tx, id, formerViewers);
    }

    const item = { id, type: current.type, title: patch.title ?? current.title };
    // Which entries the change makes, and their metadata, are the shared rule's (shared/history.ts),
    // as the guest device records its own; the parents' titles as they were then are read here.
    let parent: { old: string | null; new: string | null } | undefined;
    if (changed.parent_id) {
      const next = patch.parent_id ?? null;
      const [row] =
        next === null
          ? []
          : await rows<{ title: string }>(tx, sql`SELECT title FROM items WHERE id = ${next}`);
      parent = { old: current.parent?.title ?? null, new: row?.title ?? null };
    }
    const assignee = { old: current.assignedUser?.name ?? null, new: newAssignee };
    for (const { action, metadata } of updateFeedEntries(changed, {
      ...(parent ? { parent } : {}),
      assignee,
    }))
      await recordActivity(tx, {
        actor,
        action,
        item,
        rootId: newRoot,
        metadata,
        ...(action === 'assigned' ? { assigneeName: newAssignee } : {}),
      });
  })();
  // Both settle before anything goes on: nothing of this write may reach the connection after the
  // transaction ends. The UPDATE's own failure is the one to report, not the entries' 'transaction
  // aborted' after it.
  const [wrote, entered] = await Promise.allSettled([writing, entries]);
  if (wrote.status === 'rejected') throw wrote.reason;
  if (entered.status === 'rejected') throw entered.reason;
  if (changed.parent_id && newRoot !== oldRoot) await assertKeepsCommentsSeen(tx, actor, id);
  const [written] = wrote.value;
  // After the item's own entries, so the feed reads cause before consequence.
  await applyStatusPlan(tx, actor, family, plan, id);
  // Items the cascade completed bring their next occurrences as a direct completion would (N6).
  const before = new Map(family.map((n) => [n.id, n.status]));
  const cascaded = [...plan]
    .filter(
      ([other, change]) => other !== id && change.status === 'completed' && before.get(other) !== 'completed',
    )
    .map(([other]) => other);
  const newParents = await createCascadedOccurrences(tx, actor, cascaded, newRoot);
  if (newParents.length > 0) await rollUpNewChild(tx, actor, newRoot, newParents, null);
  // Completing an occurrence brings the next one, in this transaction (§5 Recurrence, SYNC.md N1);
  // the answer is then read back, since the new child moves the parent's counts. An item that does
  // not repeat brings none (createNextOccurrence needs a rule and a due date): its answer is built below.
  if (written && own && bringsNextOccurrence(current, { ...own, ...written })) {
    const completed = await findItem(tx, actor.id, id);
    if (completed) {
      const nextId = await createNextOccurrence(tx, actor, completed, newRoot);
      if (nextId !== null && completed.parent_id !== null)
        await rollUpNewChild(tx, actor, newRoot, [completed.parent_id], nextId);
    }
    return { status: 200, body: completed, formerViewers };
  }

  // Hooks that act on the changed item (inside this transaction) go here.

  // A move or a new assignee changes the people and parent shown, and a task's or campaign's new
  // estimate its total (X14, which may fall back to its children's): read those back. Otherwise the
  // answer is the item read under the lock with what the UPDATE returned and the roll-up decided.
  const totalMoves = !!changed.estimate_minutes && current.type !== 'todo';
  if (changed.parent_id || changed.assigned_to || !written || newParents.length > 0 || totalMoves) {
    return { status: 200, body: await findItem(tx, actor.id, id), formerViewers };
  }
  const children = family.filter((n) => n.parent_id === id);
  const body: Item = {
    ...current,
    // What the UPDATE wrote (a move or a new assignee took the path above).
    ...fieldsJson(written, PATCHABLE_FIELDS),
    updated_at: iso(written.updated_at),
    completed_at: isoOrNull(written.completed_at),
    version: written.version,
    parent: current.parent && {
      ...current.parent,
      status: plan.get(current.parent.id)?.status ?? current.parent.status,
    },
    completed_count: needsFamily
      ? children.filter((c) => (plan.get(c.id)?.status ?? c.status) === 'completed').length
      : current.completed_count,
  };
  return { status: 200, body, formerViewers };
}

/**
 * Locks the family of `id` and checks that `actor` may delete it now (the delete's own checks, also
 * run by each step of a delete in steps, cascadeSteps.ts): the item and its family's top.
 */
export async function assertDeletable(
  tx: Executor,
  actor: UserRow,
  id: number,
  ifMatch: number | undefined,
): Promise<{ root: number; current: Item }> {
  const root = await lockVisibleFamily(tx, actor.id, id);
  if (root === null) throw notFound();
  const current = await findVisibleItem(tx, actor.id, id);
  if (!current) throw notFound();
  assertVersion(current, ifMatch);
  await assertRoleAllows(tx, actor.id, root, 'edit');
  await assertMayDelete(tx, actor, current, root, DELETE_FORBIDDEN);
  return { root, current };
}

/**
 * Soft-deletes an item and everything under it; only its creator or its top-level item's creator may.
 * `stamp`: the `deleted_at` steps before it gave the descendants they deleted (P7), else now().
 */
export async function deleteItem(
  tx: Executor,
  actor: UserRow,
  id: number,
  ifMatch: number | undefined,
  stamp: string | null = null,
): Promise<WriteResult> {
  const { root, current } = await assertDeletable(tx, actor, id, ifMatch);
  await tx.execute(
    sql`UPDATE items SET deleted_at = COALESCE(${stamp}::timestamptz, now()), deleted_by = ${actor.id},
          updated_at = now(), version = version + 1, ${CHANGE}
        WHERE deleted_at IS NULL AND (id = ${id} OR parent_id = ${id}
          OR parent_id IN (SELECT c.id FROM items c WHERE c.parent_id = ${id}))`,
  );
  if (current.parent_id !== null) {
    const family = await loadFamilies(tx, [root]);
    const plan = planStatusChanges(family.map(toStatusNode), new Map(), new Date().toISOString(), [
      current.parent_id,
    ]);
    await applyStatusPlan(tx, actor, family, plan, null);
  }
  if (current.type === 'campaign') await revokeInvitesOf(tx, id);
  await recordActivity(tx, {
    actor,
    action: 'deleted',
    item: { id, type: current.type, title: current.title },
    rootId: root,
  });
  return ok(204, null);
}

/**
 * Undoes a delete (issue 14): the item and the descendants its delete took along (the rows sharing
 * its `deleted_at`) come back with the same ids and uuids, newly stamped so every viewer's next pull
 * sends them again (L6); the parent rolls up again. Restoring a live item changes nothing.
 */
export async function restoreItem(
  tx: Executor,
  actor: UserRow,
  id: number,
  /** P7: the item alone; steps after it bring its descendants back (cascadeSteps.ts). */
  itemOnly = false,
): Promise<WriteResult> {
  const root = await rootOf(tx, id);
  await lockFamilies(tx, [root]);
  const found = await restoreRefusal(tx, actor.id, id);
  if (found.kind === 'live') return ok(200, await findItem(tx, actor.id, id));
  // §4: restore is for whoever may delete it; to everyone else it is not there (404, as unknown).
  if (!(await mayDelete(tx, actor, found.item, root))) throw notFound();
  await assertRoleAllows(tx, actor.id, root, 'restore');
  // F5: an item whose parent stays in someone else's trash comes back where the caller sees it
  // (restoreRefusal chose the place): its own family from then on, or the campaign above.
  const parentId = found.item.parent_id;
  const [stored] = await rows<{ parent_id: number | null }>(
    tx,
    sql`SELECT parent_id FROM items WHERE id = ${id}`,
  );
  const relocated = (stored?.parent_id ?? null) !== parentId;
  if (relocated) await tx.execute(sql`UPDATE items SET parent_id = ${parentId} WHERE id = ${id}`);
  const newRoot = parentId === null ? id : relocated ? parentId : root;
  const together = itemOnly ? sql`id = ${id} AND ${deletedTogether(id)}` : deletedTogether(id);
  // K14: the children of what comes back are sent again too (a device drops them with a tombstone).
  await resendChildren(tx, sql`SELECT id FROM items WHERE ${together}`);
  await tx.execute(
    sql`UPDATE items SET deleted_at = NULL, deleted_by = NULL, updated_at = now(), version = version + 1, ${CHANGE}
        WHERE ${together}`,
  );
  if (parentId !== null) {
    const family = await loadFamilies(tx, [newRoot]);
    const plan = planStatusChanges(family.map(toStatusNode), new Map(), new Date().toISOString(), [parentId]);
    await applyStatusPlan(tx, actor, family, plan, null);
  }
  await recordActivity(tx, { actor, action: 'restored', item: found.item, rootId: newRoot });
  return ok(200, await findItem(tx, actor.id, id));
}
