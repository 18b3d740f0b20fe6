import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_STATUSES } from './item';
import { applySteps, inverseSteps, type UndoFields, type UndoSnapshot } from './undo';

const fieldsArb = fc.record<UndoFields>({
  title: fc.string({ minLength: 1, maxLength: 8 }),
  description: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  status: fc.constantFrom(...ITEM_STATUSES),
  parent_uuid: fc.constant(null),
  assigned_to: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  due_date: fc.option(fc.constantFrom('2030-01-01', '2030-02-02'), { nil: null }),
  end_date: fc.constant(null),
  remind_at: fc.constant(null),
  recurrence: fc.option(fc.constantFrom('FREQ=DAILY', 'FREQ=WEEKLY'), { nil: null }),
});

/** A family: item i's parent is some earlier item (or none), at most three deep. */
const familyArb = fc.array(fc.tuple(fieldsArb, fc.nat()), { minLength: 1, maxLength: 12 }).map((rows) => {
  const out = new Map<string, UndoFields | null>();
  const depth = new Map<string, number>();
  rows.forEach(([fields, pick], i) => {
    const uuid = `u${i}`;
    const candidates = [...out.keys()].filter((k) => (depth.get(k) ?? 0) < 2);
    const parent = pick % 3 === 0 || candidates.length === 0 ? null : candidates[pick % candidates.length]!;
    out.set(uuid, { ...fields, parent_uuid: parent });
    depth.set(uuid, parent === null ? 0 : (depth.get(parent) ?? 0) + 1);
  });
  return out;
});

const live = (s: UndoSnapshot) => new Map([...s].filter(([, v]) => v !== null));

describe('undo', () => {
  it('undoing edits of any fields of any items (a change and its roll-up) gives back what was', () => {
    fc.assert(
      fc.property(familyArb, fc.array(fc.tuple(fc.nat(), fieldsArb)), (before, edits) => {
        const after = new Map(before);
        const keys = [...before.keys()];
        for (const [pick, fields] of edits) {
          const uuid = keys[pick % keys.length]!;
          const current = after.get(uuid)!;
          after.set(uuid, { ...fields, parent_uuid: current.parent_uuid });
        }
        const steps = inverseSteps(before, after);
        expect(steps.every((s) => s.kind === 'patch')).toBe(true);
        expect(live(applySteps(after, steps, before))).toEqual(live(before));
      }),
    );
  });

  it('undoing a delete brings back the item with the descendants that went with it', () => {
    fc.assert(
      fc.property(familyArb, fc.nat(), (before, pick) => {
        const keys = [...before.keys()];
        const top = keys[pick % keys.length]!;
        const gone = new Set([top]);
        for (const [uuid, f] of before) if (f?.parent_uuid && gone.has(f.parent_uuid)) gone.add(uuid);
        // Keys are in creation order, so one pass finds every descendant.
        const after = new Map([...before].map(([uuid, f]) => [uuid, gone.has(uuid) ? null : f]));
        const steps = inverseSteps(before, after);
        expect(steps).toEqual([{ kind: 'restore', uuid: top }]);
        expect(live(applySteps(after, steps, before))).toEqual(live(before));
      }),
    );
  });

  it('undoing a create takes the new item away first, then puts back the parent it rolled up', () => {
    fc.assert(
      fc.property(familyArb, fieldsArb, fc.nat(), (before, fields, pick) => {
        const keys = [...before.keys()];
        const parent = keys[pick % keys.length]!;
        const after = new Map(before);
        after.set('new', { ...fields, parent_uuid: parent });
        const parentNow = after.get(parent)!;
        after.set(parent, {
          ...parentNow,
          status: parentNow.status === 'completed' ? 'in_progress' : parentNow.status,
        });
        const steps = inverseSteps(before, after);
        // The new item goes first, then the parent's status: put back first, a 'completed' would
        // complete the new item with it (issue 50: its delete then met a conflict with oneself).
        expect(steps[0]).toEqual({ kind: 'delete', uuid: 'new' });
        expect(live(applySteps(after, steps, before))).toEqual(live(before));
      }),
    );
  });

  it('patches children before parents, so a parent ends on its own old status', () => {
    const before = new Map<string, UndoFields | null>([
      [
        'task',
        {
          title: 't',
          description: null,
          status: 'pending',
          parent_uuid: null,
          assigned_to: null,
          due_date: null,
          end_date: null,
          remind_at: null,
          recurrence: null,
        },
      ],
      [
        'todo',
        {
          title: 'd',
          description: null,
          status: 'pending',
          parent_uuid: 'task',
          assigned_to: null,
          due_date: null,
          end_date: null,
          remind_at: null,
          recurrence: null,
        },
      ],
    ]);
    const after = new Map([...before].map(([k, v]) => [k, v && { ...v, status: 'completed' as const }]));
    expect(inverseSteps(before, after).map((s) => s.uuid)).toEqual(['todo', 'task']);
  });
});
