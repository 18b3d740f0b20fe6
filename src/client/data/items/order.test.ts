import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { createSynced, type Device, settled, signIn, stored } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import type { Item } from '../../../shared/item';
import { inManualOrder } from '../../../shared/manualOrder';
import { keyForLast, moveTo } from '../../../shared/order';
import { childrenWhere } from '../store/childRows';

const { device } = testDevices();

/** The titles under `parentId` on a device, in manual order. */
async function titlesUnder(d: Device, parentId: number): Promise<string[]> {
  const rows = await childrenWhere(d.client.db.items, parentId).toArray();
  return inManualOrder(
    rows.filter((r) => r._deleted === 0).map((r) => ({ ...r, sort_key: r.sort_key ?? '' })),
  ).map((r) => r.title);
}

describe('manual order on the device', () => {
  it('O4: a new top-level item goes after the real last one, not only after the 50 newest rows', async () => {
    const d = device();
    d.client.auth.getState().initGuest();
    const oldest = await d.client.items.create({ title: 'Oldest', type: 'campaign' });
    let last = oldest;
    for (let n = 0; n < 55; n++) last = await d.client.items.create({ title: `C${n}`, type: 'campaign' });
    // The oldest is moved to the end: its key is now the greatest, and it is far from the newest rows.
    const moved = await d.client.items.update(oldest.id, { sort_key: keyForLast(last.sort_key!) });
    const created = await d.client.items.create({ title: 'New', type: 'campaign' });
    expect(created.sort_key! > moved.sort_key!).toBe(true);
  });

  it('O2, O4: a reorder is one undoable local write of sort_key, and Move to… goes last in its new parent', async () => {
    const d = device();
    d.client.auth.getState().initGuest();
    const trip = await d.client.items.create({ title: 'Trip', type: 'campaign' });
    const home = await d.client.items.create({ title: 'Home', type: 'campaign' });
    for (const title of ['Tickets', 'Hotel', 'Bags'])
      await d.client.items.create({ title, type: 'task', parent_id: trip.id });
    const paint = await d.client.items.create({ title: 'Paint', type: 'task', parent_id: home.id });
    const rows = inManualOrder((await childrenWhere(d.client.db.items, trip.id).toArray()) as never[]) as {
      id: number;
      sort_key: string;
      uuid: string;
    }[];
    const bags = rows[2]!;
    const [write] = moveTo(rows, bags.id, 0);
    await d.client.items.update(write!.id, { sort_key: write!.sort_key });
    expect(await titlesUnder(d, trip.id)).toEqual(['Bags', 'Tickets', 'Hotel']);
    const undo = await d.client.undo();
    await undo.undo();
    expect(await titlesUnder(d, trip.id)).toEqual(['Tickets', 'Hotel', 'Bags']);
    // Move to… names no place: the device puts it after Bags, the last of Trip.
    const movedPaint = await d.client.items.update(paint.id, { parent_id: trip.id });
    expect(movedPaint.sort_key! > bags.sort_key).toBe(true);
    expect(await titlesUnder(d, trip.id)).toEqual(['Tickets', 'Hotel', 'Bags', 'Paint']);
  });

  it('O3: two devices of one user reorder the same list offline, go online, and end in the server’s order', async () => {
    const phone = freshPhone();
    const a = device();
    const b = device();
    await signIn(a, phone, 'Orderer');
    await signIn(b, phone, 'Orderer');
    const list = await createSynced(a, { title: 'Launch', type: 'campaign' });
    for (const title of ['One', 'Two', 'Three', 'Four'])
      await createSynced(a, { title, type: 'task', parent_id: list.id });
    await b.client.engine.sync();
    a.goOffline();
    b.goOffline();
    const reorder = async (d: Device, title: string, to: number) => {
      const rows = inManualOrder(
        (await childrenWhere(d.client.db.items, list.id).toArray()).map((r) => ({
          ...r,
          sort_key: r.sort_key ?? '',
        })),
      );
      const item = rows.find((r) => r.title === title)!;
      for (const w of moveTo(rows, item.id, to)) await d.client.items.update(w.id, { sort_key: w.sort_key });
    };
    await reorder(a, 'Four', 0);
    await reorder(a, 'One', 3);
    await reorder(b, 'Four', 2);
    await reorder(b, 'Two', 0);
    expect(await titlesUnder(a, list.id)).toEqual(['Four', 'Two', 'Three', 'One']);
    expect(await titlesUnder(b, list.id)).toEqual(['Two', 'One', 'Four', 'Three']);
    b.goOnline();
    await b.client.engine.sync();
    a.goOnline();
    await a.client.engine.sync();
    await b.client.engine.sync();
    await settled(a, b);
    const server = (await a.client.api.get<{ data: Item[] }>(`/items?parent_id=${list.id}`)).data.data;
    const serverOrder = inManualOrder(server.map((i) => ({ ...i, sort_key: i.sort_key ?? '' }))).map(
      (i) => i.title,
    );
    expect(await titlesUnder(a, list.id)).toEqual(serverOrder);
    expect(await titlesUnder(b, list.id)).toEqual(serverOrder);
    // a synced last: its moves of Four and One stand (One last, Four before Three); b's move of Two
    // stands too, as nobody moved it later.
    expect(serverOrder.at(-1)).toBe('One');
    expect(serverOrder.indexOf('Four')).toBeLessThan(serverOrder.indexOf('Three'));
    expect(serverOrder.indexOf('Two')).toBeLessThan(serverOrder.indexOf('Three'));
    expect((await stored(a, list))?._conflict ?? null).toBeNull();
  });
});
