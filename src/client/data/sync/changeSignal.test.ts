import { describe, expect, it, vi } from 'vitest';
import { createDevice, createSynced, type Device, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import { onDataChange } from '../../app/queryProvider';

const files = serverPerFile();

function device(): Device {
  const d = createDevice(files.server.url);
  files.devices.push(d);
  return d;
}

/** Polls until the condition holds (a loaded machine can be slow), failing after `ms`. */
async function until(done: () => boolean, ms = 5000): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > ms) throw new Error(`timed out: ${String(done)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the change signal the server lists follow', () => {
  it('E8: periodic runs that find nothing are no change; one that pulls another device’s change is', async () => {
    const phone = freshPhone();
    const d = device();
    await signIn(d, phone, 'Lists');
    const heard = vi.fn();
    const off = onDataChange({ syncStatus: d.client.status }, heard, 10);
    const pulls = () =>
      d.control.requests.filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/sync').length;
    const stop = d.client.engine.start({ intervalMs: 100, random: () => 0.5 });
    try {
      // The start-up run is a change (it is not the timer's): the lists on screen ask once.
      await until(() => heard.mock.calls.length >= 1);
      await d.client.engine.settled();
      await new Promise((r) => setTimeout(r, 30));
      const heardBefore = heard.mock.calls.length;
      const pullsBefore = pulls();
      await until(() => pulls() >= pullsBefore + 5);
      await d.client.engine.settled();
      await new Promise((r) => setTimeout(r, 30));
      // Five timer runs with nothing new: the lists asked the server nothing.
      expect(heard.mock.calls.length).toBe(heardBefore);

      const other = device();
      await signIn(other, phone, 'Lists');
      await createSynced(other, { title: 'Made elsewhere', type: 'todo' });
      await until(() => heard.mock.calls.length > heardBefore);
      expect((await d.client.db.items.toArray()).map((i) => i.title)).toContain('Made elsewhere');
    } finally {
      stop();
      off();
    }
  });
});
