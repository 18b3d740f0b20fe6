import { describe, expect, it } from 'vitest';
import { createDevice, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { badgeLabel, badgeVisible, createSyncStatusStore } from '../../stores/syncStatusStore';
import { trackReachability } from './reachability';

const files = serverPerFile();
const devices = files.devices;

async function signedInDevice(): Promise<Device> {
  const d = createDevice(files.server.url);
  devices.push(d);
  await signIn(d, freshPhone(), 'Trust Tester');
  return d;
}

/** The server is down or cut off while the browser still says it is online. */
function serverDown(d: Device): void {
  d.control.offline = true;
}

function lastToast(d: Device) {
  return d.client.toasts.getState().queue.at(-1);
}

describe('sync status: offline, server unreachable, online (R1, R2)', () => {
  it("R1, R2: a sync that cannot reach the server says 'Sync failed' and 'Server unreachable (N pending)', never 'Sync complete'", async () => {
    const d = await signedInDevice();
    serverDown(d);
    await d.client.items.create({ title: 'One', type: 'todo' });
    await d.client.items.create({ title: 'Two', type: 'todo' });

    const result = await d.client.engine.sync({ manual: true });
    expect(result).toMatchObject({ outcome: 'unreachable', pending: 2 });
    expect(lastToast(d)).toMatchObject({
      title: 'Sync failed',
      description: 'Server unreachable — 2 changes waiting. Failed to sync items. Please try again.',
      variant: 'destructive',
    });
    const state = d.client.status.getState();
    expect(state).toMatchObject({ online: true, serverReachable: false, pendingCount: 2 });
    expect(badgeLabel(state)).toBe('Server unreachable (2 pending)');
    expect(badgeVisible(state)).toBe(true);
    expect(await d.client.send('device.pendingChanges')).toBe(2);
  });

  it("R1, R2: back to 'Online' and 'Sync complete' once a request reaches the server", async () => {
    const d = await signedInDevice();
    serverDown(d);
    await d.client.items.create({ title: 'Waiting', type: 'todo' });
    await settled(d);
    expect(d.client.status.getState().serverReachable).toBe(false);

    d.control.offline = false;
    const result = await d.client.engine.sync({ manual: true });
    expect(result).toMatchObject({ outcome: 'synced', pending: 0 });
    expect(lastToast(d)).toMatchObject({
      title: 'Sync complete',
      description: 'Your items have been synchronized.',
    });
    const state = d.client.status.getState();
    expect(state.serverReachable).toBe(true);
    expect(badgeLabel(state)).toBe('Online');
  });

  it("R1, R2: no network is 'Offline', not 'Server unreachable', and Sync Now says so", async () => {
    const d = await signedInDevice();
    d.goOffline();
    await d.client.items.create({ title: 'Offline note', type: 'todo' });
    const result = await d.client.engine.sync({ manual: true });
    expect(result).toMatchObject({ skipped: 'offline', outcome: 'offline', pending: 1 });
    expect(lastToast(d)).toMatchObject({
      title: 'Sync failed',
      description:
        "You're offline — 1 change waiting. Failed to sync items. Please try again when you're connected.",
    });
    const state = d.client.status.getState();
    expect(state.serverReachable).toBe(true);
    expect(badgeLabel(state)).toBe('Offline');
  });

  it("R1: a server error that leaves changes queued is 'Sync failed', though the server was reached", async () => {
    const d = await signedInDevice();
    d.goOffline();
    await d.client.items.create({ title: 'Refused for now', type: 'todo' });
    d.goOnline();
    d.control.failNext = { match: (m, url) => m === 'POST' && url.endsWith('/api/items'), status: 503 };
    const result = await d.client.engine.sync({ manual: true });
    expect(result).toMatchObject({ outcome: 'failed', pending: 1 });
    expect(lastToast(d)).toMatchObject({
      title: 'Sync failed',
      description: 'Failed to sync items — 1 change waiting. Please try again.',
    });
    expect(d.client.status.getState().serverReachable).toBe(true);
  });

  it('R2: the badge tells the three states apart and stays while the server is unreachable', () => {
    const base = { syncing: false, pendingCount: 5, changedAt: null };
    expect(badgeLabel({ ...base, online: false, serverReachable: false })).toBe('Offline');
    expect(badgeLabel({ ...base, online: true, serverReachable: false })).toBe(
      'Server unreachable (5 pending)',
    );
    expect(badgeLabel({ ...base, online: true, serverReachable: true })).toBe('Online (5 pending)');
    expect(badgeLabel({ ...base, pendingCount: 0, online: true, serverReachable: false })).toBe(
      'Server unreachable',
    );
    expect(badgeVisible({ ...base, pendingCount: 0, online: true, serverReachable: false }, 1e12)).toBe(true);
    const store = createSyncStatusStore(true);
    store.getState().setServerReachable(false, 1000);
    store.getState().setServerReachable(true, 2000);
    // Coming back shows 'Online' for the spec's 3 seconds.
    expect(store.getState().changedAt).toBe(2000);
    expect(badgeVisible(store.getState(), 4999)).toBe(true);
    expect(badgeVisible(store.getState(), 5001)).toBe(false);
  });

  it('R2: a request the app cancelled, or one made while offline, says nothing about the server', async () => {
    const store = createSyncStatusStore(true);
    let online = true;
    const failing = trackReachability(
      async () => {
        throw new TypeError('fetch failed');
      },
      store,
      () => online,
    );
    const aborted = new AbortController();
    aborted.abort();
    await expect(failing('/api/x', { signal: aborted.signal })).rejects.toThrow();
    expect(store.getState().serverReachable).toBe(true);
    online = false;
    await expect(failing('/api/x')).rejects.toThrow();
    expect(store.getState().serverReachable).toBe(true);
    online = true;
    await expect(failing('/api/x')).rejects.toThrow();
    expect(store.getState().serverReachable).toBe(false);
    const answering = trackReachability(
      async () => new Response('{}', { status: 500 }),
      store,
      () => true,
    );
    await answering('/api/x');
    expect(store.getState().serverReachable).toBe(true);
  });
});
