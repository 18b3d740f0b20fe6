import Dexie, { type ObservabilitySet } from 'dexie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, type Device, drawsFirstRows, signIn } from '../../../../testkit/client/harness';
import { type ClientTestServer, freshPhone, startClientTestServer } from '../../../../testkit/client/server';
import { seedAccount } from '../../../../testkit/seedAccount';
import { SYNC_FIRST_PAGE_SIZE, SYNC_PAGE_SIZE } from '../../../shared/item';
import type { PullProgress } from '../../stores/syncStatusStore';
import { pullProgressLabel } from '../../stores/syncStatusStore';
import { COUNT_WAITS_FOR_SCREEN_MS } from './pull';

let server: ClientTestServer;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startClientTestServer();
});
afterAll(async () => {
  for (const d of devices) d.client.close();
  await server.close();
});

/** Every value the status's pull progress takes, in order, from now on. */
function recordProgress(d: Device): (PullProgress | null)[] {
  const seen: (PullProgress | null)[] = [];
  d.client.status.subscribe((state, prev) => {
    if (state.pullProgress !== prev.pullProgress) seen.push(state.pullProgress);
  });
  return seen;
}

describe('pull progress (L8)', () => {
  it('L8, L16: a first sync of 1,200 items shows its total once the third page (the counted one) arrives, then goes up with each stored transaction to 1,200, then clears', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Progress', 1200);
    const d = createDevice(server.url);
    devices.push(d);
    drawsFirstRows(d);
    const seen = recordProgress(d);
    await signIn(d, phone, 'Progress');
    await d.client.engine.sync();

    // A step per stored transaction: a page, or pages that arrived while the one before was stored (L9).
    // The count rides on the third page (L8): the pages stored meanwhile are counted in it.
    expect(seen[0]?.total).toBe(1200);
    expect([0, SYNC_FIRST_PAGE_SIZE, SYNC_FIRST_PAGE_SIZE + SYNC_PAGE_SIZE]).toContain(seen[0]?.received);
    expect(seen.at(-2)).toEqual({ received: 1200, total: 1200 });
    expect(seen.at(-1)).toBeNull();
    const received = seen.slice(0, -1).map((p) => p?.received);
    expect(received.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < received.length; i++) {
      expect(received[i]! > received[i - 1]!).toBe(true);
      // L16: the first page is the small one, the rest full.
      expect((received[i]! - SYNC_FIRST_PAGE_SIZE) % SYNC_PAGE_SIZE === 0 || received[i] === 1200).toBe(true);
    }
    expect(await d.client.db.items.count()).toBe(1200);
    expect(pullProgressLabel({ received: 45_000, total: 100_000 })).toBe('Syncing 45,000 of 100,000');
  });

  it('L8: the second page is asked for uncounted as the first arrives, the counted third only once the first is stored (and drawn)', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Held', SYNC_FIRST_PAGE_SIZE + 2 * SYNC_PAGE_SIZE);
    const d = createDevice(server.url);
    devices.push(d);
    drawsFirstRows(d);
    // This device's commits that wrote items, counted as they happen (the other tests' devices go on
    // syncing beside it); read at the moment the counted page is asked for.
    const itemsPart = `idb://${d.client.db.name}/items/`;
    let itemCommits = 0;
    const onMutated = (parts: ObservabilitySet) => {
      if (Object.keys(parts).some((part) => part.startsWith(itemsPart))) itemCommits++;
    };
    Dexie.on('storagemutated', onMutated);
    // The sign-in may store items of its own after the first page is asked for.
    const commitsWhenAsked: number[] = [];
    const counted: boolean[] = [];
    d.control.holdNext = (_method, url) => {
      if (url.includes('/api/sync?')) {
        commitsWhenAsked.push(itemCommits);
        counted.push(url.includes('count=1'));
      }
      return false;
    };
    try {
      await signIn(d, phone, 'Held');
      await d.client.engine.sync();
    } finally {
      Dexie.on('storagemutated').unsubscribe(onMutated);
    }
    // (A later run may ask again from the stored cursor.)
    expect(counted.slice(0, 3)).toEqual([false, false, true]);
    // Between the second ask and the third, the first page's transaction and nothing else: the second
    // was asked before it was stored, the third only once it was. (The first is asked as the sign-in
    // answers, L16, before the sign-in's own writes.)
    expect(commitsWhenAsked[2]).toBe(commitsWhenAsked[1]! + 1);
    expect(await d.client.db.items.count()).toBe(SYNC_FIRST_PAGE_SIZE + 2 * SYNC_PAGE_SIZE);
  });

  it('L8: while no screen draws the first rows, the pages go on uncounted; the count rides on the first page asked once the wait is over', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Undrawn', SYNC_FIRST_PAGE_SIZE + 5 * SYNC_PAGE_SIZE);
    const d = createDevice(server.url);
    devices.push(d);
    const seen = recordProgress(d);
    const asked: { counted: boolean; at: number }[] = [];
    let storedAt = 0;
    const itemsPart = `idb://${d.client.db.name}/items/`;
    const onMutated = (parts: ObservabilitySet) => {
      if (storedAt === 0 && Object.keys(parts).some((part) => part.startsWith(itemsPart)))
        storedAt = Date.now();
    };
    Dexie.on('storagemutated', onMutated);
    // The fourth page is held past the wait, so the pull is still going when the count may go.
    const hold = (_method: string, url: string) => {
      if (!url.includes('/api/sync?')) return false;
      asked.push({ counted: url.includes('count=1'), at: Date.now() });
      if (asked.length !== 4) return false;
      setTimeout(() => {
        d.control.holdNext = hold;
        d.control.release();
      }, COUNT_WAITS_FOR_SCREEN_MS + 300);
      return true;
    };
    d.control.holdNext = hold;
    try {
      await signIn(d, phone, 'Undrawn');
      await d.client.engine.sync();
    } finally {
      Dexie.on('storagemutated').unsubscribe(onMutated);
    }
    const counted = asked.map((a) => a.counted);
    // Pages two to four went uncounted while the wait ran; the fifth, asked after it, carries the count.
    expect(counted.slice(0, 5)).toEqual([false, false, false, false, true]);
    expect(asked[4]!.at - storedAt).toBeGreaterThanOrEqual(COUNT_WAITS_FOR_SCREEN_MS - 50);
    expect(seen[0]?.total).toBe(SYNC_FIRST_PAGE_SIZE + 5 * SYNC_PAGE_SIZE);
    expect(seen.at(-1)).toBeNull();
    expect(await d.client.db.items.count()).toBe(SYNC_FIRST_PAGE_SIZE + 5 * SYNC_PAGE_SIZE);
  });

  it('L8: a pull of two pages shows no progress (only a third page asks for the count)', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Two', SYNC_FIRST_PAGE_SIZE + 300);
    const d = createDevice(server.url);
    devices.push(d);
    const seen = recordProgress(d);
    const asked: string[] = [];
    d.control.holdNext = (_method, url) => {
      if (url.includes('/api/sync?')) asked.push(url);
      return false;
    };
    await signIn(d, phone, 'Two');
    await d.client.engine.sync();
    expect(seen).toEqual([]);
    expect(asked.some((url) => url.includes('count=1'))).toBe(false);
    expect(await d.client.db.items.count()).toBe(SYNC_FIRST_PAGE_SIZE + 300);
  });

  it('L8: a pull of one page shows no progress', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Small', SYNC_FIRST_PAGE_SIZE - 20);
    const d = createDevice(server.url);
    devices.push(d);
    const seen = recordProgress(d);
    await signIn(d, phone, 'Small');
    await d.client.engine.sync();
    expect(seen).toEqual([]);
    expect(await d.client.db.items.count()).toBe(SYNC_FIRST_PAGE_SIZE - 20);
  });

  it('L8: an edit sent through the command map while the pull streams is stored before the pull ends', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Sender', 2000);
    const d = createDevice(server.url);
    devices.push(d);
    // On Home, which draws the first rows: the count goes with the third page (L8).
    drawsFirstRows(d);
    const send = d.client.send;
    let edited: Promise<unknown> | null = null;
    let editedDuringPull = false;
    let stored: string | undefined;
    d.client.status.subscribe((state) => {
      const progress = state.pullProgress;
      if (edited || !progress || progress.received === 0) return;
      edited = (async () => {
        const first = await d.client.db.items.orderBy('id').first();
        if (!first) throw new Error('nothing stored after the first page');
        // Without waiting for it: the pull must.
        const update = send('items.update', { id: first.id, patch: { title: 'Sent while syncing' } });
        editedDuringPull = d.client.status.getState().pullProgress !== null;
        await update;
      })();
    });
    const pullEnded = (async () => {
      await signIn(d, phone, 'Sender');
      await d.client.engine.sync();
      stored = (await d.client.db.items.orderBy('id').first())?.title;
    })();
    await pullEnded;
    expect(edited).not.toBeNull();
    await edited;
    expect(editedDuringPull).toBe(true);
    // Read as the pull ended, before this test awaited the edit itself.
    expect(stored).toBe('Sent while syncing');
  });

  it('L8: a local edit made while the pull streams is stored before the pull ends', async () => {
    const phone = freshPhone();
    await seedAccount(server.database.db, phone, 'Editor', 2000);
    const d = createDevice(server.url);
    devices.push(d);
    // On Home, which draws the first rows: the count goes with the third page (L8).
    drawsFirstRows(d);
    let edited: Promise<unknown> | null = null;
    let editedDuringPull = false;
    d.client.status.subscribe((state) => {
      const progress = state.pullProgress;
      if (edited || !progress || progress.received === 0) return;
      // The first page is stored and three more are on their way: edit what has arrived.
      edited = (async () => {
        const first = await d.client.db.items.orderBy('id').first();
        if (!first) throw new Error('nothing stored after the first page');
        await d.client.items.update(first.id, { title: 'Edited while syncing' });
        editedDuringPull = d.client.status.getState().pullProgress !== null;
      })();
    });
    await signIn(d, phone, 'Editor');
    await d.client.engine.sync();
    expect(edited).not.toBeNull();
    await edited;
    expect(editedDuringPull).toBe(true);
    expect(await d.client.db.items.count()).toBe(2000);
    const first = await d.client.db.items.orderBy('id').first();
    expect(first?.title).toBe('Edited while syncing');
  });
});
