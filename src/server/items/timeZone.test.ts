import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, pullsCaughtUp, testEngines } from '../../../testkit/server';
import { signedIn } from '../../../testkit/testClient';
import type { ExportDocument } from '../../shared/importExport';
import type { Item, Paginated, SyncPage } from '../../shared/item';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

describe.each(testEngines())('items: time_zone (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('N5: completing a weekly 09:00 New York reminder across the November change gives 09:00 EST', async () => {
    const c = await signedIn(harness.app, 'Nadia');
    const first = await c.create({
      uuid: randomUUID(),
      title: 'Stand-up notes',
      type: 'todo',
      due_date: '2026-10-30',
      remind_at: '2026-10-30T13:00:00Z',
      recurrence: 'FREQ=WEEKLY',
      time_zone: 'America/New_York',
    });
    expect(first.time_zone).toBe('America/New_York');
    await c.update(first.id, { status: 'completed' });
    const page = await c.get<Paginated<Item>>('/api/items?type=todo&per_page=100');
    const next = page.body.data.find((i) => i.series_uuid === first.uuid);
    expect(next).toMatchObject({
      due_date: '2026-11-06',
      remind_at: '2026-11-06T14:00:00.000Z',
      time_zone: 'America/New_York',
    });
  });

  it('N11: completing a daily 02:30 New York reminder across the March change gives 03:00 that day and 02:30 the next', async () => {
    const c = await signedIn(harness.app, 'Nell');
    const first = await c.create({
      uuid: randomUUID(),
      title: 'Night feed',
      type: 'todo',
      due_date: '2027-03-13',
      remind_at: '2027-03-13T07:30:00Z',
      recurrence: 'FREQ=DAILY',
      time_zone: 'America/New_York',
    });
    const nextOf = async (uuid: string) => {
      const page = await c.get<Paginated<Item>>('/api/items?type=todo&per_page=100');
      return page.body.data.find((i) => i.series_uuid === uuid && i.status === 'pending');
    };
    await c.update(first.id, { status: 'completed' });
    const skipped = await nextOf(first.uuid!);
    expect(skipped).toMatchObject({
      due_date: '2027-03-14',
      remind_at: '2027-03-14T07:00:00.000Z',
      recurrence: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    });
    await c.update(skipped!.id, { status: 'completed' });
    expect(await nextOf(first.uuid!)).toMatchObject({
      due_date: '2027-03-15',
      remind_at: '2027-03-15T06:30:00.000Z',
      recurrence: 'FREQ=DAILY',
    });
    // A device's own next occurrence (its create) carries the same rule, and the server takes it.
    const pushed = await c.post<Item>('/api/items', {
      uuid: randomUUID(),
      title: 'Pushed',
      type: 'todo',
      due_date: '2027-03-14',
      remind_at: '2027-03-14T07:00:00Z',
      recurrence: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
      time_zone: 'America/New_York',
    });
    expect(pushed.status, pushed.text).toBe(201);
  });

  it('an item without a time zone reads as UTC; POST and PATCH set one, and sync and export carry it', async () => {
    const c = await signedIn(harness.app, 'Uma');
    const plain = await c.create({ title: 'No zone', type: 'todo' });
    expect(plain.time_zone).toBe('UTC');
    const patched = await c.update(plain.id, { time_zone: 'Europe/Berlin' });
    expect(patched.time_zone).toBe('Europe/Berlin');
    expect((await c.item(plain.id)).time_zone).toBe('Europe/Berlin');
    // A pull withholds changes newer than the oldest transaction still open on the PostgreSQL server,
    // any database's (sync/cursor.ts): beside other test files, it waits until the horizon passes the edit.
    await pullsCaughtUp(harness.database);
    const synced = await c.get<SyncPage>('/api/sync');
    expect(synced.body.items.find((i) => i.id === plain.id)).toMatchObject({ time_zone: 'Europe/Berlin' });
    const exported = await c.get<ExportDocument>('/api/export');
    expect(exported.body.items.find((i) => i.title === 'No zone')).toMatchObject({
      time_zone: 'Europe/Berlin',
    });
    const batch = await c.post<{ items: Item[] }>('/api/items/batch', {
      items: [{ uuid: randomUUID(), title: 'Batched', type: 'todo', time_zone: 'Asia/Kolkata' }],
    });
    expect(batch.status, batch.text).toBe(201);
    expect(batch.body.items[0]?.time_zone).toBe('Asia/Kolkata');
  });

  it('refuses a time zone that is not an IANA name with a 422 naming the field', async () => {
    const c = await signedIn(harness.app, 'Omar');
    const created = await c.post<ErrorBody>('/api/items', {
      title: 'Rover',
      type: 'todo',
      time_zone: 'Mars/Olympus',
    });
    expect(created.status).toBe(422);
    expect(created.body.errors?.time_zone?.[0]).toMatch(/IANA time zone/);
    const item = await c.create({ title: 'Rover', type: 'todo' });
    for (const bad of ['Mars/Olympus', '+05:00', 42]) {
      const patched = await c.patch<ErrorBody>(`/api/items/${item.id}`, { time_zone: bad });
      expect(patched.status, String(bad)).toBe(422);
      expect(patched.body.errors?.time_zone).toBeDefined();
    }
    const batch = await c.post<ErrorBody>('/api/items/batch', {
      items: [{ uuid: randomUUID(), title: 'Rover', type: 'todo', time_zone: 'Mars/Olympus' }],
    });
    expect(batch.status).toBe(422);
  });
});
