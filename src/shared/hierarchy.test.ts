import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALLOWED_PARENT_TYPES, type HierarchyNode, hierarchyError } from './hierarchy';
import { ITEM_TYPES, type ItemType } from './item';

const type = fc.constantFrom(...ITEM_TYPES);

type Op =
  | { kind: 'create'; type: ItemType; parent: number | null }
  | { kind: 'move'; node: number; parent: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), type, parent: fc.option(fc.nat(), { nil: null }) }),
  fc.record({
    kind: fc.constant('move' as const),
    node: fc.nat(),
    parent: fc.option(fc.nat(), { nil: null }),
  }),
);

/** The parent's ancestors, nearest first, as the server passes them (bounded, in case of a cycle). */
function ancestorsOf(nodes: Map<number, HierarchyNode>, parent: HierarchyNode): HierarchyNode[] {
  const out: HierarchyNode[] = [];
  let current = parent.parent_id === null ? undefined : nodes.get(parent.parent_id);
  while (current && out.length <= nodes.size) {
    out.push(current);
    current = current.parent_id === null ? undefined : nodes.get(current.parent_id);
  }
  return out;
}

/** Builds a forest by applying only the moves hierarchyError accepts. */
function build(ops: readonly Op[]): Map<number, HierarchyNode> {
  const nodes = new Map<number, HierarchyNode>();
  const pick = (n: number | null) =>
    n === null || nodes.size === 0 ? null : [...nodes.values()][n % nodes.size]!;
  for (const step of ops) {
    const parent = pick(step.parent);
    if (step.kind === 'create') {
      if (hierarchyError({ type: step.type }, parent, parent ? ancestorsOf(nodes, parent) : []) !== null)
        continue;
      const id = nodes.size + 1;
      nodes.set(id, { id, type: step.type, parent_id: parent?.id ?? null });
    } else {
      const node = pick(step.node);
      if (!node) continue;
      if (hierarchyError(node, parent, parent ? ancestorsOf(nodes, parent) : []) !== null) continue;
      nodes.set(node.id, { ...node, parent_id: parent?.id ?? null });
    }
  }
  return nodes;
}

describe('hierarchyError', () => {
  it('builds only trees without cycles and at most three deep, whatever moves are tried', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const nodes = build(ops);
        for (const node of nodes.values()) {
          const chain = new Set<number>([node.id]);
          let current = node;
          while (current.parent_id !== null) {
            expect(chain.has(current.parent_id), `cycle through ${current.parent_id}`).toBe(false);
            chain.add(current.parent_id);
            const parent = nodes.get(current.parent_id);
            expect(parent, 'a parent that exists').toBeDefined();
            if (!parent) break;
            expect(ALLOWED_PARENT_TYPES[current.type] as readonly ItemType[]).toContain(parent.type);
            current = parent;
          }
          expect(chain.size).toBeLessThanOrEqual(3);
        }
      }),
    );
  });

  it('accepts every item at the top level', () => {
    fc.assert(
      fc.property(type, (t) => {
        expect(hierarchyError({ type: t }, null)).toBeNull();
      }),
    );
  });

  it('refuses a campaign under anything, a task under a task or todo, and a todo under a todo', () => {
    const parent = (t: ItemType): HierarchyNode => ({ id: 10, type: t, parent_id: null });
    for (const t of ITEM_TYPES) expect(hierarchyError({ type: 'campaign' }, parent(t))).toMatch(/campaign/);
    expect(hierarchyError({ type: 'task' }, parent('task'))).toEqual(expect.any(String));
    expect(hierarchyError({ type: 'task' }, parent('todo'))).toEqual(expect.any(String));
    expect(hierarchyError({ type: 'todo' }, parent('todo'))).toEqual(expect.any(String));
    expect(hierarchyError({ type: 'task' }, parent('campaign'))).toBeNull();
    expect(hierarchyError({ type: 'todo' }, parent('task'))).toBeNull();
    expect(hierarchyError({ type: 'todo' }, parent('campaign'))).toBeNull();
  });

  it('refuses placing an item under itself or under its own descendant', () => {
    const task: HierarchyNode = { id: 2, type: 'task', parent_id: 1 };
    expect(hierarchyError({ id: 2, type: 'task' }, { ...task, type: 'campaign' })).toMatch(/itself/);
    const campaign: HierarchyNode = { id: 1, type: 'campaign', parent_id: null };
    expect(
      hierarchyError({ id: 1, type: 'task' }, { id: 5, type: 'campaign', parent_id: null }, [campaign]),
    ).toMatch(/itself/);
  });
});
