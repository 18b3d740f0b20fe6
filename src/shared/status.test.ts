import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_STATUSES, type ItemStatus } from './item';
import {
  parentKeepsStatus,
  planStatusChanges,
  reopenDirect,
  rolledUpStatus,
  type StatusChange,
  type StatusNode,
} from './status';

const status = fc.constantFrom(...ITEM_STATUSES);
const EARLIER = '2024-01-01T00:00:00.000Z';
const NOW = '2025-06-01T12:00:00.000Z';
const LATER = '2026-01-01T00:00:00.000Z';

/**
 * A random family of up to 12 items, at most three deep, whose parents already agree with their
 * children (as the server keeps them): built bottom-up with rolledUpStatus.
 */
const family: fc.Arbitrary<StatusNode[]> = fc
  .array(fc.record({ parent: fc.nat(), status, keepsOwn: status }), { minLength: 1, maxLength: 12 })
  .map((specs) => {
    const nodes: StatusNode[] = [];
    const depth: number[] = [];
    specs.forEach((spec, i) => {
      const candidate = i === 0 ? null : spec.parent % (i + 1);
      const parent = candidate === null || candidate === i || (depth[candidate] ?? 0) >= 2 ? null : candidate;
      depth[i] = parent === null ? 0 : (depth[parent] ?? 0) + 1;
      nodes.push({
        id: i + 1,
        parent_id: parent === null ? null : parent + 1,
        status: spec.status,
        completed_at: null,
      });
    });
    // Settle parents from the deepest level up, so the starting tree is consistent.
    for (const level of [1, 0]) {
      nodes.forEach((node, i) => {
        if (depth[i] !== level) return;
        const kids = nodes.filter((n) => n.parent_id === node.id).map((n) => n.status);
        node.status = rolledUpStatus(specs[i]?.keepsOwn ?? node.status, kids);
      });
    }
    for (const node of nodes) node.completed_at = node.status === 'completed' ? EARLIER : null;
    return nodes;
  });

const apply = (nodes: readonly StatusNode[], plan: Map<number, StatusChange>): StatusNode[] =>
  nodes.map((n) => ({ ...n, ...(plan.get(n.id) ?? {}) }));

const childrenOf = (nodes: readonly StatusNode[], id: number) => nodes.filter((n) => n.parent_id === id);

function ancestorsOf(nodes: readonly StatusNode[], id: number): StatusNode[] {
  const out: StatusNode[] = [];
  let current = nodes.find((n) => n.id === id);
  while (current?.parent_id != null) {
    const parent = nodes.find((n) => n.id === current?.parent_id);
    if (!parent) break;
    out.push(parent);
    current = parent;
  }
  return out;
}

function descendantsOf(nodes: readonly StatusNode[], id: number): StatusNode[] {
  const out: StatusNode[] = [];
  const stack = childrenOf(nodes, id);
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(...childrenOf(nodes, next.id));
  }
  return out;
}

/** A family, one of its items, and the status that item is set to. */
const scenario = family.chain((nodes) =>
  fc.record({ nodes: fc.constant(nodes), target: fc.constantFrom(...nodes.map((n) => n.id)), to: status }),
);

describe('rolledUpStatus', () => {
  it('is completed exactly when every child is completed', () => {
    fc.assert(
      fc.property(status, fc.array(status, { minLength: 1, maxLength: 8 }), (current, children) => {
        const result = rolledUpStatus(current, children);
        expect(result === 'completed').toBe(children.every((s) => s === 'completed'));
      }),
    );
  });

  it('is in progress when some but not all children are started or completed', () => {
    fc.assert(
      fc.property(status, fc.array(status, { minLength: 1, maxLength: 8 }), (current, children) => {
        fc.pre(children.some((s) => s !== 'pending') && !children.every((s) => s === 'completed'));
        expect(rolledUpStatus(current, children)).toBe('in_progress');
      }),
    );
  });

  it('keeps the status of an item without children', () => {
    fc.assert(
      fc.property(status, (current) => {
        expect(rolledUpStatus(current, [])).toBe(current);
      }),
    );
  });

  it('never leaves a completed parent completed over a pending child', () => {
    expect(rolledUpStatus('completed', ['pending', 'pending'])).toBe('in_progress');
    expect(rolledUpStatus('pending', ['pending'])).toBe('pending');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(status, fc.array(status, { maxLength: 8 }), (current, children) => {
        const once = rolledUpStatus(current, children);
        expect(rolledUpStatus(once, children)).toBe(once);
      }),
    );
  });
});

describe('planStatusChanges', () => {
  it('leaves every ancestor of a changed item completed exactly when all its children are', () => {
    fc.assert(
      fc.property(scenario, ({ nodes, target, to }) => {
        const after = apply(nodes, planStatusChanges(nodes, new Map([[target, to]]), NOW));
        for (const ancestor of ancestorsOf(after, target)) {
          const kids = childrenOf(after, ancestor.id);
          expect(ancestor.status === 'completed', `item ${ancestor.id}`).toBe(
            kids.every((k) => k.status === 'completed'),
          );
        }
      }),
    );
  });

  it('sets completed_at with completed and clears it otherwise, keeping an earlier completion time', () => {
    fc.assert(
      fc.property(scenario, ({ nodes, target, to }) => {
        const plan = planStatusChanges(nodes, new Map([[target, to]]), NOW);
        for (const [id, change] of plan) {
          if (change.status === 'completed') expect(change.completed_at, `item ${id}`).toBe(NOW);
          else expect(change.completed_at, `item ${id}`).toBeNull();
        }
        const after = apply(nodes, plan);
        for (const node of after) {
          if (node.status === 'completed') expect([EARLIER, NOW]).toContain(node.completed_at);
          else expect(node.completed_at).toBeNull();
        }
      }),
    );
  });

  it('changes nothing when the plan is applied a second time', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.nat(), { maxLength: 3 }), ({ nodes, target, to }, touched) => {
        // As on the server: the parents a move leaves and joins, never the item itself or one under it.
        const own = new Set([target, ...descendantsOf(nodes, target).map((n) => n.id)]);
        const candidates = nodes.filter((n) => !own.has(n.id));
        const touchedParents = touched.map((t) => candidates[t % Math.max(candidates.length, 1)]?.id ?? null);
        const direct = new Map([[target, to]]);
        const once = apply(nodes, planStatusChanges(nodes, direct, NOW, touchedParents));
        expect(planStatusChanges(once, direct, LATER, touchedParents)).toEqual(new Map());
      }),
    );
  });

  it('completing an item completes its whole subtree', () => {
    fc.assert(
      fc.property(scenario, ({ nodes, target }) => {
        const after = apply(nodes, planStatusChanges(nodes, new Map([[target, 'completed']]), NOW));
        expect(after.find((n) => n.id === target)?.status).toBe('completed');
        for (const node of descendantsOf(after, target)) {
          expect(node.status, `item ${node.id}`).toBe('completed');
          expect(node.completed_at).not.toBeNull();
        }
      }),
    );
  });

  it('reopening or starting an item changes none of its descendants', () => {
    fc.assert(
      fc.property(
        scenario,
        fc.constantFrom<ItemStatus>('pending', 'in_progress'),
        ({ nodes, target }, to) => {
          const plan = planStatusChanges(nodes, new Map([[target, to]]), NOW);
          for (const node of descendantsOf(nodes, target))
            expect(plan.has(node.id), `item ${node.id}`).toBe(false);
          expect(apply(nodes, plan).find((n) => n.id === target)?.status).toBe(to);
        },
      ),
    );
  });

  it('touches nothing outside the changed item, its subtree and its ancestors', () => {
    fc.assert(
      fc.property(scenario, ({ nodes, target, to }) => {
        const plan = planStatusChanges(nodes, new Map([[target, to]]), NOW);
        const allowed = new Set([
          target,
          ...descendantsOf(nodes, target).map((n) => n.id),
          ...ancestorsOf(nodes, target).map((n) => n.id),
        ]);
        for (const id of plan.keys()) expect(allowed.has(id), `item ${id}`).toBe(true);
      }),
    );
  });

  it('puts a completed parent in progress when a pending child joins it', () => {
    const nodes: StatusNode[] = [
      { id: 1, parent_id: null, status: 'completed', completed_at: EARLIER },
      { id: 2, parent_id: 1, status: 'completed', completed_at: EARLIER },
      { id: 3, parent_id: 1, status: 'pending', completed_at: null },
    ];
    expect(planStatusChanges(nodes, new Map(), NOW, [1])).toEqual(
      new Map([[1, { status: 'in_progress', completed_at: null }]]),
    );
  });
});

describe('parentKeepsStatus', () => {
  it('holds only when the roll-up leaves the parent as it is, whatever its other children', () => {
    fc.assert(
      fc.property(status, status, fc.array(status, { maxLength: 8 }), (parent, child, siblings) => {
        fc.pre(parentKeepsStatus(parent, child));
        expect(rolledUpStatus(parent, [...siblings, child])).toBe(parent);
      }),
    );
  });
});

describe('reopenDirect', () => {
  /** The family after the target was completed (the cascade), then reopened the consistent way. */
  const reopened = (nodes: readonly StatusNode[], target: number) => {
    const done = apply(nodes, planStatusChanges(nodes, new Map([[target, 'completed']]), NOW));
    const direct = reopenDirect(done, target);
    return { done, direct, after: apply(done, planStatusChanges(done, direct, LATER)) };
  };

  it('leaves no parent open over an all-done subtree, nor done over an open child', () => {
    fc.assert(
      fc.property(scenario, ({ nodes, target }) => {
        const { after } = reopened(nodes, target);
        expect(after.find((n) => n.id === target)?.status).not.toBe('completed');
        const family = [target, ...ancestorsOf(after, target).map((n) => n.id)];
        for (const node of descendantsOf(after, target)) family.push(node.id);
        for (const id of family) {
          const kids = childrenOf(after, id);
          if (kids.length === 0) continue;
          const node = after.find((n) => n.id === id)!;
          expect(node.status === 'completed', `item ${id}`).toBe(kids.every((k) => k.status === 'completed'));
        }
      }),
    );
  });

  it('gives the same tree when its changes are sent one at a time', () => {
    fc.assert(
      fc.property(scenario, ({ nodes, target }) => {
        const { done, direct, after } = reopened(nodes, target);
        let step = done;
        for (const [id, to] of direct)
          step = apply(step, planStatusChanges(step, new Map([[id, to]]), LATER));
        expect(step.map((n) => n.status)).toEqual(after.map((n) => n.status));
      }),
    );
  });

  it('touches only what the last completion completed', () => {
    const nodes: StatusNode[] = [
      { id: 1, parent_id: null, status: 'completed', completed_at: NOW },
      { id: 2, parent_id: 1, status: 'completed', completed_at: EARLIER },
      { id: 3, parent_id: 1, status: 'completed', completed_at: NOW },
      { id: 4, parent_id: 3, status: 'completed', completed_at: EARLIER },
      { id: 5, parent_id: 3, status: 'completed', completed_at: NOW },
    ];
    expect(reopenDirect(nodes, 1)).toEqual(new Map([[5, 'pending']]));
    const after = apply(nodes, planStatusChanges(nodes, reopenDirect(nodes, 1), LATER));
    expect(after.map((n) => n.status)).toEqual([
      'in_progress',
      'completed',
      'in_progress',
      'completed',
      'pending',
    ]);
  });

  it('sets an item without children, or with an open child, directly', () => {
    const nodes: StatusNode[] = [
      { id: 1, parent_id: null, status: 'completed', completed_at: NOW },
      { id: 2, parent_id: null, status: 'in_progress', completed_at: null },
      { id: 3, parent_id: 2, status: 'pending', completed_at: null },
    ];
    expect(reopenDirect(nodes, 1)).toEqual(new Map([[1, 'pending']]));
    expect(reopenDirect(nodes, 2)).toEqual(new Map([[2, 'pending']]));
  });
});
