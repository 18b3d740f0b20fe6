import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, pullAll, signedIn, writeDirectly } from '../../../testkit/testClient';
import { type ExportDocument, exportCsv, parseImport } from '../../shared/importExport';
import { type Item, isTombstone, type Paginated } from '../../shared/item';
import { keyBetween, keysAfter } from '../../shared/sortKey';
import { rows, sql } from '../db/client';

type ErrorBody = { message: string; errors?: Record<string, string[]> };
type Labels = { labels: { name: string; count: number }[] };

/** The migration's backfill statement, as the file holds it (run again here over rows made without keys). */
function backfillStatement(): string {
  const file = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../drizzle/0011_item_planning.sql',
  );
  const statement = readFileSync(file, 'utf8')
    .split('--> statement-breakpoint')
    .find((s) => s.includes('WITH ranked'));
  if (!statement) throw new Error('No backfill in migration 0011');
  return statement;
}

describe.each(testEngines())('items: priority, labels and sort_key (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('gives a new item priority 4, no labels and a key after its last sibling', async () => {
    const c = await signedIn(harness.app, 'Dana');
    const campaign = await c.create({ title: 'House', type: 'campaign' });
    expect(campaign).toMatchObject({ priority: 4, labels: [] });
    expect(campaign.sort_key).toMatch(/^[0-9A-Za-z]{1,64}$/);
    const first = await c.create({ title: 'Paint', type: 'task', parent_id: campaign.id });
    const placed = await c.create({
      title: 'Placed',
      type: 'task',
      parent_id: campaign.id,
      sort_key: 'b00V',
    });
    const last = await c.create({ title: 'Floors', type: 'task', parent_id: campaign.id });
    expect(placed.sort_key).toBe('b00V');
    // After the greatest key among its siblings, the one a writer placed too.
    expect(first.sort_key! < placed.sort_key!).toBe(true);
    expect(last.sort_key! > placed.sort_key!).toBe(true);
    // Top level: after the same owner's greatest top-level key, whoever else has top-level items.
    const other = await signedIn(harness.app, 'Eli');
    await other.create({ title: 'Theirs', type: 'campaign', sort_key: 'c000V' });
    const second = await c.create({ title: 'Garden', type: 'campaign' });
    expect(second.sort_key! > campaign.sort_key!).toBe(true);
    expect(second.sort_key! < 'c000V').toBe(true);
  });

  it('sets and changes priority and labels, keeping labels as first written', async () => {
    const c = await signedIn(harness.app, 'Fay');
    const item = await c.create({ title: 'Call', type: 'todo', priority: 1, labels: [' Phone ', 'errand'] });
    expect(item).toMatchObject({ priority: 1, labels: ['Phone', 'errand'] });
    const patched = await c.update(item.id, { priority: 3, labels: ['Errand', 'a "quoted" {label}\\'] });
    expect(patched).toMatchObject({ priority: 3, labels: ['Errand', 'a "quoted" {label}\\'] });
    expect(await c.item(item.id)).toMatchObject({ priority: 3, labels: ['Errand', 'a "quoted" {label}\\'] });
    expect((await c.update(item.id, { labels: [] })).labels).toEqual([]);
  });

  it('refuses a priority, labels or sort key outside the contract with a 422 naming the field', async () => {
    const c = await signedIn(harness.app, 'Gus');
    const item = await c.create({ title: 'Rules', type: 'todo' });
    const bad: [string, unknown, RegExp][] = [
      ['priority', 0, /1, 2, 3 or 4/],
      ['priority', 5, /1, 2, 3 or 4/],
      ['priority', 'x', /1, 2, 3 or 4/],
      ['priority', 2.5, /1, 2, 3 or 4/],
      ['labels', Array.from({ length: 11 }, (_, i) => `l${i}`), /At most 10 labels/],
      ['labels', ['#home'], /#, @ or a comma/],
      ['labels', ['a@b'], /#, @ or a comma/],
      ['labels', ['a,b'], /#, @ or a comma/],
      ['labels', ['Work', 'work'], /twice/],
      ['labels', [''], /empty/],
      ['labels', ['x'.repeat(41)], /40 characters/],
      ['labels', 'work', /list/],
      ['sort_key', 'a0-1', /0-9, A-Z and a-z/],
      ['sort_key', 'a'.repeat(65), /0-9, A-Z and a-z/],
      ['sort_key', '', /0-9, A-Z and a-z/],
      ['sort_key', 'a00', /fractional index/],
    ];
    for (const [field, value, message] of bad) {
      const what = `${field}=${JSON.stringify(value)}`;
      const created = await c.post<ErrorBody>('/api/items', { title: 'Bad', type: 'todo', [field]: value });
      expect(created.status, what).toBe(422);
      expect(
        created.body.errors?.[field]?.join(' ') ?? created.body.errors?.[`${field}.0`]?.join(' '),
        what,
      ).toMatch(message);
      const patched = await c.patch<ErrorBody>(`/api/items/${item.id}`, { [field]: value });
      expect(patched.status, what).toBe(422);
      const batch = await c.post<ErrorBody>('/api/items/batch', {
        items: [{ uuid: randomUUID(), title: 'Bad', type: 'todo', [field]: value }],
      });
      expect(batch.status, what).toBe(422);
    }
    // A key of 64 characters is fine; none of the refused writes changed the item.
    const longest = `a0${'V'.repeat(62)}`;
    expect((await c.update(item.id, { sort_key: longest })).sort_key).toBe(longest);
    expect(await c.item(item.id)).toMatchObject({ priority: 4, labels: [], version: 2 });
  });

  it('moves and places an item in one PATCH, and puts a moved item without a place last', async () => {
    const c = await signedIn(harness.app, 'Hana');
    const a = await c.create({ title: 'A', type: 'campaign' });
    const b = await c.create({ title: 'B', type: 'campaign' });
    const inB = [
      await c.create({ title: 'B1', type: 'task', parent_id: b.id }),
      await c.create({ title: 'B2', type: 'task', parent_id: b.id }),
    ];
    const task = await c.create({ title: 'Moving', type: 'task', parent_id: a.id });
    const between = keyBetween(inB[0]!.sort_key!, inB[1]!.sort_key!);
    expect(between < inB[1]!.sort_key!).toBe(true);
    const moved = await c.update(task.id, { parent_id: b.id, sort_key: between });
    expect(moved).toMatchObject({ parent_id: b.id, sort_key: between });
    // Back to A without a place: last there.
    const sibling = await c.create({ title: 'A2', type: 'task', parent_id: a.id });
    const back = await c.update(task.id, { parent_id: a.id });
    expect(back.parent_id).toBe(a.id);
    expect(back.sort_key! > sibling.sort_key!).toBe(true);
    // A new place alone is no news for the campaign's feed; a new priority is.
    const feed = async () => {
      const res = await c.get<Paginated<unknown>>(`/api/campaigns/${a.id}/activity`);
      expect(res.status, res.text).toBe(200);
      return res.body.total;
    };
    const before = await feed();
    await c.update(task.id, { sort_key: keysAfter(back.sort_key!, 1)[0]! });
    expect(await feed()).toBe(before);
    await c.update(task.id, { priority: 1 });
    expect(await feed()).toBe(before + 1);
  });

  it('filters the list by label without case and by priority', async () => {
    const c = await signedIn(harness.app, 'Ines');
    await c.create({ title: 'Milk', type: 'todo', labels: ['Errand'], priority: 2 });
    await c.create({ title: 'Bank', type: 'todo', labels: ['errand', 'money'], priority: 1 });
    await c.create({ title: 'Read', type: 'todo', priority: 2 });
    const titles = async (query: string) =>
      (await c.get<Paginated<Item>>(`/api/items?${query}`)).body.data.map((i) => i.title).sort();
    expect(await titles('label=ERRAND')).toEqual(['Bank', 'Milk']);
    expect(await titles('priority=2')).toEqual(['Milk', 'Read']);
    expect(await titles('label=errand&priority=2')).toEqual(['Milk']);
    expect(await titles('label=nothing')).toEqual([]);
    for (const bad of ['priority=0', 'priority=5', 'priority=x', 'label=']) {
      const res = await c.get<ErrorBody>(`/api/items?${bad}`);
      expect(res.status, bad).toBe(422);
    }
  });

  it('lists the labels on the items the caller sees with their counts, never anyone else’s', async () => {
    const c = await signedIn(harness.app, 'Jon');
    const other = await signedIn(harness.app, 'Kim');
    await makeMutual(c, other);
    await c.create({ title: 'Milk', type: 'todo', labels: ['Errand'] });
    await c.create({ title: 'Bank', type: 'todo', labels: ['errand', 'money'] });
    const gone = await c.create({ title: 'Gone', type: 'todo', labels: ['deleted-only'] });
    expect((await c.delete(`/api/items/${gone.id}`)).status).toBe(204);
    await other.create({ title: 'Secret', type: 'todo', labels: ['kims-secret', 'errand'] });
    // An item of Kim's assigned to Jon is one Jon sees, with its labels.
    await other.create({
      title: 'Shared',
      type: 'todo',
      labels: ['Shared'],
      assigned_to: c.user!.id,
    });
    const mine = await c.get<Labels>('/api/labels');
    expect(mine.status, mine.text).toBe(200);
    const names = mine.body.labels.map((l) => l.name);
    expect(names).not.toContain('kims-secret');
    expect(names).not.toContain('deleted-only');
    expect(mine.body.labels.find((l) => l.name.toLowerCase() === 'errand')).toEqual({
      name: 'Errand',
      count: 2,
    });
    expect(mine.body.labels.find((l) => l.name === 'money')).toEqual({ name: 'money', count: 1 });
    const theirs = await other.get<Labels>('/api/labels');
    expect(theirs.body.labels.map((l) => l.name)).not.toContain('money');
    expect(theirs.body.labels.find((l) => l.name === 'errand')?.count).toBe(1);
    const anonymous = await harness.app.inject({ method: 'GET', url: '/api/labels' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('carries the fields through sync, batch and the next occurrence of a repeating item', async () => {
    const c = await signedIn(harness.app, 'Lea');
    const task = await c.create({ title: 'Chores', type: 'task' });
    const chore = await c.create({
      uuid: randomUUID(),
      title: 'Bins',
      type: 'todo',
      parent_id: task.id,
      due_date: '2031-01-06',
      recurrence: 'FREQ=WEEKLY',
      priority: 1,
      labels: ['Home'],
    });
    await c.update(chore.id, { status: 'completed' });
    const batch = await c.post<{ items: Item[] }>('/api/items/batch', {
      items: [
        { uuid: randomUUID(), title: 'One', type: 'todo', parent_id: task.id, priority: 3, labels: ['x'] },
        { uuid: randomUUID(), title: 'Two', type: 'todo', parent_id: task.id },
      ],
    });
    expect(batch.status, batch.text).toBe(201);
    const [one, two] = batch.body.items;
    expect(one).toMatchObject({ priority: 3, labels: ['x'] });
    expect(two).toMatchObject({ priority: 4, labels: [] });
    expect(two!.sort_key! > one!.sort_key!).toBe(true);
    const pulled = await pullAll(c, harness.database);
    const live = pulled.items.filter((i): i is Item => !isTombstone(i));
    const next = live.find((i) => i.series_uuid === chore.uuid);
    expect(next).toMatchObject({ priority: 1, labels: ['Home'], due_date: '2031-01-13' });
    expect(next!.sort_key! > chore.sort_key!).toBe(true);
    expect(live.find((i) => i.id === one!.id)).toMatchObject({
      priority: 3,
      labels: ['x'],
      sort_key: one!.sort_key,
    });
  });

  it('exports the fields in JSON and CSV, and reading either export gives them back', async () => {
    const c = await signedIn(harness.app, 'Max');
    const made = await c.create({
      title: 'Tax',
      type: 'todo',
      priority: 2,
      labels: ['=money', 'Q1'],
      sort_key: 'a3',
    });
    const json = await c.get<ExportDocument>('/api/export');
    expect(json.body.items.find((i) => i.uuid === made.uuid)).toMatchObject({
      priority: 2,
      labels: ['=money', 'Q1'],
      sort_key: 'a3',
    });
    const fromJson = parseImport(JSON.stringify(json.body), { fileName: 'x.json', userId: c.user!.id });
    // The CSV is written on the device from the same fields (shared/importExport.ts).
    const csv = exportCsv(
      json.body.items.map((i) => ({ ...i, assigned_to: null, sort_key: i.sort_key ?? undefined })),
    );
    const fromCsv = parseImport(csv, { fileName: 'x.csv', userId: c.user!.id });
    for (const plan of [fromJson, fromCsv]) {
      expect(plan.warnings).toEqual([]);
      expect(plan.items.find((i) => i.uuid === made.uuid)).toMatchObject({
        priority: 2,
        labels: ['=money', 'Q1'],
        sort_key: 'a3',
      });
    }
  });

  it('backfills keys in the order items were made, per parent and per owner’s top level (migration 0011)', async () => {
    const c = await signedIn(harness.app, 'Nell');
    const other = await signedIn(harness.app, 'Otto');
    const campaign = await c.create({ title: 'Old', type: 'campaign' });
    const mineTop = c.user!.id;
    const theirsTop = other.user!.id;
    await writeDirectly(harness.app, [mineTop, theirsTop], async (tx) => {
      // 70 children: past the 62 one-character keys, so the two-character ones are used too.
      await tx.execute(
        sql`INSERT INTO items (title, type, user_id, parent_id)
            SELECT 'child ' || n, 'task', ${mineTop}, ${campaign.id} FROM generate_series(1, 70) n`,
      );
      await tx.execute(
        sql`INSERT INTO items (title, type, user_id) SELECT 'theirs ' || n, 'todo', ${theirsTop}
            FROM generate_series(1, 3) n`,
      );
      await tx.execute(sql.raw(backfillStatement()));
    });
    const children = await rows<{ sort_key: string }>(
      harness.database.db,
      sql`SELECT sort_key FROM items WHERE parent_id = ${campaign.id} ORDER BY id`,
    );
    expect(children.map((r) => r.sort_key)).toEqual(keysAfter(null, 70));
    const theirs = await rows<{ sort_key: string }>(
      harness.database.db,
      sql`SELECT sort_key FROM items WHERE user_id = ${theirsTop} AND parent_id IS NULL ORDER BY id`,
    );
    expect(theirs.map((r) => r.sort_key)).toEqual(keysAfter(null, 3));
    // The database orders them as the keys compare (by code unit), and a new child goes after them.
    const ordered = await rows<{ title: string }>(
      harness.database.db,
      sql`SELECT title FROM items WHERE parent_id = ${campaign.id} ORDER BY sort_key`,
    );
    expect(ordered.map((r) => r.title)).toEqual(Array.from({ length: 70 }, (_, i) => `child ${i + 1}`));
    const next = await c.create({ title: 'New', type: 'task', parent_id: campaign.id });
    expect(next.sort_key! > keysAfter(null, 70).at(-1)!).toBe(true);
  });
});
