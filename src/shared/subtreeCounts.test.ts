import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ProgressNode, subtreeProgress } from './progress';
import {
  addCounts,
  type CountedNode,
  contributionOf,
  countsFromScratch,
  insideFromCounts,
  NO_COUNTS,
  progressFromCounts,
} from './subtreeCounts';

const TYPES = ['campaign', 'task', 'todo'] as const;
const STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** A forest: each node's parent is an earlier node or none, any type under any (no cycles). */
const FOREST = fc
  .array(
    fc.record({
      parent: fc.option(fc.nat(30), { nil: null }),
      type: fc.constantFrom(...TYPES),
      status: fc.constantFrom(...STATUSES),
    }),
    { maxLength: 40 },
  )
  .map((specs) =>
    specs.map(
      (s, i): CountedNode => ({
        id: i + 1,
        parent_id: s.parent === null || i === 0 ? null : (s.parent % i) + 1,
        type: s.type,
        status: s.status,
      }),
    ),
  );

/** What subtreeProgressOf loaded for one id: its children, and the children of its task children. */
function twoLevels(nodes: readonly CountedNode[], id: number): CountedNode[] {
  const children = nodes.filter((n) => n.parent_id === id);
  const tasks = new Set(children.filter((c) => c.type === 'task').map((c) => c.id));
  return [...children, ...nodes.filter((n) => n.parent_id !== null && tasks.has(n.parent_id))];
}

describe('subtree counts (one key read instead of a subtree)', () => {
  it('give exactly the progress subtreeProgress counts over the two levels read, and the open items inside', () => {
    fc.assert(
      fc.property(FOREST, (nodes) => {
        const counts = countsFromScratch(nodes);
        for (const node of nodes) {
          const read = twoLevels(nodes, node.id);
          const c = counts.get(node.id) ?? NO_COUNTS;
          expect(progressFromCounts(c)).toEqual(subtreeProgress(read as ProgressNode[], node.id));
          expect(insideFromCounts(c)).toEqual({
            inside: read.length,
            open: read.filter((r) => r.status !== 'completed').length,
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a task with todos counts through them; one without counts once', () => {
    const nodes: CountedNode[] = [
      { id: 1, parent_id: null, type: 'campaign', status: 'pending' },
      { id: 2, parent_id: 1, type: 'task', status: 'pending' },
      { id: 3, parent_id: 2, type: 'todo', status: 'completed' },
      { id: 4, parent_id: 2, type: 'todo', status: 'completed' },
      { id: 5, parent_id: 2, type: 'todo', status: 'pending' },
      { id: 6, parent_id: 1, type: 'task', status: 'completed' },
    ];
    expect(progressFromCounts(countsFromScratch(nodes).get(1)!)).toMatchObject({ total: 4, completed: 3 });
  });

  it('removing a contribution undoes adding it', () => {
    fc.assert(
      fc.property(FOREST, fc.constantFrom(...TYPES), fc.constantFrom(...STATUSES), (nodes, type, status) => {
        const own = countsFromScratch(nodes).get(1);
        const start = countsFromScratch(nodes).get(2) ?? NO_COUNTS;
        const c = contributionOf({ type, status }, own);
        expect(addCounts(addCounts(start, c), c, -1)).toEqual(start);
      }),
    );
  });
});
