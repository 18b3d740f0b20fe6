import { type HierarchyNode, hierarchyError } from '../../shared/hierarchy';
import { type ItemStatus, PATCHABLE_FIELDS, type PatchableField, type UserSummary } from '../../shared/item';
import { createPayload } from '../../shared/protocol';
import type { ItemCreateInput, ItemPatch, ItemPatchInput } from '../../shared/schemas';
import { completedAtFor, reopenDirect } from '../../shared/status';
import { ApiError } from './apiClient';
import { nextCounter, type OutpostDb } from './db';
import { applyLocalRollUp, baseOf, descendantIds, rootIdOf, summaryOf } from './localItems';
import type { PushOutcome } from './sync';
import { lastSeq, queueRow } from './syncQueue';
import { replacing } from './topLevel';
import type { LocalItem, QueueEntry, Viewer } from './types';

/** A local rule broken before anything is written (the screen shows it like a 422). */
export class ValidationError extends Error {
  readonly errors: Record<string, string[]>;
  constructor(errors: Record<string, string[]>) {
    super(Object.values(errors).flat()[0] ?? 'Invalid input.');
    this.name = 'ValidationError';
    this.errors = errors;
  }
}

export class NotFoundError extends Error {
  constructor(id: number) {
    super(`Item ${id} not found.`);
    this.name = 'NotFoundError';
  }
}

export interface RepositoryDeps {
  db: OutpostDb;
  viewer: () => Viewer & { user: UserSummary };
  /** Sends a just-queued entry now when possible (signed in and online); see SyncEngine.pushNow. */
  pushNow: (entryId: string) => Promise<PushOutcome>;
  now?: () => string;
}

export type ItemsRepository = ReturnType<typeof createItemsRepository>;

const TABLES = ['items', 'syncQueue', 'meta', 'users'] as const;

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

/** The item writes the screens call; each is one IndexedDB transaction with its queue entry. */
export function createItemsRepository(deps: RepositoryDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date().toISOString());

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

  async function assigneeSummary(userId: number | null): Promise<UserSummary | null> {
    if (userId === null) return null;
    return (await db.users.get(userId)) ?? null;
  }

  /**
   * W1: after the local transaction the write has succeeded, whatever the network does. It is sent at
   * once when signed in and online, so an online create answers with the server's item (the spec);
   * otherwise, or when the send fails, the answer is the stored pending copy, and the sync status
   * (badge, 'Pending sync', a toast if the change is finally dropped) reports the rest. Never throws.
   */
  async function finish(item: LocalItem, entry: QueueEntry | null): Promise<LocalItem> {
    if (!entry) return item;
    let outcome: PushOutcome = { kind: 'queued' };
    try {
      outcome = await deps.pushNow(entry.id);
    } catch {
      // The change is stored and queued; the next sync run sends it.
    }
    // Queued without a send (offline, or another run holds the lock): the stored copy is `item`.
    if (outcome.kind === 'queued') return item;
    const id = outcome.kind === 'done' ? outcome.itemId : item.id;
    return (await db.items.get(id)) ?? item;
  }

  /** Creates an item: a counter id for guests, a temporary negative id and a queued POST when signed in. */
  async function create(input: ItemCreateInput): Promise<LocalItem> {
    const { parent_id: rawParent, ...rest } = input;
    // zod loads on the first write, not with the first screen (bench/bundle.ts budgets that).
    const { itemCreateSchema } = await import('../../shared/schemas');
    const parsed = itemCreateSchema.safeParse(rest);
    if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
    const data = parsed.data;
    const viewer = deps.viewer();
    const parentId = localRef(rawParent);
    const { item, entry } = await db.transaction('rw', [...TABLES], async () => {
      const [, last] = await Promise.all([
        checkParent({ type: data.type }, parentId),
        viewer.isGuest ? 0 : lastSeq(db),
      ]);
      const id = viewer.isGuest
        ? await nextCounter(db, 'guestCounter')
        : -(await nextCounter(db, 'tempCounter'));
      const at = now();
      const owner = summaryOf(viewer.user);
      const assignedTo = data.assigned_to ?? null;
      const status: ItemStatus = data.status ?? 'pending';
      const item: LocalItem = {
        id,
        uuid: data.uuid ?? crypto.randomUUID(),
        title: data.title,
        description: data.description ?? null,
        type: data.type,
        status,
        user_id: viewer.userId,
        assigned_to: assignedTo,
        parent_id: parentId,
        due_date: data.due_date ?? null,
        end_date: data.end_date ?? null,
        remind_at: data.remind_at ?? null,
        created_at: at,
        updated_at: at,
        completed_at: completedAtFor(status, null, at),
        deleted_at: null,
        version: 1,
        created_by: owner,
        user: owner,
        assignedUser: await assigneeSummary(assignedTo),
        parent: null,
        children_count: 0,
        completed_count: 0,
        _syncStatus: viewer.isGuest ? 'local' : 'pending',
        _deleted: 0,
        _localVersion: 1,
        _conflict: null,
        _dirty: [],
        _base: null,
        _remote: null,
      };
      await db.items.put(item);
      if (parentId !== null) {
        const rolled = await applyLocalRollUp(db, [await rootIdOf(db, item)], new Map(), [parentId], at);
        await db.items.bulkPut([...rolled.values()].filter((i) => i.id !== item.id));
      }
      const entry = viewer.isGuest
        ? null
        : queueRow({ kind: 'create', data: createPayload(item), itemId: id, baseVersion: null }, last);
      if (entry) await db.syncQueue.add(entry);
      return { item, entry };
    });
    return finish(item, entry);
  }

  /**
   * Applies changed fields locally with the roll-up, and queues them. `request` overrides the queued
   * request (assign uses its own endpoint).
   */
  async function write(
    id: number,
    patch: ItemPatch,
    request?: { kind: 'assign'; data: Record<string, unknown> },
  ): Promise<LocalItem> {
    const viewer = deps.viewer();
    const { item, entry } = await db.transaction('rw', [...TABLES], async () => {
      // The queue's last seq is read alongside the item: one round trip, not two.
      const [current, last] = await Promise.all([db.items.get(id), viewer.isGuest ? 0 : lastSeq(db)]);
      if (!current || current._deleted === 1) throw new NotFoundError(id);
      const changed = (Object.keys(patch) as PatchableField[]).filter(
        (f) => PATCHABLE_FIELDS.includes(f) && (patch[f] ?? null) !== (current[f] ?? null),
      );
      if (changed.length === 0) return { item: current, entry: null };
      if (changed.includes('parent_id'))
        await checkParent({ id, type: current.type }, patch.parent_id ?? null);
      const at = now();
      let next: LocalItem = { ...current, updated_at: at, _localVersion: current._localVersion + 1 };
      for (const f of changed) (next as unknown as Record<string, unknown>)[f] = patch[f] ?? null;
      if (changed.includes('assigned_to')) next.assignedUser = await assigneeSummary(next.assigned_to);
      if (!viewer.isGuest) {
        next = {
          ...next,
          _syncStatus: 'pending',
          _base: baseOf(current),
          _dirty: [...new Set([...current._dirty, ...changed])],
        };
      }
      const direct = new Map<number, ItemStatus>(changed.includes('status') ? [[id, next.status]] : []);
      const touched = changed.includes('parent_id') ? [current.parent_id, next.parent_id] : [];
      // Only status and parent changes move the roll-up; a title edit skips loading the family.
      const rolls = direct.size > 0 || touched.length > 0;
      const roots = rolls ? [await rootIdOf(db, current), await rootIdOf(db, next)] : [];
      const rolled = rolls
        ? await applyLocalRollUp(db, roots, direct, touched, at, new Map([[id, next]]))
        : new Map<number, LocalItem>();
      const own = rolled.get(id);
      if (own) next = { ...next, status: own.status, completed_at: own.completed_at };
      else if (changed.includes('status'))
        next.completed_at = completedAtFor(next.status, current.completed_at, at);
      const puts = [replacing(next, current), ...[...rolled.values()].filter((i) => i.id !== id)];
      if (viewer.isGuest) {
        await db.items.bulkPut(puts);
        return { item: next, entry: null };
      }
      const data: Record<string, unknown> = {};
      for (const f of changed) data[f] = patch[f] ?? null;
      const entry = queueRow(
        {
          kind: request?.kind ?? 'update',
          data: request?.data ?? data,
          itemId: id,
          baseVersion: baseOf(current)?.version ?? null,
        },
        last,
      );
      // Both requests go out at once; the transaction commits only if both succeed.
      await Promise.all([db.items.bulkPut(puts), db.syncQueue.add(entry)]);
      return { item: next, entry };
    });
    return finish(item, entry);
  }

  /** Updates the given fields (the changed ones only are queued). */
  async function update(id: number, input: ItemPatchInput): Promise<LocalItem> {
    const { parent_id: rawParent, ...rest } = input;
    if (Object.keys(rest).length === 0) return write(id, { parent_id: localRef(rawParent) });
    const { itemPatchSchema } = await import('../../shared/schemas');
    const parsed = itemPatchSchema.safeParse(rest);
    if (!parsed.success) throw new ValidationError(zodErrors(parsed.error.issues));
    return write(id, 'parent_id' in input ? { ...parsed.data, parent_id: localRef(rawParent) } : parsed.data);
  }

  /** Sets a status directly (Start, Complete, Reopen); completing completes the descendants. */
  function setStatus(id: number, status: ItemStatus): Promise<LocalItem> {
    return write(id, { status });
  }

  /**
   * A person's status change from a screen. Reopening a completed item over a subtree that is all
   * done reopens what was completed last (shared reopenDirect), so status, counts and progress agree
   * ('pending · 2 of 2 done · 100%' never shows); every other change is `setStatus`.
   */
  async function changeStatus(id: number, status: ItemStatus): Promise<LocalItem> {
    const current = await db.items.get(id);
    if (status === 'completed' || current?.status !== 'completed') return setStatus(id, status);
    const below = await descendantIds(db, id);
    if (below.length === 0) return setStatus(id, status);
    const nodes = (await db.items.bulkGet([id, ...below])).filter(
      (i): i is LocalItem => i !== undefined && i._deleted === 0,
    );
    const direct = reopenDirect(nodes, id, status);
    let own: LocalItem | undefined;
    for (const [target, next] of direct) {
      const written = await setStatus(target, next);
      if (target === id) own = written;
    }
    return own ?? (await db.items.get(id)) ?? current;
  }

  /** A todo's icon: pending ↔ completed (an in-progress todo completes). */
  async function toggle(id: number): Promise<LocalItem> {
    const item = await db.items.get(id);
    if (!item) throw new NotFoundError(id);
    return setStatus(id, item.status === 'completed' ? 'pending' : 'completed');
  }

  /** Assigns to a user; 0 unassigns. Queued as POST /api/items/{id}/assign. */
  function assign(id: number, userId: number): Promise<LocalItem> {
    return write(
      id,
      { assigned_to: userId === 0 ? null : userId },
      { kind: 'assign', data: { user_id: userId } },
    );
  }

  /** Deletes an item and its descendants: at once for guests, marked and queued when signed in. */
  async function remove(id: number): Promise<void> {
    const viewer = deps.viewer();
    const entry = await db.transaction('rw', [...TABLES], async () => {
      const [current, last] = await Promise.all([db.items.get(id), viewer.isGuest ? 0 : lastSeq(db)]);
      if (!current || current._deleted === 1) throw new NotFoundError(id);
      const descendants = await descendantIds(db, id);
      const at = now();
      const root = await rootIdOf(db, current);
      if (viewer.isGuest) {
        await db.items.bulkDelete([id, ...descendants]);
      } else {
        const hidden = (await db.items.bulkGet(descendants)).filter((i): i is LocalItem => !!i);
        await db.items.bulkPut([
          {
            ...current,
            _deleted: 1,
            _syncStatus: 'pending',
            _base: baseOf(current),
            _localVersion: current._localVersion + 1,
          },
          ...hidden.map((i) => ({ ...i, _deleted: 1 as const })),
        ]);
      }
      if (current.parent_id !== null && root !== id) {
        const rolled = await applyLocalRollUp(db, [root], new Map(), [current.parent_id], at);
        await db.items.bulkPut([...rolled.values()]);
      }
      if (viewer.isGuest) return null;
      const entry = queueRow(
        { kind: 'delete', data: null, itemId: id, baseVersion: baseOf(current)?.version ?? null },
        last,
      );
      await db.syncQueue.add(entry);
      return entry;
    });
    if (!entry) return;
    // W1: stored and queued is done; the network is the sync status's business.
    await deps.pushNow(entry.id).catch(() => undefined);
  }

  return {
    create,
    update,
    remove,
    toggle,
    assign,
    setStatus,
    changeStatus,
    start: (id: number) => setStatus(id, 'in_progress'),
    complete: (id: number) => setStatus(id, 'completed'),
    reopen: (id: number) => setStatus(id, 'pending'),
  };
}

export { ApiError };
