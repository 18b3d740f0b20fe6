import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import type { Paginated } from '../../../shared/item';
import type { TimeEntry } from '../../../shared/timeEntries';
import { liveEntriesOf, runningEntryOf } from './localTimeEntries';

// One real server for the file; every device it lists is closed after.
const files = serverPerFile();

function device(): Device {
  const d = createDevice(files.server.url);
  files.devices.push(d);
  return d;
}

async function signedIn(phone: string): Promise<Device> {
  const d = device();
  await signIn(d, phone, 'Timer');
  return d;
}

async function serverEntries(d: Device, itemId: number): Promise<TimeEntry[]> {
  return (await d.client.api.get<Paginated<TimeEntry>>(`/items/${itemId}/time_entries`)).data.data;
}

const userOf = (d: Device) => d.client.auth.getState().user.id;

/** No two of one person's entries overlap, and at most one runs. */
function expectOneTimeline(entries: readonly { started_at: string; ended_at: string | null }[]): void {
  const spans = entries
    .map((e) => ({
      start: Date.parse(e.started_at),
      end: e.ended_at === null ? null : Date.parse(e.ended_at),
    }))
    .sort((a, b) => a.start - b.start);
  expect(spans.filter((s) => s.end === null).length).toBeLessThanOrEqual(1);
  for (let i = 0; i + 1 < spans.length; i++) {
    expect(spans[i]!.end).not.toBeNull();
    expect(spans[i]!.end!).toBeLessThanOrEqual(spans[i + 1]!.start);
  }
}

describe('time entries on devices (SYNC.md X)', () => {
  it('X10: a timer started offline on device A and stopped on device B ends once on both', async () => {
    const phone = freshPhone();
    const a = await signedIn(phone);
    const item = await createSynced(a, { title: 'Tunnel work', type: 'todo' });
    a.goOffline();
    const started = await a.client.send('time.start', { itemId: item.id });
    // On the device at once, running, with its start queued.
    expect(await runningEntryOf(a.client.db, userOf(a))).toMatchObject({ uuid: started.uuid, running: 1 });
    expect(await a.client.db.syncQueue.filter((e) => e.kind === 'time_create').count()).toBe(1);
    a.goOnline();
    await a.client.engine.sync();
    expect(await a.client.db.syncQueue.count()).toBe(0);

    const b = await signedIn(phone);
    const onB = await runningEntryOf(b.client.db, userOf(b));
    expect(onB?.uuid).toBe(started.uuid);
    const stopAt = Date.parse(started.started_at) + 90_000;
    await b.client.send('time.stop', { uuid: started.uuid, at: stopAt });
    await settled(b);

    // A, offline again, stops the same timer later: the server keeps B's end (a timer ends once).
    a.goOffline();
    await a.client.send('time.stop', { uuid: started.uuid, at: stopAt + 60_000 });
    a.goOnline();
    await a.client.engine.sync();
    await settled(a);
    const ended = new Date(stopAt).toISOString();
    const onServer = await serverEntries(a, item.id);
    expect(onServer).toHaveLength(1);
    expect(onServer[0]).toMatchObject({ uuid: started.uuid, ended_at: ended, minutes: 2 });
    await b.client.engine.sync();
    for (const d of [a, b]) {
      const rows = await liveEntriesOf(d.client.db, userOf(d));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ ended_at: ended, running: 0, _syncStatus: 'synced' });
    }
  });

  it('X10: starting a timer ends the running one at that instant on the device and on the server', async () => {
    const a = await signedIn(freshPhone());
    const first = await createSynced(a, { title: 'First', type: 'todo' });
    const second = await createSynced(a, { title: 'Second', type: 'todo' });
    const t0 = Date.now() - 10 * 60_000;
    const one = await a.client.send('time.start', { itemId: first.id, at: t0 });
    const two = await a.client.send('time.start', { itemId: second.id, at: t0 + 5 * 60_000 });
    // At once on the device, before any answer.
    const local = await a.client.db.timeEntries.get(one.uuid);
    expect(local).toMatchObject({ ended_at: two.started_at, running: 0 });
    await settled(a);
    expect((await serverEntries(a, first.id))[0]).toMatchObject({ ended_at: two.started_at, minutes: 5 });
    expect((await serverEntries(a, second.id))[0]).toMatchObject({ ended_at: null });
    expect(await a.client.db.syncQueue.count()).toBe(0);
  });

  it('X10: a manual entry, its edit and its delete reach the server; an overlapping one is refused on the device', async () => {
    const a = await signedIn(freshPhone());
    const item = await createSynced(a, { title: 'Manual', type: 'todo' });
    const start = new Date(Date.now() - 3 * 3600_000).toISOString();
    const end = new Date(Date.now() - 2 * 3600_000).toISOString();
    const added = await a.client.send('time.addManual', { itemId: item.id, startedAt: start, endedAt: end });
    await expect(
      a.client.send('time.addManual', {
        itemId: item.id,
        startedAt: new Date(Date.parse(start) + 60_000).toISOString(),
        endedAt: end,
      }),
    ).rejects.toThrow('overlaps');
    await a.client.send('time.update', { uuid: added.uuid, patch: { note: 'Planning' } });
    await settled(a);
    expect(await serverEntries(a, item.id)).toMatchObject([
      { uuid: added.uuid, minutes: 60, note: 'Planning' },
    ]);
    await a.client.send('time.remove', added.uuid);
    expect(await liveEntriesOf(a.client.db, userOf(a))).toHaveLength(0);
    await settled(a);
    expect(await serverEntries(a, item.id)).toHaveLength(0);
    expect(await a.client.db.timeEntries.count()).toBe(0);
  });

  it('X10: a guest times offline with no server call, and the entries go up at sign-in', async () => {
    const g = device();
    await g.client.auth.getState().restore();
    const item = await g.client.items.create({ title: 'Guest', type: 'todo' });
    const before = g.control.requests.length;
    const entry = await g.client.send('time.start', { itemId: item.id });
    await g.client.send('time.stop', { uuid: entry.uuid });
    expect(await g.client.db.timeEntries.get(entry.uuid)).toMatchObject({ _syncStatus: 'local', running: 0 });
    expect(await g.client.db.syncQueue.count()).toBe(0);
    expect(g.control.requests.length).toBe(before);
    // Signing in takes the guest's entries up after their items, as the account's.
    await signIn(g, freshPhone(), 'Was Guest');
    await settled(g);
    const moved = await g.client.db.items.where('uuid').equals(item.uuid!).first();
    expect(moved!.id).toBeGreaterThan(0);
    expect(await serverEntries(g, moved!.id)).toMatchObject([
      { uuid: entry.uuid, user: { name: 'Was Guest' } },
    ]);
    expect(await g.client.db.timeEntries.get(entry.uuid)).toMatchObject({
      item_id: moved!.id,
      user_id: userOf(g),
      _syncStatus: 'synced',
    });
  });

  it('X3, X10: two devices starting and stopping timers offline in any interleaving end with at most one running entry and none overlapping', async () => {
    type Op = { device: 0 | 1; act: 'start' | 'stop' | 'sync' };
    const op = fc.record({
      device: fc.constantFrom<0 | 1>(0, 1),
      act: fc.constantFrom<Op['act']>('start', 'start', 'stop', 'sync'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 8 }), async (ops) => {
        const phone = freshPhone();
        const a = await signedIn(phone);
        const item = await createSynced(a, { title: 'Shared', type: 'todo' });
        const b = await signedIn(phone);
        const both = [a, b] as const;
        for (const d of both) d.goOffline();
        // Each step a minute later, both devices' clocks alike; the first starts an hour ago.
        let clock = Date.now() - 3600_000;
        for (const step of ops) {
          const d = both[step.device];
          clock += 60_000;
          if (step.act === 'start') await d.client.send('time.start', { itemId: item.id, at: clock });
          else if (step.act === 'stop') {
            const running = await runningEntryOf(d.client.db, userOf(d));
            if (running) await d.client.send('time.stop', { uuid: running.uuid, at: clock });
          } else {
            d.goOnline();
            await d.client.engine.sync();
            d.goOffline();
          }
          // The device never shows two running or overlapping, whatever it has heard.
          expectOneTimeline(await liveEntriesOf(d.client.db, userOf(d)));
        }
        for (const d of both) d.goOnline();
        await a.client.engine.sync();
        await b.client.engine.sync();
        await a.client.engine.sync();
        await settled(a, b);
        const onServer = await serverEntries(a, item.id);
        expectOneTimeline(onServer);
        const view = (rows: { uuid: string; ended_at: string | null }[]) =>
          rows.map((r) => `${r.uuid}:${r.ended_at}`).sort();
        for (const d of both) {
          const rows = await liveEntriesOf(d.client.db, userOf(d));
          expect(view(rows)).toEqual(view(onServer));
        }
      }),
      { numRuns: 8 },
    );
  });
});
