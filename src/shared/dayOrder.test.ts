import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWithinDay, priorityOf } from './agenda';
import { type DayRow, planDayMove } from './dayOrder';
import { seededRandom } from './order';
import { SORT_KEY_MAX_LENGTH } from './sortKey';

const row = (id: number, priority: number, sort_key: string, uuid: string | null = `u${id}`): DayRow => ({
  id,
  priority,
  sort_key,
  uuid,
});

/** `list` after `plan` is stored, in the day's order. */
function orderAfter(list: readonly DayRow[], id: number, plan: ReturnType<typeof planDayMove>): DayRow[] {
  const keys = new Map(plan?.writes.map((w) => [w.id, w.sort_key]));
  return list
    .map((r) => ({
      ...r,
      sort_key: keys.get(r.id) ?? r.sort_key,
      priority: r.id === id && plan?.priority !== undefined ? plan.priority : r.priority,
    }))
    .sort(compareWithinDay);
}

function arrayMove<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

describe('Reordering a day by hand', () => {
  it('O6: orders a day by priority, then sort_key, then uuid, then id; rows without a key first', () => {
    const list = [
      row(1, 2, 'a1'),
      row(2, 1, 'a5'),
      row(3, 2, 'a0'),
      row(4, 2, ''),
      row(5, 2, 'a1', 'u0'),
      { id: 6, due_date: null, priority: 2, sort_key: 'a1', uuid: 'u0' },
      { id: 7, due_date: null },
    ].sort(compareWithinDay);
    expect(ids(list)).toEqual([2, 4, 3, 5, 6, 1, 7]);
  });

  it('O6: writes only the moved row, between its new neighbours, when their keys leave room', () => {
    const list = [row(1, 4, 'a0'), row(2, 4, 'a1'), row(3, 4, 'a2')];
    const plan = planDayMove(list, 3, 0, seededRandom(1));
    expect(plan?.priority).toBeUndefined();
    expect(plan?.writes).toHaveLength(1);
    expect(plan?.writes[0]?.id).toBe(3);
    expect(ids(orderAfter(list, 3, plan))).toEqual([3, 1, 2]);
    expect(planDayMove(list, 2, 1)).toBeNull();
  });

  it('O6: a row dropped among another priority takes the priority of the row it lands on, in the same write', () => {
    const list = [row(1, 1, 'a0'), row(2, 2, 'a0'), row(3, 2, 'a1'), row(4, 4, 'a0')];
    // Dragged up onto row 2 (p2): now p2, first among the p2s.
    const up = planDayMove(list, 4, 1, seededRandom(2));
    expect(up?.priority).toBe(2);
    expect(up?.writes.map((w) => w.id)).toEqual([4]);
    expect(ids(orderAfter(list, 4, up))).toEqual([1, 4, 2, 3]);
    // Dragged down onto the last p2: now p2, after it.
    const down = planDayMove(list, 1, 2, seededRandom(3));
    expect(down?.priority).toBe(2);
    expect(ids(orderAfter(list, 1, down))).toEqual([2, 3, 1, 4]);
    // Next to a row of its own priority it keeps it.
    const edge = [row(1, 1, 'a0'), row(2, 1, 'a1'), row(3, 2, 'a0')];
    expect(planDayMove(edge, 1, 1, seededRandom(4))?.priority).toBeUndefined();
  });

  it('O6: between equal keys writes the same key when the uuid falls between, else re-keys the fewest rows just above', () => {
    const tie = [row(1, 4, 'a0', 'u1'), row(2, 4, 'a0', 'u5'), row(3, 4, 'a0', 'u9'), row(4, 4, 'a2', 'u2')];
    // Row 3 (u9) goes between u1 and u5: no key does that alone, so it and the row after it move just above 'a0'.
    const plan = planDayMove(tie, 3, 1, seededRandom(5));
    expect(ids(orderAfter(tie, 3, plan))).toEqual([1, 3, 2, 4]);
    expect(plan?.writes.map((w) => w.id)).toEqual([3, 2]);
    for (const w of plan?.writes ?? []) expect(w.sort_key > 'a0' && w.sort_key < 'a01').toBe(true);
    // A row whose uuid falls between takes the neighbours' key: one write.
    const fitting = [row(1, 4, 'a0', 'u1'), row(2, 4, 'a0', 'u9'), row(3, 4, 'a3', 'u5')];
    expect(planDayMove(fitting, 3, 1)?.writes).toEqual([{ id: 3, sort_key: 'a0' }]);
  });

  it('O6: rows stored without a key, or with one no fractional index follows, get keys only where the drop needs them', () => {
    const legacy = [row(1, 4, ''), row(2, 4, ''), row(3, 4, 'a0'), row(4, 4, 'a1')];
    const plan = planDayMove(legacy, 4, 1, seededRandom(6));
    expect(ids(orderAfter(legacy, 4, plan))).toEqual([1, 4, 2, 3]);
    // Row 1 keeps its empty key (it sorts first whatever it is); row 2 gets one after row 4's.
    expect(plan?.writes.map((w) => w.id).sort()).toEqual([2, 4]);
    const odd = [row(1, 4, 'zzzz'), row(2, 4, 'a0'), row(3, 4, 'a1')];
    expect(ids(orderAfter(odd, 3, planDayMove(odd, 3, 0)))).toEqual([3, 1, 2]);
  });

  it('O6: a drop after the last row read, with more rows not read yet, keys just above it so it stays before them', () => {
    const page = [row(1, 4, 'a0'), row(2, 4, 'a1'), row(3, 4, 'a2')];
    const plan = planDayMove(page, 1, 2, seededRandom(7), true);
    expect(plan?.writes).toHaveLength(1);
    const key = plan?.writes[0]?.sort_key ?? '';
    expect(key > 'a2' && key < 'a21').toBe(true);
    // A whole day read: the usual key after the last.
    expect((planDayMove(page, 1, 2, seededRandom(7))?.writes[0]?.sort_key ?? '') > 'a21').toBe(true);
  });

  it('O6: any drop ends in exactly the order the user dropped, with short keys, writing one row whenever the neighbours allow', () => {
    const USABLE = ['a0', 'a1', 'a1V', 'a2', 'Zz', 'a0V'];
    const keys = ['', ...USABLE, 'a0', 'zzzz'];
    const rowArb = fc.record({
      priority: fc.constantFrom(1, 2, 3, 4, undefined),
      sort_key: fc.constantFrom(...keys),
      uuid: fc.option(fc.constantFrom('u1', 'u2', 'u3', 'u4', 'u5'), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 2, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 1_000 }),
        fc.boolean(),
        (rows, a, b, seed, more) => {
          const list = rows.map((r, i) => ({ id: i + 1, ...r })).sort(compareWithinDay);
          const from = a % list.length;
          const to = b % list.length;
          const id = (list[from] as DayRow).id;
          const plan = planDayMove(list, id, to, seededRandom(seed), more);
          if (from === to) {
            expect(plan).toBeNull();
            return;
          }
          expect(ids(orderAfter(list, id, plan))).toEqual(ids(arrayMove(list, from, to)));
          for (const w of plan?.writes ?? [])
            expect(w.sort_key.length > 0 && w.sort_key.length <= SORT_KEY_MAX_LENGTH).toBe(true);
          expect(plan?.writes[0]?.id).toBe(id);
          // Only the moved row's priority ever changes.
          if (plan?.priority !== undefined) expect(plan.priority).not.toBe(priorityOf(list[from] as DayRow));
          // Neighbours (as they were) with distinct, usable keys: one write.
          const p = plan?.priority ?? priorityOf(list[from] as DayRow);
          const others = list.filter((r) => r.id !== id);
          const group = others.filter((r) => priorityOf(r) === p);
          const at = others.slice(0, to).filter((r) => priorityOf(r) === p).length;
          const low = group[at - 1]?.sort_key ?? undefined;
          const high = group[at]?.sort_key ?? undefined;
          const usable = (k: string | undefined) => k === undefined || USABLE.includes(k);
          const atEnd = more && high === undefined;
          if (!atEnd && (low === '' || usable(low)) && usable(high) && (low === undefined || low !== high))
            expect(plan?.writes).toHaveLength(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
