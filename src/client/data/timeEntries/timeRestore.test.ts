import { expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';

const files = serverPerFile();
function device(): Device {
  const d = createDevice(files.server.url);
  files.devices.push(d);
  return d;
}

// Failed at 6a43444: the server's restore sent the restored item's comments again, not its time entries.
it('K14: a restored item’s time entries come back to a device that dropped them with its tombstone', async () => {
  const phone = freshPhone();
  const a = device();
  await signIn(a, phone, 'T');
  const b = device();
  await signIn(b, phone, 'T');
  const item = await createSynced(a, { title: 'Timed then gone', type: 'todo' });
  const start = new Date(Date.now() - 3 * 3600_000).toISOString();
  const end = new Date(Date.now() - 2 * 3600_000).toISOString();
  await a.client.api.post(`/items/${item.id}/time_entries`, { started_at: start, ended_at: end });
  await b.client.engine.sync({ manual: true });
  expect(await b.client.db.timeEntries.count()).toBe(1);
  await a.client.engine.sync({ manual: true });
  await a.client.items.remove(item.id);
  await settled(a);
  await b.client.engine.sync({ manual: true });
  expect(await b.client.db.timeEntries.count()).toBe(0);
  await a.client.api.post(`/items/${item.id}/restore`, {});
  await b.client.engine.sync({ manual: true });
  expect(await b.client.db.timeEntries.count()).toBe(1);
});
