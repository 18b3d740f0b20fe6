import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import type { Item, Paginated } from '../../../shared/item';
import { occurrenceUuid } from '../../../shared/recurrence';
import type { LocalItem } from '../store/types';

const { device } = testDevices();

async function liveSeries(d: Device, seriesUuid: string): Promise<LocalItem[]> {
  const all = await d.client.db.items.toArray();
  return all
    .filter((i) => i._deleted === 0 && (i.uuid === seriesUuid || i.series_uuid === seriesUuid))
    .sort((a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? ''));
}

async function serverSeries(d: Device, seriesUuid: string): Promise<Item[]> {
  const { data } = await d.client.api.get<Paginated<Item>>('/items?type=todo&per_page=100');
  return data.data.filter((i) => i.uuid === seriesUuid || i.series_uuid === seriesUuid);
}

describe('repeating items on the device', () => {
  it('creates the next occurrence at once for a guest, offline, and reopening keeps it', async () => {
    const d = device();
    const todo = await d.client.items.create({
      title: 'Stretch',
      type: 'todo',
      due_date: '2031-02-27',
      recurrence: 'FREQ=DAILY',
    });
    await d.client.items.complete(todo.id);
    const series = await liveSeries(d, todo.uuid!);
    expect(series.map((i) => [i.due_date, i.status])).toEqual([
      ['2031-02-27', 'completed'],
      ['2031-02-28', 'pending'],
    ]);
    expect(series[1]).toMatchObject({
      uuid: occurrenceUuid(todo.uuid!, '2031-02-28'),
      series_uuid: todo.uuid,
      recurrence: 'FREQ=DAILY',
      _syncStatus: 'local',
    });
    await d.client.items.reopen(todo.id);
    await d.client.items.complete(todo.id);
    expect(await liveSeries(d, todo.uuid!)).toHaveLength(2);
    expect(await d.client.db.syncQueue.count()).toBe(0);
  });

  it('refuses a rule without a due date or ending in the past, as the server would', async () => {
    const d = device();
    await expect(
      d.client.items.create({ title: 'x', type: 'todo', recurrence: 'FREQ=DAILY' }),
    ).rejects.toMatchObject({ errors: { recurrence: ['A repeating item needs a due date.'] } });
    const todo = await d.client.items.create({ title: 'x', type: 'todo', due_date: '2031-01-01' });
    await expect(
      d.client.items.update(todo.id, { recurrence: 'FREQ=DAILY;UNTIL=20200101' }),
    ).rejects.toMatchObject({ errors: { recurrence: ['The repeat rule ends in the past (UNTIL).'] } });
    await d.client.items.update(todo.id, { recurrence: 'freq=weekly' });
    expect((await d.client.db.items.get(todo.id))?.recurrence).toBe('FREQ=WEEKLY');
    // Stop repeating.
    await d.client.items.update(todo.id, { recurrence: null });
    await d.client.items.complete(todo.id);
    expect(await d.client.db.items.count()).toBe(1);
  });

  it('N3: a deleted next occurrence does not come back when the occurrence is reopened and completed again', async () => {
    const d = device();
    await signIn(d, freshPhone(), 'Pat');
    const todo = await d.client.items.create({
      title: 'Journal',
      type: 'todo',
      due_date: '2031-08-01',
      recurrence: 'FREQ=DAILY',
    });
    await d.client.items.complete(todo.id);
    await settled(d);
    await d.client.engine.sync();
    const [, next] = await liveSeries(d, todo.uuid!);
    await d.client.items.remove(next!.id);
    await settled(d);
    await d.client.engine.sync();
    await d.client.items.reopen(todo.id);
    await d.client.items.complete(todo.id);
    await settled(d);
    await d.client.engine.sync();
    await d.client.engine.sync();
    expect((await serverSeries(d, todo.uuid!)).map((i) => i.due_date)).toEqual(['2031-08-01']);
    expect((await liveSeries(d, todo.uuid!)).map((i) => [i.due_date, i.status])).toEqual([
      ['2031-08-01', 'completed'],
    ]);
    expect(await d.client.db.syncQueue.count()).toBe(0);
  });

  for (const order of [
    [0, 1],
    [1, 0],
  ] as const) {
    it(`N2: two devices complete the same occurrence offline, sync ${order.join(' then ')} with a lost answer and a repeat → one next occurrence everywhere`, async () => {
      const phone = freshPhone();
      const a = device();
      const b = device();
      await signIn(a, phone, 'Pat');
      await signIn(b, phone, 'Pat');
      const task = await createSynced(a, { title: 'Garden', type: 'task' });
      const todo = await createSynced(a, {
        title: 'Water',
        type: 'todo',
        parent_id: task.id,
        due_date: '2031-04-07',
        remind_at: '2031-04-07T07:00:00Z',
        recurrence: 'FREQ=WEEKLY;BYDAY=MO,TH',
      });
      await b.client.engine.sync();
      a.goOffline();
      b.goOffline();
      await a.client.items.complete(todo.id);
      await b.client.items.complete(todo.id);
      for (const d of [a, b]) {
        const local = await liveSeries(d, todo.uuid!);
        expect(local.map((i) => i.due_date)).toEqual(['2031-04-07', '2031-04-10']);
        expect(local[1]!.id).toBeLessThan(0);
        // The todo's task went on with the new occurrence under it.
        expect((await d.client.db.items.get(task.id))?.status).toBe('in_progress');
      }
      const [first, second] = [[a, b][order[0]]!, [a, b][order[1]]!];
      first.goOnline();
      first.control.dropNextResponse = (method) => method !== 'GET';
      await first.client.engine.sync();
      await first.client.engine.sync();
      second.goOnline();
      second.control.duplicateNext = (method) => method === 'POST';
      await second.client.engine.sync();
      for (const d of [a, b, a]) await d.client.engine.sync();

      const onServer = await serverSeries(a, todo.uuid!);
      expect(onServer.map((i) => [i.due_date, i.status])).toEqual(
        expect.arrayContaining([
          ['2031-04-07', 'completed'],
          ['2031-04-10', 'pending'],
        ]),
      );
      expect(onServer).toHaveLength(2);
      const next = onServer.find((i) => i.due_date === '2031-04-10')!;
      expect(next).toMatchObject({
        uuid: occurrenceUuid(todo.uuid!, '2031-04-10'),
        remind_at: '2031-04-10T07:00:00.000Z',
        parent_id: task.id,
      });
      for (const d of [a, b]) {
        const local = await liveSeries(d, todo.uuid!);
        expect(local.map((i) => [i.id, i.status, i._syncStatus])).toEqual([
          [todo.id, 'completed', 'synced'],
          [next.id, 'pending', 'synced'],
        ]);
        expect(await d.client.db.syncQueue.count()).toBe(0);
      }
    });
  }
});
