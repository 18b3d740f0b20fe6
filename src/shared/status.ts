import type { ItemStatus } from './item';

export interface StatusNode {
  id: number;
  parent_id: number | null;
  status: ItemStatus;
  completed_at: string | null;
}

export interface StatusChange {
  status: ItemStatus;
  completed_at: string | null;
}

/**
 * The status a parent takes from its children: all completed → completed; any started or
 * completed → in_progress; all pending → as it was, except a completed parent reopens to in_progress.
 */
export function rolledUpStatus(current: ItemStatus, children: readonly ItemStatus[]): ItemStatus {
  if (children.length === 0) return current;
  if (children.every((s) => s === 'completed')) return 'completed';
  if (children.some((s) => s !== 'pending')) return 'in_progress';
  return current === 'completed' ? 'in_progress' : current;
}

/**
 * The one `completed_at` rule: an item completed keeps the time it was first completed (or now), and
 * any other status clears it.
 */
export function completedAtFor(status: ItemStatus, previous: string | null, now: string): string | null {
  return status === 'completed' ? (previous ?? now) : null;
}

/**
 * True when a child taking `childStatus` (a new child, or one whose status changes) cannot change the
 * status of a parent that is `parentStatus`, whatever its other children are: a parent in progress
 * stays in progress while any child is open. The server then skips loading the family for roll-up.
 */
export function parentKeepsStatus(parentStatus: ItemStatus, childStatus: ItemStatus): boolean {
  return parentStatus === 'in_progress' && childStatus !== 'completed';
}

function withStatus(node: StatusNode, status: ItemStatus, now: string): StatusChange {
  return { status, completed_at: completedAtFor(status, node.completed_at, now) };
}

/**
 * Every status change that follows from the tree's current state: `direct` sets statuses explicitly
 * (completing an item completes its descendants; reopening reopens none), then every ancestor of a
 * changed or `touched` parent is rolled up. `nodes` must hold the whole family (root and descendants).
 * Returns only the nodes whose status or completed_at actually changed.
 */
export function planStatusChanges(
  nodes: readonly StatusNode[],
  direct: ReadonlyMap<number, ItemStatus>,
  now: string,
  touchedParents: readonly (number | null)[] = [],
): Map<number, StatusChange> {
  const byId = new Map<number, StatusNode>();
  const children = new Map<number, number[]>();
  for (const node of nodes) {
    byId.set(node.id, { ...node });
    if (node.parent_id !== null) {
      const list = children.get(node.parent_id) ?? [];
      list.push(node.id);
      children.set(node.parent_id, list);
    }
  }
  const changes = new Map<number, StatusChange>();
  const set = (id: number, status: ItemStatus) => {
    const node = byId.get(id);
    if (!node || node.status === status) return;
    const change = withStatus(node, status, now);
    node.status = change.status;
    node.completed_at = change.completed_at;
    changes.set(id, change);
  };

  const pendingParents = new Set<number>();
  for (const parent of touchedParents) if (parent !== null) pendingParents.add(parent);
  for (const [id, status] of direct) {
    set(id, status);
    if (status === 'completed') {
      const stack = [...(children.get(id) ?? [])];
      while (stack.length > 0) {
        const next = stack.pop()!;
        set(next, 'completed');
        stack.push(...(children.get(next) ?? []));
      }
    }
    const parent = byId.get(id)?.parent_id;
    if (parent != null) pendingParents.add(parent);
  }

  // Roll up from the deepest touched parent upward; depth is at most three, so this stays tiny.
  const depth = (id: number): number => {
    let d = 0;
    let cur = byId.get(id);
    while (cur?.parent_id != null && d < 16) {
      d += 1;
      cur = byId.get(cur.parent_id);
    }
    return d;
  };
  const queue = [...pendingParents].sort((a, b) => depth(b) - depth(a));
  const seen = new Set<number>();
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const node = byId.get(id);
    if (!node) continue;
    const kids = (children.get(id) ?? []).map((k) => byId.get(k)!.status);
    set(id, rolledUpStatus(node.status, kids));
    if (node.parent_id !== null) queue.push(node.parent_id);
  }

  // A node set back to its original value is not a change. Looked up, not searched: a cascade over
  // 10,000 children searched the family 10,000 times (issue 29 F0).
  const originals = new Map(nodes.map((n) => [n.id, n]));
  for (const [id, change] of changes) {
    const original = originals.get(id);
    if (original && original.status === change.status && original.completed_at === change.completed_at) {
      changes.delete(id);
    }
  }
  return changes;
}

/**
 * What a consistent Reopen of `rootId` sends, as direct statuses for planStatusChanges (each may
 * also be sent alone: they lie in disjoint subtrees). Reopening a parent alone (the contract above: it
 * reopens no descendant) leaves it open over a subtree that is all done ('pending · 2 of 2 done ·
 * 100%'). So when every child of a completed item is completed, Reopen undoes the last completion
 * instead: the children completed last (latest `completed_at` — those the cascade or the final tick
 * completed) are reopened, by the same rule below them, and the roll-up puts every parent above them
 * back in progress. An item that is not completed, has no children or has an open child is set to
 * `to` itself.
 */
export function reopenDirect(
  nodes: readonly StatusNode[],
  rootId: number,
  to: Exclude<ItemStatus, 'completed'> = 'pending',
): Map<number, ItemStatus> {
  const children = new Map<number, StatusNode[]>();
  for (const node of nodes) {
    if (node.parent_id === null) continue;
    const list = children.get(node.parent_id) ?? [];
    list.push(node);
    children.set(node.parent_id, list);
  }
  const root = nodes.find((n) => n.id === rootId);
  const direct = new Map<number, ItemStatus>();
  if (!root) return direct;
  const walk = (node: StatusNode, depth: number) => {
    const kids = children.get(node.id) ?? [];
    const allDone = kids.length > 0 && kids.every((k) => k.status === 'completed');
    if (node.status !== 'completed' || !allDone || depth > 16) {
      direct.set(node.id, node.id === rootId ? to : 'pending');
      return;
    }
    // ISO times order as strings; the latest is the last in sort order.
    const latest = kids
      .map((k) => k.completed_at ?? '')
      .sort()
      .at(-1);
    for (const kid of kids) if ((kid.completed_at ?? '') === latest) walk(kid, depth + 1);
  };
  walk(root, 0);
  return direct;
}
