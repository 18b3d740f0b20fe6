import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ProgressNode, progressOf, subtreeProgress } from './progress';

const n = (id: number, parent_id: number | null, status = 'pending'): ProgressNode => ({
  id,
  parent_id,
  status,
});

describe('progressOf', () => {
  it('rounds the percentage and counts what remains', () => {
    expect(progressOf(3, 2)).toEqual({ percent: 67, remaining: 1 });
    expect(progressOf(0, 0)).toEqual({ percent: 0, remaining: 0 });
  });
});

describe('subtreeProgress', () => {
  it('counts a task’s todos under its campaign (the issue: 2 of 3, not 0 of 1)', () => {
    const nodes = [n(1, null), n(2, 1, 'in_progress'), n(3, 2, 'completed'), n(4, 2, 'completed'), n(5, 2)];
    expect(subtreeProgress(nodes, 1)).toEqual({ total: 3, completed: 2, percent: 67, remaining: 1 });
    expect(subtreeProgress(nodes, 2)).toMatchObject({ total: 3, completed: 2 });
  });

  it('counts a task without todos and a todo directly under the campaign as one unit each', () => {
    const nodes = [n(1, null), n(2, 1, 'completed'), n(3, 1), n(4, 1, 'in_progress'), n(5, 4, 'completed')];
    expect(subtreeProgress(nodes, 1)).toMatchObject({ total: 3, completed: 2, percent: 67 });
  });

  it('is empty for a leaf and ignores items outside the subtree', () => {
    expect(subtreeProgress([n(1, null), n(2, null, 'completed')], 1)).toEqual({
      total: 0,
      completed: 0,
      percent: 0,
      remaining: 0,
    });
  });

  it('counts each leaf below the root exactly once, done never above total', () => {
    const tree = fc
      .array(fc.record({ parent: fc.nat(), done: fc.boolean() }), { minLength: 1, maxLength: 20 })
      .map((specs) =>
        specs.map((s, i) => n(i + 1, i === 0 ? null : (s.parent % i) + 1, s.done ? 'completed' : 'pending')),
      );
    fc.assert(
      fc.property(tree, (nodes) => {
        const p = subtreeProgress(nodes, 1);
        const parents = new Set(nodes.map((x) => x.parent_id));
        const leaves = nodes.filter((x) => x.id !== 1 && !parents.has(x.id));
        expect(p.total).toBe(leaves.length);
        expect(p.completed).toBe(leaves.filter((x) => x.status === 'completed').length);
        expect(p.completed + p.remaining).toBe(p.total);
        expect(p.percent).toBeGreaterThanOrEqual(0);
        expect(p.percent).toBeLessThanOrEqual(100);
      }),
    );
  });
});
