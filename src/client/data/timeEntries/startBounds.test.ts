import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { TIME_ENTRY_WHEN_MESSAGE } from '../../../shared/timeEntries';

const { device } = testDevices();

describe('an entry’s start on the device', () => {
  it('X12: a start in 2100 is refused on the device with the server’s words, before anything is stored or queued', async () => {
    const d = device();
    await signIn(d, freshPhone(), 'Planner');
    const item = await d.client.items.create({ title: 'Far ahead', type: 'todo' });
    await expect(
      d.client.send('time.addManual', {
        itemId: item.id,
        startedAt: '2100-01-01T09:00:00.000Z',
        endedAt: '2100-01-01T10:00:00.000Z',
      }),
    ).rejects.toThrow(TIME_ENTRY_WHEN_MESSAGE);
    const ahead = new Date(Date.now() + 30 * 3_600_000);
    await expect(
      d.client.send('time.addManual', {
        itemId: item.id,
        startedAt: ahead.toISOString(),
        endedAt: new Date(ahead.getTime() + 3_600_000).toISOString(),
      }),
    ).rejects.toThrow(TIME_ENTRY_WHEN_MESSAGE);
    expect(await d.client.db.timeEntries.count()).toBe(0);
    expect(await d.client.db.syncQueue.filter((e) => e.kind === 'time_create').count()).toBe(0);
  });
});
