import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventSourceOver } from '../../../../testkit/client/eventSource';
import { createDevice, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { syncService } from './syncService';

const files = serverPerFile();
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.unstubAllGlobals();
});

async function signedInDevice(phone: string): Promise<Device> {
  const d = createDevice(files.server.url);
  files.devices.push(d);
  await signIn(d, phone, 'Signed Out Elsewhere');
  return d;
}

/** The device's sync triggers with its event stream open on the real server, as start() runs them. */
async function streaming(d: Device) {
  const source = eventSourceOver(d.jar.fetch);
  vi.stubGlobal('EventSource', source.EventSource);
  const openPath = vi.fn();
  stops.push(
    syncService.start({
      auth: d.client.auth,
      connectivity: { isOnline: () => !d.control.offline, subscribe: () => () => {} },
      engine: d.client.engine,
      notifications: async () => ({ onUnread: () => {} }),
      options: { baseUrl: files.server.url, openPath },
      toasts: d.client.toasts,
      updateMutuals: async () => {},
    }),
  );
  await vi.waitFor(() => expect(source.opened()).toBe(1), { timeout: 5000 });
  return { source, openPath };
}

describe('a session ended on the server', () => {
  it('E7: signs the device out the moment its stream says so, tells the user why, and keeps its unsent change', async () => {
    const phone = freshPhone();
    const laptop = await signedInDevice(phone);
    const phoneDevice = await signedInDevice(phone);
    const { source, openPath } = await streaming(laptop);

    // A change the server has not taken yet (it answered 503 once: Q7 keeps it queued).
    laptop.control.failNext = { match: (method) => method === 'POST', status: 503 };
    await laptop.client.items.create({ title: 'Not sent yet', type: 'todo' });
    await settled(laptop);
    expect(await laptop.client.db.syncQueue.count()).toBe(1);

    const started = Date.now();
    await phoneDevice.client.auth.getState().logout({ everywhere: true });
    await vi.waitFor(() => expect(laptop.client.auth.getState().isAnonymous).toBe(true), { timeout: 3000 });
    // Told by the stream, not found out by the next sync run (the 30 s poll) or a request's 401.
    expect(Date.now() - started).toBeLessThan(2000);

    const [toast] = laptop.client.toasts.getState().queue;
    expect(toast).toMatchObject({ title: 'You were signed out' });
    expect(toast?.description).toContain('Sign out everywhere');
    toast?.action?.onClick();
    expect(openPath).toHaveBeenCalledWith('/login');
    expect(await laptop.client.db.syncQueue.count()).toBe(1);

    // The stream is not opened again for a session that has ended.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(source.opened()).toBe(1);
  });

  it('E7: a device that signs out itself says nothing more: its own stream’s last word finds it leaving', async () => {
    const d = await signedInDevice(freshPhone());
    await streaming(d);
    await d.client.auth.getState().logout();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(d.client.auth.getState().isAnonymous).toBe(true);
    expect(d.client.toasts.getState().queue).toEqual([]);
  });
});
