import { liveQuery } from 'dexie';
import { describe, expect, it } from 'vitest';
import { createDevice, createSynced, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { deviceReads } from '../reads/live';
import type { LocalItem } from '../store/types';
import { clearFinishedUpgrade } from './guestUpgrade';

const files = serverPerFile();
const devices = files.devices;

/** Waits until `done` holds (a live query catching up on a busy machine), or fails after 5 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 5000) throw new Error(`timed out waiting for: ${String(done)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a page open at a guest id across the sign-in that moves its item', () => {
  it('reads the item where the sign-in moved it, live, once it has its server id, not “not found”', async () => {
    // Someone else's items first, so the server's ids are not the guest's 1, 2, 3.
    const other = createDevice(files.server.url);
    devices.push(other);
    await signIn(other, freshPhone(), 'Other');
    for (const title of ['a', 'b', 'c', 'd']) await createSynced(other, { title, type: 'todo' });

    const d = createDevice(files.server.url);
    devices.push(d);
    d.client.auth.getState().initGuest();
    const task = await d.client.items.create({ title: 'Water the plants', type: 'task' });
    const reads = deviceReads(d.client);
    let shown: LocalItem | null | undefined;
    const watching = liveQuery(() => reads.item(task.id)).subscribe((value) => {
      shown = value;
    });
    try {
      await until(() => shown?.title === 'Water the plants');

      await signIn(d, freshPhone(), 'Upgrader');
      // The harness's sign-in syncs: the item has its server id by the time it ends.
      await until(() => shown?._syncStatus === 'synced');
      expect(shown?.title).toBe('Water the plants');
      expect(shown?.id).toBeGreaterThan(4);

      // Once the finished upload is forgotten, the guest's number names nothing again.
      await clearFinishedUpgrade(d.client.db);
      await until(() => shown === null);
    } finally {
      watching.unsubscribe();
    }
  });
});
