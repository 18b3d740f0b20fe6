import { progressOf, type SubtreeProgress } from './progress';

/**
 * What a parent's progress needs, kept per parent so progress costs one key read instead of loading a
 * subtree (the client keeps one per parent and scope, src/client/src/client/data/store/counters.ts). Over the parent's
 * children (`n`, `done`: how many, how many completed) and, through its children of type task, their
 * children (`gn`, `gdone`); `tk`/`tkdone` are the task children that have children of their own (and
 * of those the completed ones): they are not units of work themselves, their children are.
 */
export interface ChildCounts {
  n: number;
  done: number;
  gn: number;
  gdone: number;
  tk: number;
  tkdone: number;
}

export const NO_COUNTS: Readonly<ChildCounts> = Object.freeze({
  n: 0,
  done: 0,
  gn: 0,
  gdone: 0,
  tk: 0,
  tkdone: 0,
});

const FIELDS = ['n', 'done', 'gn', 'gdone', 'tk', 'tkdone'] as const satisfies readonly (keyof ChildCounts)[];

export interface CountedNode {
  id: number;
  parent_id: number | null;
  type: string;
  status: string;
}

/** What one child adds to its parent's counts, given the child's own counts (its children). */
export function contributionOf(
  child: Pick<CountedNode, 'type' | 'status'>,
  own: Readonly<ChildCounts> | undefined,
): ChildCounts {
  const completed = child.status === 'completed' ? 1 : 0;
  // Only a task's children are looked through (as the two-level read of subtreeProgressOf did).
  const below = child.type === 'task' ? (own ?? NO_COUNTS) : NO_COUNTS;
  const parent = below.n > 0 ? 1 : 0;
  return { n: 1, done: completed, gn: below.n, gdone: below.done, tk: parent, tkdone: parent * completed };
}

/** `a + sign·b`, field by field. */
export function addCounts(a: Readonly<ChildCounts>, b: Readonly<ChildCounts>, sign: 1 | -1 = 1): ChildCounts {
  const out = { ...NO_COUNTS };
  for (const f of FIELDS) out[f] = a[f] + sign * b[f];
  return out;
}

/** True when both hold the same counts. */
export function sameCounts(a: Readonly<ChildCounts>, b: Readonly<ChildCounts>): boolean {
  return FIELDS.every((f) => a[f] === b[f]);
}

/** True when the parent has nothing counted (no row needs to be kept for it). */
export function isEmptyCounts(c: Readonly<ChildCounts>): boolean {
  return sameCounts(c, NO_COUNTS);
}

/**
 * Progress through the subtree in units of work, exactly as shared subtreeProgress counts it over the
 * children and the task children's children: every child without children counts once, a task with
 * children counts through them.
 */
export function progressFromCounts(c: Readonly<ChildCounts>): SubtreeProgress {
  const total = c.n - c.tk + c.gn;
  const completed = c.done - c.tkdone + c.gdone;
  return { total, completed, ...progressOf(total, completed) };
}

/** How many items sit inside (children and the task children's children), and how many are not completed. */
export function insideFromCounts(c: Readonly<ChildCounts>): { inside: number; open: number } {
  return { inside: c.n + c.gn, open: c.n - c.done + (c.gn - c.gdone) };
}

/** Every parent's counts computed from scratch over `nodes` (one scope, live ones only). */
export function countsFromScratch(nodes: readonly CountedNode[]): Map<number, ChildCounts> {
  const direct = new Map<number, ChildCounts>();
  const childrenOf = new Map<number, CountedNode[]>();
  for (const node of nodes) {
    if (node.parent_id === null || node.parent_id === 0) continue;
    const list = childrenOf.get(node.parent_id) ?? [];
    list.push(node);
    childrenOf.set(node.parent_id, list);
  }
  // First the children's own counts (n, done), then each parent from its children's contributions.
  for (const [parent, kids] of childrenOf) {
    const done = kids.filter((k) => k.status === 'completed').length;
    direct.set(parent, { ...NO_COUNTS, n: kids.length, done });
  }
  const out = new Map<number, ChildCounts>();
  for (const [parent, kids] of childrenOf) {
    let sum: ChildCounts = { ...NO_COUNTS };
    for (const kid of kids) sum = addCounts(sum, contributionOf(kid, direct.get(kid.id)));
    out.set(parent, sum);
  }
  return out;
}
