import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_STATUSES, type ItemStatus, PATCHABLE_FIELDS } from './item';
import { bringsNextOccurrence, ownStatusAfter, planUpdate, type UpdatableItem } from './itemUpdate';

const NOW = '2026-05-01T10:00:00.000Z';

const stored = (extra: Partial<UpdatableItem> = {}): UpdatableItem => ({
  id: 7,
  type: 'task',
  parent_id: 3,
  status: 'pending',
  completed_at: null,
  title: 'Plan',
  description: null,
  assigned_to: null,
  due_date: null,
  end_date: null,
  remind_at: null,
  recurrence: null,
  ...extra,
});

const status = fc.constantFrom(...ITEM_STATUSES);
const patchArb = fc.record(
  {
    title: fc.constantFrom('Plan', 'Plan B'),
    description: fc.constantFrom(null, 'notes'),
    status,
    parent_id: fc.constantFrom(null, 3, 4),
    assigned_to: fc.constantFrom(null, 2),
    due_date: fc.constantFrom(null, '2026-05-02'),
    recurrence: fc.constantFrom(null, 'FREQ=DAILY'),
  },
  { requiredKeys: [] },
);
const itemArb = fc.record({
  status,
  parent_id: fc.constantFrom(null, 3),
  due_date: fc.constantFrom(null, '2026-05-02'),
  recurrence: fc.constantFrom(null, 'FREQ=DAILY'),
  title: fc.constantFrom('Plan', 'Plan B'),
});

/** The item after the fields a plan changes (what both sides write). */
const applied = (item: UpdatableItem, plan: ReturnType<typeof planUpdate>): UpdatableItem => {
  const next = { ...item };
  for (const field of plan.fields) (next as Record<string, unknown>)[field] = plan.changed[field]?.new;
  return next;
};

describe('the update rule (planUpdate)', () => {
  it('changes only the fields whose value differs, in the patch order', () => {
    const plan = planUpdate(stored(), { due_date: '2026-05-02', title: 'Plan', status: 'completed' });
    expect(plan.fields).toEqual(['due_date', 'status']);
    expect(plan.changed.status).toEqual({ old: 'pending', new: 'completed' });
    expect(plan.direct).toEqual(new Map([[7, 'completed']]));
    expect(plan.touched).toEqual([]);
  });

  it('names the old and the new parent of a move, and nothing for an unknown key', () => {
    const plan = planUpdate(stored(), { parent_id: null, version: 9 } as never);
    expect(plan.fields).toEqual(['parent_id']);
    expect(plan.touched).toEqual([3, null]);
  });

  it('asks for the rule check when the rule or the due date under it changes, judging an unchanged rule as stored', () => {
    expect(planUpdate(stored(), { title: 'x' }).recurrenceCheck).toBeNull();
    expect(
      planUpdate(stored({ recurrence: 'FREQ=DAILY', due_date: '2026-05-02' }), { due_date: null })
        .recurrenceCheck,
    ).toEqual({
      item: { type: 'task', due_date: null, recurrence: 'FREQ=DAILY' },
      ruleChanged: false,
    });
    expect(planUpdate(stored(), { recurrence: 'FREQ=DAILY' }).recurrenceCheck?.ruleChanged).toBe(true);
  });

  it('an empty patch, or one equal to the item, changes nothing', () => {
    fc.assert(
      fc.property(itemArb, (extra) => {
        const item = stored(extra);
        expect(planUpdate(item, {}).fields).toEqual([]);
        const same = Object.fromEntries(PATCHABLE_FIELDS.map((f) => [f, item[f] ?? null]));
        expect(planUpdate(item, same).fields).toEqual([]);
      }),
    );
  });

  it('applying the same patch twice changes nothing the second time', () => {
    fc.assert(
      fc.property(itemArb, patchArb, (extra, patch) => {
        const once = applied(stored(extra), planUpdate(stored(extra), patch));
        const again = planUpdate(once, patch);
        expect(again.fields).toEqual([]);
        expect(again.direct.size + again.touched.length).toBe(0);
      }),
    );
  });

  it("the item's own status: the roll-up's when it decided one, else the patch's with the one completed_at rule", () => {
    const item = stored({ status: 'pending' });
    const plan = planUpdate(item, { status: 'completed' });
    expect(ownStatusAfter(item, plan, null, NOW)).toEqual({ status: 'completed', completed_at: NOW });
    const rolled = new Map([[7, { status: 'in_progress' as ItemStatus, completed_at: null }]]);
    expect(ownStatusAfter(item, plan, rolled, NOW)).toEqual({ status: 'in_progress', completed_at: null });
    expect(ownStatusAfter(item, planUpdate(item, { title: 'x' }), null, NOW)).toBeUndefined();
    const done = stored({ status: 'completed', completed_at: '2026-01-01T00:00:00.000Z' });
    expect(ownStatusAfter(done, planUpdate(done, { status: 'pending' }), null, NOW)).toEqual({
      status: 'pending',
      completed_at: null,
    });
  });

  it('brings a next occurrence only when a repeating item with a due date becomes completed', () => {
    const rule = { recurrence: 'FREQ=DAILY', due_date: '2026-05-02' };
    expect(bringsNextOccurrence({ status: 'pending' }, { status: 'completed', ...rule })).toBe(true);
    expect(bringsNextOccurrence({ status: 'completed' }, { status: 'completed', ...rule })).toBe(false);
    expect(
      bringsNextOccurrence(
        { status: 'pending' },
        { status: 'completed', recurrence: null, due_date: '2026-05-02' },
      ),
    ).toBe(false);
    expect(
      bringsNextOccurrence(
        { status: 'pending' },
        { status: 'completed', recurrence: 'FREQ=DAILY', due_date: null },
      ),
    ).toBe(false);
  });
});
