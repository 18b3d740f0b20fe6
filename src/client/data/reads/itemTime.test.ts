import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { minutesOf } from '../../../shared/timerClock';
import { itemTime } from './itemPageReads';
import { spentByItem } from './timeRead';

const { guest } = testDevices();

const at = (h: number) => new Date(Date.UTC(2026, 10, 4, 9) + h * 3_600_000).toISOString();

describe('an item page’s time', () => {
  it('X11, X14: a campaign lists every entry its spent time sums, each naming its item, and rolls up its estimate', async () => {
    const d = guest();
    const { items } = d.client;
    const campaign = await items.create({ title: 'Fair', type: 'campaign' });
    const task = await items.create({ title: 'Stalls', type: 'task', parent_id: campaign.id });
    const todo = await items.create({
      title: 'Tables',
      type: 'todo',
      parent_id: task.id,
      estimate_minutes: 30,
    });
    await items.create({ title: 'Posters', type: 'task', parent_id: campaign.id, estimate_minutes: 90 });
    await d.client.send('time.addManual', { itemId: todo.id, startedAt: at(0), endedAt: at(1) });
    await d.client.send('time.addManual', { itemId: task.id, startedAt: at(2), endedAt: at(2 + 16 / 60) });

    const page = await itemTime(d.client.db, campaign.id);
    const spent = (await spentByItem(d.client.db)).get(campaign.id);
    // 'Time 1 h 16 m' and the list below it hold the same minutes.
    expect(spent).toBe(76);
    expect(page.entries.map((e) => minutesOf(e.started_at, e.ended_at)).reduce((a, b) => a + b, 0)).toBe(
      spent,
    );
    expect(page.entries.map((e) => e.on?.title)).toEqual(['Stalls', 'Tables']);
    // No estimate of its own: its tasks' (Stalls from its todo) summed.
    expect(page.estimate).toBe(120);

    const taskPage = await itemTime(d.client.db, task.id);
    expect(taskPage.entries.map((e) => e.on?.title ?? null)).toEqual([null, 'Tables']);
    expect(taskPage.estimate).toBe(30);
    const todoPage = await itemTime(d.client.db, todo.id);
    expect(todoPage).toMatchObject({ estimate: 30, entries: [{ on: null }] });
  });
});
