import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderDevice, OrderServer, type Rec } from '../../testkit/orderSim';
import type { HierarchyNode } from './hierarchy';
import type { ItemType } from './item';
import { inManualOrder } from './manualOrder';
import { MOVE_FIELDS, mergeEdits } from './merge';
import {
  canDropInto,
  type DropRow,
  keyForLast,
  lastKeyOf,
  moveByStep,
  moveTo,
  type Ordered,
  placeAt,
  positionAfter,
  seededRandom,
} from './order';
import { keyForPlace, SORT_KEY_MAX_LENGTH, SORT_KEY_PATTERN } from './sortKey';

const list = (...keys: string[]): Ordered[] =>
  keys.map((k, i) => ({ id: i + 1, sort_key: k, uuid: `u${i + 1}` }));

/** The ids of `items` in manual order after `writes`. */
function orderAfter(
  items: readonly Ordered[],
  writes: readonly { id: number; sort_key: string }[],
): number[] {
  const keys = new Map(writes.map((w) => [w.id, w.sort_key]));
  return inManualOrder(items.map((i) => ({ ...i, sort_key: keys.get(i.id) ?? i.sort_key }))).map((i) => i.id);
}

describe('manual order', () => {
  it('O1: sorts by key in code units, ties by uuid, whatever order the rows come in', () => {
    const rows = [
      { id: 1, sort_key: 'a1', uuid: 'b' },
      { id: 2, sort_key: 'a1', uuid: 'a' },
      { id: 3, sort_key: 'Zz', uuid: 'z' },
      { id: 4, sort_key: 'a0V', uuid: 'c' },
    ];
    expect(inManualOrder(rows).map((r) => r.id)).toEqual([3, 4, 2, 1]);
    expect(inManualOrder([...rows].reverse()).map((r) => r.id)).toEqual([3, 4, 2, 1]);
  });

  it('O2: a drop between two neighbours writes one key between theirs, and the same seed the same key', () => {
    const items = list('a0', 'a1', 'a2', 'a3');
    const writes = moveTo(items, 4, 1, seededRandom(5));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.sort_key > 'a0' && writes[0]!.sort_key < 'a1').toBe(true);
    expect(writes[0]!.sort_key).toMatch(SORT_KEY_PATTERN);
    expect(moveTo(items, 4, 1, seededRandom(5))).toEqual(writes);
    expect(orderAfter(items, writes)).toEqual([1, 4, 2, 3]);
    // Down the list counts places as after the move (dnd-kit's arrayMove).
    expect(orderAfter(items, moveTo(items, 1, 2, seededRandom(1)))).toEqual([2, 3, 1, 4]);
    expect(orderAfter(items, moveTo(items, 1, 3, seededRandom(1)))).toEqual([2, 3, 4, 1]);
    expect(moveTo(items, 2, 1)).toEqual([]);
  });

  it('O2: Alt+↑ and Alt+↓ swap a row with its neighbour, and do nothing at the ends', () => {
    const items = list('a0', 'a1', 'a2');
    const random = seededRandom(9);
    expect(orderAfter(items, moveByStep(items, 2, -1, random))).toEqual([2, 1, 3]);
    expect(orderAfter(items, moveByStep(items, 2, 1, random))).toEqual([1, 3, 2]);
    expect(moveByStep(items, 1, -1, random)).toEqual([]);
    expect(moveByStep(items, 3, 1, random)).toEqual([]);
    expect(positionAfter(items, 2, moveByStep(items, 2, 1, random))).toBe(3);
  });

  it('O2: a drop into another list places the item there; rows without a key make the list fresh keys', () => {
    const target = list('a0', 'a1');
    expect(
      orderAfter([...target, { id: 9, sort_key: 'b0', uuid: 'u9' }], placeAt(target, 9, 1, seededRandom(2))),
    ).toEqual([1, 9, 2]);
    const old = list('', '', 'a5');
    const writes = placeAt(old, 9, 1, seededRandom(2));
    expect(writes.map((w) => w.id)).toEqual([1, 9, 2, 3]);
    const keys = writes.map((w) => w.sort_key);
    expect([...keys].sort()).toEqual(keys);
  });

  it('O2: keys are jittered: two devices dropping between the same neighbours get different keys', () => {
    const items = list('a0', 'a1', 'a2');
    const keys = new Set(
      Array.from({ length: 100 }, (_, seed) => moveTo(items, 3, 1, seededRandom(seed + 1))[0]!.sort_key),
    );
    expect(keys.size).toBeGreaterThan(95);
  });

  it('O4: the key for the end goes after the greatest key, and after a key no index can follow, first', () => {
    const random = seededRandom(4);
    const last = lastKeyOf([{ sort_key: 'a3' }, { sort_key: '' }, { sort_key: 'a7' }, {}]);
    expect(last).toBe('a7');
    expect(keyForLast(last, random) > 'a7').toBe(true);
    expect(keyForLast(null, random)).toMatch(SORT_KEY_PATTERN);
    expect(keyForLast('a', random)).toMatch(SORT_KEY_PATTERN);
  });

  it('O3: a move is never a conflict: the local move is laid over a server copy that moved the item too', () => {
    const base = { version: 1, sort_key: 'a1', parent_id: 1, title: 'T' };
    const remote = { version: 2, sort_key: 'a5', parent_id: 2, title: 'T' };
    const local = { version: 1, sort_key: 'a0V', parent_id: 3, title: 'T' };
    const out = mergeEdits({ base, local, remote, dirty: ['sort_key', 'parent_id'] });
    expect(out.conflicts).toEqual([]);
    expect(out.merged).toMatchObject({ version: 2, sort_key: 'a0V', parent_id: 3 });
    expect([...MOVE_FIELDS].sort()).toEqual(['parent_id', 'sort_key']);
    // Other fields still conflict.
    expect(
      mergeEdits({
        base,
        local: { ...local, title: 'A' },
        remote: { ...remote, title: 'B' },
        dirty: ['title'],
      }).conflicts,
    ).toEqual(['title']);
  });

  it('O5: after 10,000 inserts at random places in one list the longest key is under 40 characters', () => {
    const random = seededRandom(33);
    const keys: string[] = [];
    let state = 2026;
    for (let n = 0; n < 10_000; n++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      const at = state % (keys.length + 1);
      keys.splice(at, 0, keyForPlace(keys, at, random));
    }
    const lengths = new Map<number, number>();
    for (const k of keys) lengths.set(k.length, (lengths.get(k.length) ?? 0) + 1);
    const distribution = [...lengths].sort((a, b) => a[0] - b[0]).map(([len, n]) => `${len}: ${n}`);
    console.info(`sort key lengths after 10,000 random inserts (length: keys): ${distribution.join(', ')}`);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThan(40);
    expect(SORT_KEY_MAX_LENGTH).toBe(64);
  });
});

/** A step of a random program: a device's move, insert or sync. */
type Step =
  | { kind: 'reorder'; device: number; list: number; pick: number; to: number }
  | { kind: 'step'; device: number; list: number; pick: number; up: boolean }
  | { kind: 'insert'; device: number; list: number; at: number }
  | { kind: 'move'; device: number; from: number; pick: number; to: number; at: number }
  | { kind: 'push' | 'pull' | 'sync'; device: number };

const LISTS = [100, 200];

function programs(devices: number) {
  const device = fc.nat({ max: devices - 1 });
  const listIndex = fc.nat({ max: LISTS.length - 1 });
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('reorder' as const),
      device,
      list: listIndex,
      pick: fc.nat(9),
      to: fc.nat(9),
    }),
    fc.record({
      kind: fc.constant('step' as const),
      device,
      list: listIndex,
      pick: fc.nat(9),
      up: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('insert' as const), device, list: listIndex, at: fc.nat(9) }),
    fc.record({
      kind: fc.constant('move' as const),
      device,
      from: listIndex,
      pick: fc.nat(9),
      to: listIndex,
      at: fc.nat(9),
    }),
    fc.record({ kind: fc.constantFrom('push' as const, 'pull' as const, 'sync' as const), device }),
  );
  return fc.record({
    steps: fc.array(step, { maxLength: 40 }),
    /** The order the devices come online in at the end. */
    online: fc.shuffledSubarray(
      Array.from({ length: devices }, (_, i) => i),
      { minLength: devices, maxLength: devices },
    ),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
  });
}

function run(devices: number, { steps, online, seed }: { steps: Step[]; online: number[]; seed: number }) {
  const server = new OrderServer();
  const parents = LISTS.map((id) => ({
    id,
    uuid: `u${id}`,
    parent_id: null,
    sort_key: 'a0',
    version: 1,
    completed_at: null,
  }));
  for (const p of parents) server.items.set(p.id, p as unknown as Rec);
  // Five items to start with, on the server and on every device.
  const seedDevice = new OrderDevice('seed', seededRandom(seed));
  seedDevice.pull(server);
  for (let i = 0; i < 5; i++) seedDevice.insert(1 + i, LISTS[i % 2] as number, 9);
  seedDevice.push(server);
  const fleet = Array.from(
    { length: devices },
    (_, i) => new OrderDevice(`d${i}`, seededRandom(seed + i + 1)),
  );
  for (const d of fleet) d.pull(server);
  let nextId = 1000;
  for (const s of steps) {
    const d = fleet[s.device] as OrderDevice;
    if (s.kind === 'reorder') d.reorder(LISTS[s.list] as number, s.pick, s.to);
    else if (s.kind === 'step') d.step(LISTS[s.list] as number, s.pick, s.up ? -1 : 1);
    else if (s.kind === 'insert') d.insert(nextId++, LISTS[s.list] as number, s.at);
    else if (s.kind === 'move') d.move(LISTS[s.from] as number, s.pick, LISTS[s.to] as number, s.at);
    else if (s.kind === 'push') d.push(server);
    else if (s.kind === 'pull') d.pull(server);
    else d.sync(server);
  }
  // Every device comes online in the given order, then each syncs once more to hear the others.
  for (const i of online) fleet[i]!.sync(server);
  for (const i of online) fleet[i]!.sync(server);
  return { server, fleet, seedDevice };
}

function converges(devices: number) {
  fc.assert(
    fc.property(programs(devices), (program) => {
      const { server, fleet, seedDevice } = run(devices, program);
      // The same order on every device and on the server, in every list.
      for (const parent of LISTS) {
        for (const d of fleet)
          expect(d.order(parent), `${d.name}: ${d.unsynced().join(', ')}`).toEqual(server.order(parent));
      }
      // No move lost: every write any device made reached the server exactly once …
      const applied = server.log.map((a) => a.write).sort();
      expect(applied).toEqual([...seedDevice.writes, ...fleet.flatMap((d) => d.writes)].sort());
      // … and each item holds what the last write to reach the server gave it, field by field.
      for (const item of server.items.values()) {
        if (LISTS.includes(item.id)) continue;
        for (const field of ['parent_id', 'sort_key'] as const) {
          const last = server.log.filter((a) => a.id === item.id && field in a.fields).at(-1);
          expect(item[field]).toBe(last?.fields[field]);
        }
        expect(item.sort_key).toMatch(SORT_KEY_PATTERN);
      }
    }),
    { numRuns: 150 },
  );
}

describe('order that converges (property)', () => {
  it('O3: two devices reordering, inserting and moving offline, syncing in any order, end in the same order as the server, no move lost', () => {
    converges(2);
  });

  it('O3: three devices reordering, inserting and moving offline, syncing in any order, end in the same order as the server, no move lost', () => {
    converges(3);
  });
});

describe('dropping a row onto another', () => {
  const row = (id: number, type: ItemType, parent_id: number | null = null, locked = false): DropRow => ({
    id,
    type,
    parent_id,
    locked,
  });

  it('O7: a todo goes into a task or a campaign, a task into a campaign, a campaign into nothing', () => {
    const kinds: ItemType[] = ['campaign', 'task', 'todo'];
    const into = (item: ItemType, target: ItemType) => canDropInto(row(1, item), row(2, target));
    const valid = kinds.flatMap((item) => kinds.filter((t) => into(item, t)).map((t) => `${item}→${t}`));
    expect(valid).toEqual(['task→campaign', 'todo→campaign', 'todo→task']);
  });

  it('O7: never onto itself or the parent it is in already (a drop there is a reorder)', () => {
    expect(canDropInto(row(5, 'todo', 3), row(5, 'task'))).toBe(false);
    expect(canDropInto(row(5, 'todo', 3), row(3, 'task'))).toBe(false);
    expect(canDropInto(row(5, 'todo', 3), row(4, 'task', 3))).toBe(true);
  });

  it('O7: a row the user may only view neither moves nor takes children', () => {
    expect(canDropInto(row(5, 'todo', null, true), row(4, 'task'))).toBe(false);
    expect(canDropInto(row(5, 'todo'), row(4, 'task', null, true))).toBe(false);
  });

  it('O7: no drop it allows makes a cycle or breaks the hierarchy, in any forest', () => {
    const kind = fc.constantFrom<ItemType>('campaign', 'task', 'todo');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(kind, fc.nat(12)), { minLength: 2, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        (spec, a, b) => {
          // A forest: each row's parent is an earlier row the hierarchy allows, or none.
          const rows: HierarchyNode[] = [];
          spec.forEach(([type, p], i) => {
            const parent = rows[p % (i + 1)];
            const ok =
              parent && parent.id !== i + 1 && canDropInto({ id: i + 1, type, parent_id: null }, parent);
            rows.push({ id: i + 1, type, parent_id: ok ? parent.id : null });
          });
          const byId = new Map(rows.map((r) => [r.id, r]));
          const ancestors = (id: number) => {
            const out: HierarchyNode[] = [];
            for (let r = byId.get(id); r?.parent_id != null; r = byId.get(r.parent_id))
              out.push(byId.get(r.parent_id) as HierarchyNode);
            return out;
          };
          const item = rows[a % rows.length] as HierarchyNode;
          const target = rows[b % rows.length] as HierarchyNode;
          if (!canDropInto(item, target, ancestors(target.id))) return;
          const moved = { ...item, parent_id: target.id };
          byId.set(item.id, moved);
          // Walking up from the moved item ends at the top within as many steps as there are rows.
          let steps = 0;
          for (let r: HierarchyNode | undefined = moved; r?.parent_id != null; r = byId.get(r.parent_id)) {
            expect(++steps).toBeLessThanOrEqual(rows.length);
          }
          expect(item.type).not.toBe('campaign');
          expect(target.type === 'campaign' || (target.type === 'task' && item.type === 'todo')).toBe(true);
        },
      ),
    );
  });
});
