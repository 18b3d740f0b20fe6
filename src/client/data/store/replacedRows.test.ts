import Dexie, { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { localItem } from '../../../../testkit/client/items';
import { plainDexie } from '../../../../testkit/plainDexie';
import { applyLocalChange } from '../changes/applyLocalChange';
import { AGENDA_INDEX, LIST_INDEX, type OutpostDb } from './db';
import { LIST_KEY_FIELDS } from './listKeys';
import type { LocalItem } from './types';
import { replacing } from './writeFacts';

afterEach(() => closeFakeDbs());

const write = (db: OutpostDb, rows: LocalItem[]) =>
  db.transaction('rw', [db.items, db.syncQueue, db.undo], () => applyLocalChange(db, { rows }));

/** Every run of a live query over `read`, and what it gave. */
function watch<T>(read: () => Promise<T>) {
  const runs: T[] = [];
  const sub = liveQuery(read).subscribe((value) => runs.push(value));
  return { runs, stop: () => sub.unsubscribe() };
}

/** Until live queries woken by the last commit have run again (Dexie signals them on a timer). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

/** The children of `parent`, by the children list's index. */
const children = (db: OutpostDb, parent: number) =>
  db.items.where(LIST_INDEX.children).between([parent, Dexie.minKey], [parent, Dexie.maxKey]);
const childCount =
  (db: OutpostDb, parent = 1) =>
  () =>
    children(db, parent).count();
const childTitles = (db: OutpostDb) => async () => (await children(db, 1).toArray()).map((row) => row.title);

async function seeded() {
  const db = freshFakeDb('replaced');
  await write(db, [localItem(1, 'Task', { type: 'task' }), localItem(2, 'Todo', { parent_id: 1 })]);
  return { db, stored: (await db.items.get(2))! };
}

describe('the rows a put replaces, told to live queries (replacedRows.ts)', () => {
  // What naming the replaced rows saves needs Dexie's internals: plain Dexie wakes the count too.
  it.skipIf(plainDexie)(
    'I9: a title edit that names the row it replaces re-runs the list showing it and no count',
    async () => {
      const { db, stored } = await seeded();
      const count = watch(childCount(db));
      const titles = watch(childTitles(db));
      await settle();
      expect(count.runs).toEqual([1]);
      await write(db, [replacing({ ...stored, title: 'Renamed' }, stored)]);
      await settle();
      expect(titles.runs.at(-1)).toEqual(['Renamed']);
      expect(count.runs).toEqual([1]);
      count.stop();
      titles.stop();
    },
  );

  it('I9: the same edit without the replaced row wakes the count too (what naming it saves)', async () => {
    const { db, stored } = await seeded();
    const count = watch(childCount(db));
    await settle();
    await write(db, [{ ...stored, title: 'Renamed' }]);
    await settle();
    expect(count.runs).toEqual([1, 1]);
    count.stop();
  });

  it('I9: an edit that moves the row between lists still wakes the lists it left and joined', async () => {
    const { db, stored } = await seeded();
    await write(db, [localItem(3, 'Other task', { type: 'task' })]);
    const left = watch(childCount(db));
    const joined = watch(childCount(db, 3));
    await settle();
    await write(db, [replacing({ ...stored, parent_id: 3 }, stored)]);
    await settle();
    expect(left.runs.at(-1)).toBe(0);
    expect(joined.runs.at(-1)).toBe(1);
    left.stop();
    joined.stop();
  });

  it('I9: an edit in place that moves an index key wakes a count of the key it left, even when the row it names holds no list keys', async () => {
    const db = freshFakeDb('replaced');
    await write(db, [localItem(2, 'Todo', { due_date: '2026-11-20' })]);
    const stored = (await db.items.get(2))!;
    const at = (day: string, end: unknown) => [stored._scope, stored.user_id, stored._pri, day, end];
    const onDay = (day: string) => () =>
      db.items.where(AGENDA_INDEX.mine).between(at(day, Dexie.minKey), at(day, Dexie.maxKey)).count();
    const left = watch(onDay('2026-11-20'));
    const joined = watch(onDay('2026-11-21'));
    await settle();
    // As a tab may remember a row it wrote: without the keys the store derives at each put.
    const remembered = { ...stored } as Record<string, unknown>;
    for (const key of LIST_KEY_FIELDS) delete remembered[key];
    await write(db, [replacing({ ...stored, due_date: '2026-11-21' }, remembered as unknown as LocalItem)]);
    await settle();
    expect(left.runs).toEqual([1, 0]);
    expect(joined.runs).toEqual([0, 1]);
    left.stop();
    joined.stop();
  });
});
