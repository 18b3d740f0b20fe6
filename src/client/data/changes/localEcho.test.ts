import { liveQuery } from 'dexie';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../../testkit/client/harness';
import { localItem } from '../../../../testkit/client/items';
import { ITEM_FIELD_NAMES, ITEM_FIELDS } from '../../../shared/itemFields';
import { inManualOrder } from '../../../shared/manualOrder';
import { moveTo } from '../../../shared/order';
import { deviceReads } from '../reads/live';
import type { LocalItem } from '../store/types';
import {
  createLocalEcho,
  echoable,
  type LiveObserver,
  type LiveSource,
  shownInManualOrder,
  withLocalEcho,
  withRows,
} from './localEcho';

const item = localItem;

/** A source that answers when told to, as a Dexie live query answers after each read. */
function manualSource<T>() {
  const observers = new Set<LiveObserver<T>>();
  const source: LiveSource<T> = {
    subscribe(o) {
      const observer = typeof o === 'function' ? { next: o } : o;
      observers.add(observer);
      return { unsubscribe: () => observers.delete(observer) };
    },
  };
  const answer = (v: T, provisional?: boolean) => {
    for (const o of observers) o.next?.(v, provisional);
  };
  return { source, answer };
}

describe('echoable', () => {
  it('D8: shows in place a change of exactly the declared fields flagged echo', () => {
    const before = item(1, 'Rent');
    for (const field of ITEM_FIELD_NAMES) {
      const was = (before as unknown as Record<string, unknown>)[field];
      const now = Array.isArray(was)
        ? [...was, 'other']
        : typeof was === 'number'
          ? was + 1
          : `${String(was)}-changed`;
      expect(echoable(before, { ...before, [field]: now }), field).toBe(ITEM_FIELDS[field].echo);
    }
  });

  const before = item(1, 'Old');
  it('allows a new title or description with the bookkeeping every write changes', () => {
    const after = {
      ...before,
      title: 'New',
      description: 'More',
      updated_at: '2026-02-01T00:00:00.000Z',
      _localVersion: 1,
      _syncStatus: 'pending' as const,
      _dirty: ['title' as const],
      _base: { ...before },
    };
    expect(echoable(before, after)).toBe(true);
  });

  it('W5: allows a move within its list (a new order key alone)', () => {
    expect(echoable({ ...before, sort_key: 'a1' }, { ...before, sort_key: 'a0V' })).toBe(true);
  });

  it('refuses a change that can move the row on a list or a count', () => {
    expect(echoable(before, { ...before, status: 'completed' })).toBe(false);
    expect(echoable(before, { ...before, parent_id: 9 })).toBe(false);
    expect(echoable(before, { ...before, assigned_to: 2 })).toBe(false);
    expect(echoable(before, { ...before, _deleted: 1 })).toBe(false);
    expect(echoable(before, { ...before, due_date: '2026-03-01' })).toBe(false);
    expect(echoable({ ...before, _syncStatus: 'local' }, { ...before, _syncStatus: 'pending' })).toBe(false);
    expect(echoable(before, { ...item(2, 'Old') })).toBe(false);
  });
});

describe('withRows', () => {
  it('replaces rows of the same id in place and keeps what the query added', () => {
    const a = item(1, 'A');
    const b = { ...item(2, 'B'), parent: { id: 7, title: 'Parent', type: 'task' as const } } as LocalItem;
    const list = [a, b];
    const edited = { ...item(2, 'B2') };
    const out = withRows(list, new Map([[2, edited]]));
    expect(out.map((i) => i.title)).toEqual(['A', 'B2']);
    expect(out[0]).toBe(a);
    expect(out[1]?.parent).toEqual(b.parent);
    expect(withRows(b, new Map([[2, edited]])).title).toBe('B2');
  });

  it('returns the same answer when none of the rows is in it, and leaves other values alone', () => {
    const list = [item(1, 'A')];
    const rows = new Map([[3, item(3, 'C')]]);
    expect(withRows(list, rows)).toBe(list);
    const counts = new Map([[3, 4]]);
    expect(withRows(counts, rows)).toBe(counts);
    expect(withRows(5, rows)).toBe(5);
    // A record with an id that is not an item (a contact) is never taken for one.
    const contacts = [{ id: 3, name: 'Someone' }];
    expect(withRows(contacts, rows)).toBe(contacts);
  });

  it('shows the same answer however often the same rows are applied', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 20 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 10 }),
        fc.string(),
        (ids, edited, title) => {
          const list = ids.map((id) => item(id, `T${id}`));
          const rows = new Map(edited.map((id) => [id, item(id, title)]));
          const once = withRows(list, rows);
          expect(withRows(once, rows)).toEqual(once);
          expect(once.map((i) => i.id)).toEqual(ids);
          for (const row of once) expect(row.title).toBe(rows.has(row.id) ? title : `T${row.id}`);
        },
      ),
    );
  });
});

describe('withRows on a list in manual order', () => {
  const keyed = (id: number, sort_key: string) => ({ ...item(id, `T${id}`), sort_key, uuid: `u${id}` });

  it('W5: shows a moved row at its new place, and keeps a list in another order as it is', () => {
    const rows = [keyed(1, 'a1'), keyed(2, 'a2'), keyed(3, 'a3')];
    const moved = new Map([[3, keyed(3, 'a0')]]);
    const manual = withRows(shownInManualOrder(rows.slice()), moved);
    expect(manual.map((i) => i.id)).toEqual([3, 1, 2]);
    // Newest first, or any order not by key: the row shows its new key where it was.
    expect(withRows(rows.slice(), moved).map((i) => i.id)).toEqual([1, 2, 3]);
    // The sorted answer is still a list in manual order: the next move sorts it too.
    const again = withRows(manual, new Map([[1, keyed(1, 'a4')]]));
    expect(again.map((i) => i.id)).toEqual([3, 2, 1]);
  });

  it('W5: a list in manual order shows what its re-read will, whatever the moves', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.tuple(fc.nat(), fc.stringMatching(/^a[0-9A-Za-z]{1,4}$/)), { maxLength: 6 }),
        (ids, moves) => {
          const stored = inManualOrder(ids.map((id) => keyed(id, `a${id.toString(36)}`)));
          const echoed = new Map(
            moves.map(([at, key]) => {
              const row = stored[at % stored.length]!;
              return [row.id, { ...row, sort_key: key }];
            }),
          );
          const reRead = inManualOrder(stored.map((r) => echoed.get(r.id) ?? r));
          const shown = withRows(shownInManualOrder(stored.slice()), echoed);
          expect(shown.map((r) => r.id)).toEqual(reRead.map((r) => r.id));
          expect(withRows(shown, echoed).map((r) => r.id)).toEqual(reRead.map((r) => r.id));
        },
      ),
    );
  });
});

describe('withLocalEcho', () => {
  it('W5, W6: shows an announced row at once, until the first answer after the write is stored', () => {
    const echo = createLocalEcho();
    const { source, answer } = manualSource<LocalItem[]>();
    const seen: string[][] = [];
    const sub = withLocalEcho(source, echo).subscribe((v) => seen.push(v.map((i) => i.title)));
    answer([item(1, 'A'), item(2, 'B')]);
    const settle = echo.announce([item(2, 'B2')]);
    expect(seen.at(-1)).toEqual(['A', 'B2']);
    settle(true);
    // An answer read before the commit would still hold the old row; the stored one follows.
    answer([item(1, 'A'), item(2, 'B2')]);
    expect(seen.at(-1)).toEqual(['A', 'B2']);
    answer([item(1, 'A'), item(2, 'B3')]);
    expect(seen.at(-1)).toEqual(['A', 'B3']);
    sub.unsubscribe();
  });

  it('W6, W12: keeps a settled echo over a provisional answer, drops it at the next consistent one', () => {
    const echo = createLocalEcho();
    const { source, answer } = manualSource<LocalItem[]>();
    const seen: string[][] = [];
    withLocalEcho(source, echo).subscribe((v) => seen.push(v.map((i) => i.title)));
    answer([item(1, 'A')]);
    echo.announce([item(1, 'A2')])(true);
    // Read while writes outran it: maybe before the edit's commit.
    answer([item(1, 'A'), item(2, 'B')], true);
    expect(seen.at(-1)).toEqual(['A2', 'B']);
    answer([item(1, 'A3'), item(2, 'B')]);
    expect(seen.at(-1)).toEqual(['A3', 'B']);
  });

  it('W6: goes back to what is stored at once when the write fails', () => {
    const echo = createLocalEcho();
    const { source, answer } = manualSource<LocalItem[]>();
    const seen: string[][] = [];
    withLocalEcho(source, echo).subscribe((v) => seen.push(v.map((i) => i.title)));
    answer([item(1, 'A')]);
    const settle = echo.announce([item(1, 'A2')]);
    expect(seen.at(-1)).toEqual(['A2']);
    settle(false);
    expect(seen.at(-1)).toEqual(['A']);
  });

  it('W6: keeps an unsettled echo over a new answer, and says nothing to a list without the row', () => {
    const echo = createLocalEcho();
    const { source, answer } = manualSource<LocalItem[]>();
    const seen: string[][] = [];
    withLocalEcho(source, echo).subscribe((v) => seen.push(v.map((i) => i.title)));
    answer([item(1, 'A')]);
    echo.announce([item(5, 'Elsewhere')]);
    expect(seen).toHaveLength(1);
    echo.announce([item(1, 'A2')]);
    answer([item(9, 'New'), item(1, 'A')]);
    expect(seen.at(-1)).toEqual(['New', 'A2']);
  });
});

describe('the local echo on a device', () => {
  let device: Device;
  afterEach(() => device?.client.close());

  it("W5: shows a title edit on a task's todo list before the write has committed", async () => {
    device = createDevice('http://127.0.0.1:9');
    const client = device.client;
    client.auth.getState().initGuest();
    const task = await client.items.create({ title: 'Task', type: 'task' });
    const todo = await client.items.create({ title: 'Todo', type: 'todo', parent_id: task.id });
    const seen: { title: string; stored: boolean }[] = [];
    let stored = false;
    const sub = withLocalEcho(
      liveQuery(() => deviceReads(client).children(task.id)),
      client.echo,
    ).subscribe((rows) => {
      const row = rows.find((r) => r.id === todo.id);
      if (row) seen.push({ title: row.title, stored });
    });
    for (let i = 0; seen.length === 0 && i < 300; i++) await new Promise((r) => setTimeout(r, 10));
    await client.items.update(todo.id, { title: 'Renamed' }).then(() => {
      stored = true;
    });
    const firstRenamed = seen.find((s) => s.title === 'Renamed');
    expect(firstRenamed).toEqual({ title: 'Renamed', stored: false });
    // A status change moves counts: it shows once stored, through the list's own re-read.
    const before = seen.length;
    await client.items.setStatus(todo.id, 'completed');
    expect(seen.slice(before).every((s) => s.stored)).toBe(true);
    for (let i = 0; i < 300 && (await client.db.items.get(todo.id))?.title !== 'Renamed'; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await client.db.items.get(todo.id))?.title).toBe('Renamed');
    sub.unsubscribe();
  });

  it("W5: shows a move in a campaign's contents at its new place before the write has committed", async () => {
    device = createDevice('http://127.0.0.1:9');
    const client = device.client;
    client.auth.getState().initGuest();
    const campaign = await client.items.create({ title: 'Campaign', type: 'campaign' });
    await client.items.create({ title: 'First', type: 'task', parent_id: campaign.id });
    const last = await client.items.create({ title: 'Last', type: 'task', parent_id: campaign.id });
    const contents = async () =>
      shownInManualOrder(inManualOrder(await deviceReads(client).childrenPage(campaign.id, {})));
    const seen: { order: string[]; stored: boolean }[] = [];
    let stored = false;
    const sub = withLocalEcho(liveQuery(contents), client.echo).subscribe((rows) =>
      seen.push({ order: rows.map((r) => r.title), stored }),
    );
    for (let i = 0; seen.length === 0 && i < 300; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen.at(-1)?.order).toEqual(['First', 'Last']);
    const rows = await contents();
    const [move] = moveTo(
      rows.map((r) => ({ id: r.id, sort_key: r.sort_key ?? '', uuid: r.uuid ?? null })),
      last.id,
      0,
    );
    await client.items.update(last.id, { sort_key: move?.sort_key }).then(() => {
      stored = true;
    });
    expect(seen.find((s) => s.order[0] === 'Last')).toEqual({ order: ['Last', 'First'], stored: false });
    for (let i = 0; i < 300 && seen.at(-1)?.stored !== true; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen.at(-1)).toEqual({ order: ['Last', 'First'], stored: true });
    sub.unsubscribe();
  });
});
