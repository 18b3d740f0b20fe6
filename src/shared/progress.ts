/** Completion figures for a parent: rounded percent and how many remain. */
export function progressOf(total: number, completed: number): { percent: number; remaining: number } {
  if (total <= 0) return { percent: 0, remaining: 0 };
  const done = Math.min(Math.max(completed, 0), total);
  return { percent: Math.round((done / total) * 100), remaining: total - done };
}

export interface ProgressNode {
  id: number;
  parent_id: number | null;
  status: string;
}

export interface SubtreeProgress {
  total: number;
  completed: number;
  percent: number;
  remaining: number;
}

/**
 * Progress through the whole subtree of `rootId`, counted in units of work: every descendant without
 * children of its own (a todo, or a task with no todos) counts once, completed ones as done; a task
 * with todos counts through them (its own status follows theirs). A campaign whose only task is 2 of
 * 3 done is then '2 of 3 done', not '0 of 1'. `nodes` may hold anything; only the root's descendants
 * count.
 */
export function subtreeProgress(nodes: readonly ProgressNode[], rootId: number): SubtreeProgress {
  const children = new Map<number, ProgressNode[]>();
  for (const node of nodes) {
    if (node.parent_id === null) continue;
    const list = children.get(node.parent_id) ?? [];
    list.push(node);
    children.set(node.parent_id, list);
  }
  let total = 0;
  let completed = 0;
  const seen = new Set<number>([rootId]);
  const stack = [...(children.get(rootId) ?? [])];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    const kids = children.get(node.id) ?? [];
    if (kids.length > 0) {
      stack.push(...kids);
      continue;
    }
    total += 1;
    if (node.status === 'completed') completed += 1;
  }
  return { total, completed, ...progressOf(total, completed) };
}
