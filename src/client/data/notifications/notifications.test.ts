import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, type Device, signIn } from '../../../../testkit/client/harness';
import { type ClientTestServer, freshPhone, startClientTestServer } from '../../../../testkit/client/server';
import type { ToastInput } from '../../stores/toastStore';
import { watchReminders } from '../items/reminders';

let server: ClientTestServer;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startClientTestServer();
});
afterAll(async () => {
  for (const d of devices) d.client.close();
  await server.close();
});

async function signedInDevice(name: string): Promise<Device & { phone: string }> {
  const d = createDevice(server.url);
  devices.push(d);
  const phone = freshPhone();
  await signIn(d, phone, name);
  return Object.assign(d, { phone });
}

const until = async (check: () => boolean, ms = 3000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('notifications on the device', () => {
  it('shows what the server has, keeps it for offline use, and marks entries read', async () => {
    const alex = await signedInDevice('Alex');
    const blair = await signedInDevice('Blair');
    await alex.client.api.post('/contacts/sync', { contacts: [blair.phone] });
    await blair.client.api.post('/contacts/sync', { contacts: [alex.phone] });
    const blairId = blair.client.auth.getState().user.id;
    // Two entries of different kinds: assignments by one person within a minute fold into one (P8).
    const task = await alex.client.api.post<{ id: number }>('/items', {
      title: 'Pack tents',
      type: 'task',
      assigned_to: blairId,
    });
    await alex.client.api.patch(`/items/${task.data.id}`, { status: 'completed' });

    await (await blair.client.notifications()).userChanged();
    const state = blair.client.notificationState.getState();
    expect(state.unread).toBe(2);
    expect(state.entries?.map((e) => e.text)).toEqual([
      'Alex completed task “Pack tents”',
      'Alex assigned you task “Pack tents”',
    ]);

    // A reload without a network shows the last fetch from IndexedDB.
    blair.goOffline();
    const offline = blair.reload();
    devices.push(offline);
    offline.goOffline();
    await offline.client.auth.getState().restore();
    await (await offline.client.notifications()).userChanged();
    expect(offline.client.notificationState.getState()).toMatchObject({ unread: 2, fromCache: true });
    expect(offline.client.notificationState.getState().entries).toHaveLength(2);

    offline.goOnline();
    const first = offline.client.notificationState.getState().entries![0]!;
    await (await offline.client.notifications()).markRead([first.id]);
    expect(offline.client.notificationState.getState().unread).toBe(1);
    expect((await offline.client.api.get<{ unread: number }>('/notifications')).data.unread).toBe(1);
    await (await offline.client.notifications()).markRead();
    expect(offline.client.notificationState.getState().unread).toBe(0);
    expect((await offline.client.api.get<{ unread: number }>('/notifications')).data.unread).toBe(0);
  });

  it('a guest has no notifications and asks the server nothing for them', async () => {
    const guest = createDevice(server.url);
    devices.push(guest);
    guest.client.auth.getState().initGuest();
    await (await guest.client.notifications()).userChanged();
    expect(guest.client.notificationState.getState()).toMatchObject({ userId: 0, unread: 0 });
    expect(guest.control.requests.some((r) => r.url.includes('/notifications'))).toBe(false);
  });
});

describe('reminders on the device', () => {
  it('shows a due reminder once, also for a guest, and again only when its time changes', async () => {
    const guest = createDevice(server.url);
    devices.push(guest);
    guest.client.auth.getState().initGuest();
    let now = Date.parse('2031-05-01T09:00:00Z');
    const toasts: ToastInput[] = [];
    const stop = watchReminders({
      db: guest.client.db,
      toast: (t) => toasts.push(t),
      open: () => {},
      now: () => now,
    });
    const item = await guest.client.items.create({
      title: 'Call the venue',
      type: 'todo',
      remind_at: '2031-05-01T08:59:00.000Z',
    });
    await until(() => toasts.length === 1);
    expect(toasts[0]).toMatchObject({ title: 'Reminder', description: 'Call the venue' });
    stop();

    // A second watch (a reload, another tab) does not show it again.
    const again: ToastInput[] = [];
    const stopAgain = watchReminders({
      db: guest.client.db,
      toast: (t) => again.push(t),
      open: () => {},
      now: () => now,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(again).toEqual([]);
    // A new time is a new reminder.
    now = Date.parse('2031-05-01T10:00:00Z');
    await guest.client.items.update(item.id, { remind_at: '2031-05-01T09:59:30.000Z' });
    await until(() => again.length === 1);
    stopAgain();
  });
});
