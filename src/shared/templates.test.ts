import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './dateOnly';
import type { ItemType } from './item';
import {
  countNodes,
  deriveUuid,
  instantiateEntries,
  kindProblem,
  type SnapshotItem,
  snapshotTree,
  TEMPLATE_MAX_NODES,
  type TemplateTree,
  templateTreeSchema,
  tooManyNodesMessage,
} from './templates';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const path = fc.array(fc.nat({ max: 1200 }), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

describe('deriveUuid', () => {
  it('is the same for the same request uuid and path, on any device', () => {
    fc.assert(
      fc.property(fc.uuid(), path, (request, p) => {
        expect(deriveUuid(request, p)).toBe(deriveUuid(request, p));
      }),
    );
  });

  it('differs for different paths, and for different request uuids', () => {
    fc.assert(
      fc.property(fc.uuid(), path, path, (request, a, b) => {
        fc.pre(a !== b);
        expect(deriveUuid(request, a)).not.toBe(deriveUuid(request, b));
      }),
    );
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), path, (one, other, p) => {
        fc.pre(one.toLowerCase() !== other.toLowerCase());
        expect(deriveUuid(one, p)).not.toBe(deriveUuid(other, p));
      }),
    );
  });

  it('has the RFC 4122 shape: version 5, variant 10', () => {
    fc.assert(
      fc.property(fc.uuid(), path, (request, p) => {
        expect(deriveUuid(request, p)).toMatch(UUID_SHAPE);
      }),
    );
  });
});

/** A random campaign: tasks and todos under it, with dates around 2030 and random sort keys. */
const campaignItems = fc
  .record({
    tasks: fc.array(
      fc.record({
        key: fc.string({ minLength: 1, maxLength: 3, unit: fc.constantFrom('a', 'b', 'c', 'd') }),
        due: fc.option(fc.integer({ min: -40, max: 40 }), { nil: null }),
        todos: fc.array(
          fc.record({
            key: fc.string({ minLength: 1, maxLength: 3, unit: fc.constantFrom('a', 'b', 'c', 'd') }),
            due: fc.option(fc.integer({ min: -40, max: 40 }), { nil: null }),
          }),
          { maxLength: 4 },
        ),
      }),
      { maxLength: 5 },
    ),
    due: fc.option(fc.integer({ min: -40, max: 40 }), { nil: null }),
  })
  .map(({ tasks, due }) => {
    let id = 1;
    const day = (n: number | null) => (n === null ? null : addDays('2030-06-15', n));
    const item = (type: ItemType, parent: number | null, d: number | null, key: string): SnapshotItem => ({
      id: id++,
      parent_id: parent,
      type,
      title: `${type} ${id}`,
      description: null,
      due_date: day(d),
      end_date: null,
      sort_key: key,
    });
    const root = item('campaign', null, due, 'a');
    const all: SnapshotItem[] = [root];
    for (const t of tasks) {
      const task = item('task', root.id, t.due, t.key);
      all.push(task);
      for (const d of t.todos) all.push(item('todo', task.id, d.due, d.key));
    }
    return { root, all };
  });

describe('snapshot and instantiate', () => {
  it('instantiating then snapshotting gives the same tree: order, types and offsets kept, dates moved by whole days', () => {
    fc.assert(
      fc.property(
        campaignItems,
        fc.integer({ min: -3000, max: 3000 }),
        fc.uuid(),
        ({ root, all }, shift, request) => {
          const tree = snapshotTree(root, all, 'campaign');
          expect(countNodes(tree)).toBe(all.length);
          expect(templateTreeSchema.safeParse(tree).success).toBe(true);
          const anchor = addDays('2030-06-15', shift);
          const entries = instantiateEntries(tree, {
            anchorDate: anchor,
            requestUuid: request,
            parentId: null,
          });
          // Back into items (ids by uuid, order by position), snapshotted again.
          const ids = new Map(entries.map((e, i) => [e.uuid, i + 1]));
          const made: SnapshotItem[] = entries.map((e, i) => ({
            id: i + 1,
            parent_id: e.parent_uuid ? (ids.get(e.parent_uuid) ?? null) : null,
            type: e.type,
            title: e.title as string,
            description: (e.description as string | null) ?? null,
            due_date: (e.due_date as string | null) ?? null,
            end_date: null,
            sort_key: `k${String(i).padStart(4, '0')}`,
          }));
          expect(snapshotTree(made[0]!, made, 'campaign')).toEqual(tree);
          // Parents come before their children, and every uuid is the path's.
          for (const [i, e] of entries.entries()) {
            if (e.parent_uuid) expect(ids.get(e.parent_uuid)!).toBeLessThan(i + 1);
          }
          expect(new Set(entries.map((e) => e.uuid)).size).toBe(entries.length);
        },
      ),
    );
  });

  it('anchors on the earliest start or due date: the earliest lands on the anchor', () => {
    fc.assert(
      fc.property(campaignItems, ({ root, all }) => {
        const dated = all.filter((i) => i.due_date !== null);
        fc.pre(dated.length > 0);
        const tree = snapshotTree(root, all, 'campaign');
        const entries = instantiateEntries(tree, {
          anchorDate: '2040-01-01',
          requestUuid: '6f1d7c8e-2b1a-4c3d-9e8f-0a1b2c3d4e5f',
          parentId: null,
        });
        const dues = entries.flatMap((e) => (e.due_date ? [e.due_date as string] : [])).sort();
        expect(dues[0]).toBe('2040-01-01');
      }),
    );
  });

  it('a checklist holds the task’s todos only, in their order', () => {
    const task: SnapshotItem = {
      id: 1,
      parent_id: null,
      type: 'task',
      title: 'T',
      description: null,
      due_date: '2030-01-05',
      end_date: null,
    };
    const todo = (id: number, key: string, due: string | null): SnapshotItem => ({
      id,
      parent_id: 1,
      type: 'todo',
      title: `todo ${id}`,
      description: null,
      due_date: due,
      end_date: null,
      sort_key: key,
    });
    const tree = snapshotTree(
      task,
      [task, todo(2, 'b', '2030-01-03'), todo(3, 'a', null), todo(4, 'c', '2030-01-04')],
      'checklist',
    );
    expect(tree.nodes.map((n) => [n.title, n.due_offset])).toEqual([
      ['todo 3', null],
      ['todo 2', 0],
      ['todo 4', 1],
    ]);
    expect(kindProblem('checklist', tree)).toBeNull();
    expect(kindProblem('task', tree)).not.toBeNull();
  });
});

describe('the tree schema', () => {
  const todos = (n: number): TemplateTree => ({
    nodes: Array.from({ length: n }, (_, i) => ({
      type: 'todo' as const,
      title: `Step ${i}`,
      description: null,
      priority: 4,
      labels: [],
      estimate_minutes: null,
      recurrence: null,
      start_offset: null,
      due_offset: null,
      end_offset: null,
      children: [],
    })),
  });

  it(`takes ${TEMPLATE_MAX_NODES} nodes and refuses one more, saying how many`, () => {
    expect(templateTreeSchema.safeParse(todos(TEMPLATE_MAX_NODES)).success).toBe(true);
    const over = templateTreeSchema.safeParse(todos(TEMPLATE_MAX_NODES + 1));
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe(tooManyNodesMessage(TEMPLATE_MAX_NODES + 1));
  });

  it('refuses a child its parent may not hold, a start after the due date, and a tree nested too deep', () => {
    const bad = (tree: unknown) => templateTreeSchema.safeParse(tree).success;
    expect(bad({ nodes: [{ type: 'task', title: 'T', children: [{ type: 'campaign', title: 'C' }] }] })).toBe(
      false,
    );
    expect(bad({ nodes: [{ type: 'todo', title: 'T', start_offset: 3, due_offset: 1 }] })).toBe(false);
    expect(
      bad({
        nodes: [
          {
            type: 'campaign',
            title: 'C',
            children: [
              {
                type: 'task',
                title: 'T',
                children: [{ type: 'todo', title: 'x', children: [{ type: 'todo', title: 'y' }] }],
              },
            ],
          },
        ],
      }),
    ).toBe(false);
    expect(
      bad({ nodes: [{ type: 'campaign', title: 'C', children: [{ type: 'todo', title: 'Direct' }] }] }),
    ).toBe(true);
    expect(bad({ nodes: [] })).toBe(false);
  });
});
