import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import { serverPerFile } from '../../../../testkit/client/serverPerFile';
import type { Attachment } from '../../../shared/attachments';
import type { Paginated } from '../../../shared/item';
import { manualConnectivity } from '../net/connectivity';
import { deviceReads } from '../reads/live';
import { keptViews, rejectedChanges } from '../store/keptChanges';
import type { LocalAttachment } from '../store/types';

// One real server for the file; every device it lists is closed after.
const files = serverPerFile();

function device(): Device {
  const d = createDevice(files.server.url);
  files.devices.push(d);
  return d;
}

async function signedIn(name = 'Filer', phone = freshPhone()): Promise<Device> {
  const d = device();
  await signIn(d, phone, name);
  return d;
}

/** A small PNG-looking file (its type is the server's to read) with `n` bytes of body. */
function picked(name: string, n = 2048, seed = 7): File {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * seed + 13) % 251;
  return new File([bytes], name, { type: 'application/octet-stream' });
}

async function sha256Of(blob: Blob): Promise<string> {
  return createHash('sha256')
    .update(Buffer.from(await blob.arrayBuffer()))
    .digest('hex');
}

/** The item's files as the server lists them. */
async function serverFiles(d: Device, itemId: number): Promise<Attachment[]> {
  return (await d.client.api.get<Paginated<Attachment>>(`/items/${itemId}/attachments`)).data.data;
}

/** The device's files of an item as the strip reads them (newest first, deleted ones left out). */
async function stripOf(d: Device, itemId: number): Promise<LocalAttachment[]> {
  const reads = deviceReads(d.client);
  // A later screen's read answers undefined until its module has arrived.
  for (let i = 0; i < 50; i++) {
    const rows = await reads.attachments(itemId);
    if (rows) return rows;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the item page reads never loaded');
}

/** Runs the uploader and waits for it. */
async function upload(d: Device): Promise<void> {
  d.client.uploads.kick();
  await d.client.uploads.settled();
}

const uploadsSent = (d: Device) =>
  d.control.requests.filter((r) => r.method === 'POST' && /\/attachments(\?|$)/.test(r.url)).length;

describe('files on items on the device (SYNC.md A)', () => {
  it('A1: a file picked offline is stored at once, waiting, its bytes in the file store and no queue row; it opens from its Blob', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Broken gate', type: 'todo' });
    d.goOffline();
    const file = picked('gate photo.jpg', 4096);
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [file] });
    expect(row).toMatchObject({
      item_id: item.id,
      name: 'gate photo.jpg',
      size: 4096,
      url: '',
      _syncStatus: 'pending',
      _upload: { state: 'waiting' },
    });
    expect(row!.id).toBeLessThan(0);
    expect(await d.client.db.syncQueue.count()).toBe(0);
    expect((await stripOf(d, item.id)).map((a) => a.uuid)).toEqual([row!.uuid]);
    const blob = await d.client.send('attachments.blob', { uuid: row!.uuid });
    expect(blob).not.toBeNull();
    expect(await sha256Of(blob!)).toBe(await sha256Of(file));
    // Nothing of it is in the item either.
    expect(JSON.stringify(await d.client.db.items.get(item.id))).not.toContain(row!.uuid);
    expect(await d.client.send('attachments.waiting')).toEqual({ count: 1, bytes: 4096 });
  });

  it('A5: a file picked offline survives a reload offline, and once online it is uploaded once with the right sha256', async () => {
    const first = await signedIn();
    const item = await createSynced(first, { title: 'Signed quote', type: 'todo' });
    first.goOffline();
    const file = picked('quote.pdf', 10_000, 3);
    const [row] = await first.client.send('attachments.add', { itemId: item.id, files: [file] });
    await upload(first);
    expect(uploadsSent(first)).toBe(0);

    const d = first.reload();
    files.devices.push(d);
    d.goOffline();
    await d.client.auth.getState().restore();
    const [waiting] = await stripOf(d, item.id);
    expect(waiting).toMatchObject({ uuid: row!.uuid, _upload: { state: 'waiting' } });
    d.goOnline();
    await upload(d);

    const onServer = await serverFiles(d, item.id);
    expect(onServer).toHaveLength(1);
    expect(onServer[0]).toMatchObject({ uuid: row!.uuid, name: 'quote.pdf', size: 10_000 });
    expect(onServer[0]!.sha256).toBe(await sha256Of(file));
    const [stored] = await stripOf(d, item.id);
    expect(stored).toMatchObject({ id: onServer[0]!.id, uuid: row!.uuid, _syncStatus: 'synced' });
    expect(stored!.url).not.toBe('');
    expect(stored!._upload).toBeUndefined();
    // The bytes left the device with the server's answer.
    expect(await d.client.db.fileBlobs.count()).toBe(0);
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).toBeNull();
  });

  it('A2: an item edit queued while an upload is in flight reaches the server without waiting for it', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Slide deck', type: 'todo' });
    d.control.holdNext = (method, url) => method === 'POST' && url.includes('/attachments');
    await d.client.send('attachments.add', { itemId: item.id, files: [picked('deck.pdf', 50_000)] });
    for (let i = 0; i < 200 && d.control.held === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(d.control.held).toBe(1);
    expect((await stripOf(d, item.id))[0]?._upload?.state).toBe('uploading');

    await d.client.items.update(item.id, { title: 'Slide deck v2' });
    await settled(d);
    const server = (await d.client.api.get<{ title: string }>(`/items/${item.id}`)).data;
    expect(server.title).toBe('Slide deck v2');
    expect(d.control.held).toBe(1);

    d.control.release();
    await d.client.uploads.settled();
    expect(await serverFiles(d, item.id)).toHaveLength(1);
  });

  it('A3: a file on an item created offline waits for its item, then names the server’s id', async () => {
    const d = await signedIn();
    d.goOffline();
    const item = await d.client.items.create({ title: 'Made in a tunnel', type: 'todo' });
    expect(item.id).toBeLessThan(0);
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('map.png')] });
    await d.client.uploads.settled();
    d.goOnline();
    // The item is not on the server yet: the uploader sends nothing.
    await upload(d);
    expect(uploadsSent(d)).toBe(0);

    await d.client.engine.sync();
    const serverId = (await d.client.db.items.where('uuid').equals(item.uuid!).first())!.id;
    expect(serverId).toBeGreaterThan(0);
    expect((await d.client.db.attachments.where('uuid').equals(row!.uuid).first())?.item_id).toBe(serverId);
    await upload(d);
    expect(d.control.requests.some((r) => r.url.includes(`/api/items/${serverId}/attachments`))).toBe(true);
    expect((await serverFiles(d, serverId)).map((a) => a.uuid)).toEqual([row!.uuid]);
    // The strip read by the temporary id follows the item to its server id.
    expect((await stripOf(d, item.id)).map((a) => a.id)).toEqual([expect.any(Number)]);
    expect((await stripOf(d, item.id))[0]!.id).toBeGreaterThan(0);
  });

  it('A4: an upload whose answer was lost, sent again, stores one row on the server', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Receipt', type: 'todo' });
    d.control.dropNextResponse = (method, url) => method === 'POST' && url.includes('/attachments');
    // Adding a file starts the uploader at once.
    await d.client.send('attachments.add', { itemId: item.id, files: [picked('receipt.jpg')] });
    await d.client.uploads.settled();
    // No answer arrived: it waits, as a queued change does (Q2).
    expect((await stripOf(d, item.id))[0]?._upload?.state).toBe('waiting');
    expect(await serverFiles(d, item.id)).toHaveLength(1);

    await upload(d);
    expect(uploadsSent(d)).toBe(2);
    const onServer = await serverFiles(d, item.id);
    expect(onServer).toHaveLength(1);
    expect((await stripOf(d, item.id)).map((a) => a.id)).toEqual([onServer[0]!.id]);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
  });

  it('A5: a server failure counts a retry and waits; at the third the file is failed with the server’s words, and Retry sends it', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Minutes', type: 'todo' });
    d.goOffline();
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('minutes.txt')] });
    await d.client.uploads.settled();
    d.goOnline();
    for (let n = 1; n <= 3; n++) {
      d.control.failNext = {
        match: (method, url) => method === 'POST' && url.includes('/attachments'),
        status: 503,
        body: { message: 'The store is down for a moment.' },
      };
      await upload(d);
      const [now] = await stripOf(d, item.id);
      if (n < 3) expect(now?._upload).toMatchObject({ state: 'waiting', retries: n });
      else expect(now?._upload).toMatchObject({ state: 'failed', error: 'The store is down for a moment.' });
    }
    // A failed file is not tried again by itself.
    await upload(d);
    expect(uploadsSent(d)).toBe(3);
    await d.client.send('attachments.retry', { uuid: row!.uuid });
    await d.client.uploads.settled();
    expect((await serverFiles(d, item.id)).map((a) => a.uuid)).toEqual([row!.uuid]);
  });

  it('A6: a 413 marks the file failed with the server’s words, keeps its bytes, and Retry goes again', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Video', type: 'todo' });
    d.control.failNext = {
      match: (method, url) => method === 'POST' && url.includes('/attachments'),
      status: 413,
      body: { message: 'The file is larger than the limit of 25 MB.' },
    };
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('clip.mov')] });
    await d.client.uploads.settled();
    const [failed] = await stripOf(d, item.id);
    expect(failed?._upload).toMatchObject({
      state: 'failed',
      error: 'The file is larger than the limit of 25 MB.',
    });
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).not.toBeNull();
    await d.client.send('attachments.retry', { uuid: row!.uuid });
    await d.client.uploads.settled();
    expect(await serverFiles(d, item.id)).toHaveLength(1);
  });

  it('A6: an upload whose item was deleted on the server is kept with the changes that could not be applied, its bytes with it', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Gone soon', type: 'todo' });
    d.goOffline();
    const [row] = await d.client.send('attachments.add', {
      itemId: item.id,
      files: [picked('lost.jpg', 3000)],
    });
    await d.client.uploads.settled();
    d.goOnline();
    // Another device deleted the item meanwhile.
    await d.client.api.delete(`/items/${item.id}`);
    await upload(d);

    const kept = await rejectedChanges(d.client.db);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ kind: 'attachment_upload', data: { uuid: row!.uuid, name: 'lost.jpg' } });
    // Preferences › Data lists it by the file's name and its item.
    expect((await keptViews(d.client.db))[0]?.what).toBe('File “lost.jpg” on “Gone soon”');
    expect(await d.client.db.attachments.where('uuid').equals(row!.uuid).count()).toBe(0);
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).not.toBeNull();
    expect(d.client.toasts.getState().queue.some((t) => /could not be applied/.test(t.title))).toBe(true);

    // Dismissed in Preferences › Data: the bytes go with it at the next run.
    await d.client.send('device.dismissKept');
    await upload(d);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
  });

  it('A6: an upload to an item held as a member and lost with its campaign is kept, its cause the removal (Q20)', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Their campaign’s todo', type: 'todo' });
    await d.client.engine.sync();
    // Held as a member (as the server would mark it), then gone from the caller's view.
    await d.client.db.items.update(item.id, { my_role: 'editor' } as never);
    d.goOffline();
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('theirs.jpg')] });
    await d.client.uploads.settled();
    d.goOnline();
    await d.client.api.delete(`/items/${item.id}`);
    await upload(d);
    const kept = await rejectedChanges(d.client.db);
    expect(kept.map((k) => [k.kind, k.cause, k.data?.uuid])).toEqual([
      ['attachment_upload', 'removed', row!.uuid],
    ]);
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).not.toBeNull();
  });

  it('A6: an upload refused for the role (a viewer now) is kept with the changes that could not be applied, its cause the role', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Read only now', type: 'todo' });
    d.control.failNext = {
      match: (method, url) => method === 'POST' && url.includes('/attachments'),
      status: 403,
      body: { message: 'Viewers cannot change this campaign.' },
    };
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('nope.jpg')] });
    await d.client.uploads.settled();
    const kept = await rejectedChanges(d.client.db);
    expect(kept.map((k) => [k.kind, k.cause, k.data?.uuid])).toEqual([
      ['attachment_upload', 'role', row!.uuid],
    ]);
    expect(await stripOf(d, item.id)).toEqual([]);
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).not.toBeNull();
  });

  it('A10: another device pulls the file’s row, never its bytes, and its delete as a tombstone', async () => {
    const phone = freshPhone();
    const a = await signedIn('A', phone);
    const item = await createSynced(a, { title: 'Shared photo', type: 'todo' });
    const [row] = await a.client.send('attachments.add', { itemId: item.id, files: [picked('photo.jpg')] });
    await upload(a);
    const b = await signedIn('B', phone);
    const [onB] = await stripOf(b, item.id);
    expect(onB).toMatchObject({ uuid: row!.uuid, name: 'photo.jpg', _syncStatus: 'synced' });
    expect(onB!.id).toBeGreaterThan(0);
    expect(await b.client.db.fileBlobs.count()).toBe(0);

    await a.client.send('attachments.remove', { id: onB!.id });
    expect(await stripOf(a, item.id)).toEqual([]);
    await settled(a);
    expect(await serverFiles(a, item.id)).toEqual([]);
    expect(await a.client.db.syncQueue.count()).toBe(0);
    await b.client.engine.sync();
    expect(await b.client.db.attachments.count()).toBe(0);
  });

  it('A1: a waiting file removed goes with its bytes and is never sent', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Wrong file', type: 'todo' });
    d.goOffline();
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('oops.txt')] });
    await d.client.send('attachments.remove', { id: row!.id });
    expect(await stripOf(d, item.id)).toEqual([]);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
    d.goOnline();
    await upload(d);
    expect(uploadsSent(d)).toBe(0);
    expect(await d.client.db.syncQueue.count()).toBe(0);
  });

  it('A12: a guest’s files stay on the device, and after sign-in go up after their items', async () => {
    const d = device();
    await d.client.auth.getState().restore();
    d.client.auth.getState().initGuest();
    const item = await d.client.items.create({ title: 'Guest plan', type: 'todo' });
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('plan.pdf')] });
    expect(row).toMatchObject({ _syncStatus: 'local' });
    expect(row!._upload).toBeUndefined();
    await upload(d);
    expect(uploadsSent(d)).toBe(0);
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).not.toBeNull();

    await signIn(d, freshPhone(), 'Was guest');
    await settled(d);
    await upload(d);
    const moved = await d.client.db.items.where('uuid').equals(item.uuid!).first();
    expect(moved!.id).toBeGreaterThan(0);
    expect((await serverFiles(d, moved!.id)).map((a) => a.uuid)).toEqual([row!.uuid]);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
  });

  it('A14: Clear Local Data is told the files waiting and their bytes, and leaves no file store behind', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Clear me', type: 'todo' });
    d.goOffline();
    await d.client.send('attachments.add', {
      itemId: item.id,
      files: [picked('one.bin', 1000), picked('two.bin', 2500)],
    });
    expect(await d.client.send('attachments.waiting')).toEqual({ count: 2, bytes: 3500 });
    const { clearDeviceStores } = await import('../sync/deviceWipe');
    await clearDeviceStores(d.client.db);
    expect(await d.client.send('attachments.waiting')).toEqual({ count: 0, bytes: 0 });
    expect(await d.client.db.attachments.count()).toBe(0);
  });
});

describe('files on items on the device: what the uploader meets meanwhile (SYNC.md A)', () => {
  it('A4: an upload answered while its answer was lost, then pulled first, leaves one row and no bytes on the device', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Twin', type: 'todo' });
    d.control.dropNextResponse = (method, url) => method === 'POST' && url.includes('/attachments');
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('twin.jpg')] });
    await d.client.uploads.settled();
    await d.client.engine.sync();
    const rows = await d.client.db.attachments.where('uuid').equals(row!.uuid).toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBeGreaterThan(0);
    await upload(d);
    // Sent once: the pulled row is the server's, so nothing waits; its bytes left with the sweep.
    expect(uploadsSent(d)).toBe(1);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
    expect(await serverFiles(d, item.id)).toHaveLength(1);
  });

  it('A1: a file removed while it was on its way is deleted on the server once it has arrived', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Second thoughts', type: 'todo' });
    d.control.holdNext = (method, url) => method === 'POST' && url.includes('/attachments');
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('draft.doc')] });
    for (let i = 0; i < 200 && d.control.held === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await d.client.send('attachments.remove', { id: row!.id });
    expect(await stripOf(d, item.id)).toEqual([]);
    d.control.release();
    await d.client.uploads.settled();
    await settled(d);
    expect(await serverFiles(d, item.id)).toEqual([]);
    expect(await stripOf(d, item.id)).toEqual([]);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
  });

  it('A6: a waiting file whose item was deleted before it went up is kept with the changes that could not be applied', async () => {
    const d = await signedIn();
    const item = await createSynced(d, { title: 'Deleted first', type: 'todo' });
    d.goOffline();
    const [row] = await d.client.send('attachments.add', { itemId: item.id, files: [picked('late.png')] });
    await d.client.uploads.settled();
    await d.client.items.remove(item.id);
    d.goOnline();
    // The delete goes first (the upload waits for a live item); the item leaves the device with it.
    await d.client.engine.sync();
    expect(await d.client.db.items.get(item.id)).toBeUndefined();
    await upload(d);
    expect(uploadsSent(d)).toBe(0);
    const kept = await rejectedChanges(d.client.db);
    expect(kept.map((k) => [k.kind, k.data?.uuid])).toEqual([['attachment_upload', row!.uuid]]);
    expect(await d.client.send('attachments.blob', { uuid: row!.uuid })).not.toBeNull();
    // Told once, at the next run's end, with the others.
    await d.client.engine.sync();
    expect(d.client.toasts.getState().queue.some((t) => /could not be applied/.test(t.title))).toBe(true);
  });
});

describe('what starts the uploader (SYNC.md A3, A5)', () => {
  /** Polls until `check` holds (the uploader runs in the background of a trigger). */
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('never happened');
  }

  it('A5: after a reload, a waiting file goes up from its Blob once the device is online, with no write to start it', async () => {
    const first = await signedIn();
    const item = await createSynced(first, { title: 'Resumed', type: 'todo' });
    first.goOffline();
    const [row] = await first.client.send('attachments.add', {
      itemId: item.id,
      files: [picked('resume.jpg')],
    });
    await first.client.uploads.settled();
    const d = first.reload();
    files.devices.push(d);
    d.goOffline();
    await d.client.auth.getState().restore();
    const connectivity = manualConnectivity(false);
    const stop = d.client.uploads.service.start({
      auth: d.client.auth,
      connectivity,
      status: d.client.status,
    });
    try {
      d.goOnline();
      connectivity.set(true);
      await eventually(async () => (await serverFiles(d, item.id)).length === 1);
      await d.client.uploads.settled();
      expect((await serverFiles(d, item.id))[0]?.uuid).toBe(row!.uuid);
      expect(await d.client.db.fileBlobs.count()).toBe(0);
    } finally {
      stop();
    }
  });

  it('A3: a file on an item created offline goes up when the sync run that creates its item ends', async () => {
    const d = await signedIn();
    const connectivity = manualConnectivity(true);
    const stop = d.client.uploads.service.start({
      auth: d.client.auth,
      connectivity,
      status: d.client.status,
    });
    try {
      d.goOffline();
      const item = await d.client.items.create({ title: 'Tunnel sketch', type: 'todo' });
      const [row] = await d.client.send('attachments.add', {
        itemId: item.id,
        files: [picked('sketch.png')],
      });
      await d.client.uploads.settled();
      d.goOnline();
      await d.client.engine.sync();
      const serverId = (await d.client.db.items.where('uuid').equals(item.uuid!).first())!.id;
      await eventually(async () => (await serverFiles(d, serverId)).length === 1);
      expect((await serverFiles(d, serverId))[0]?.uuid).toBe(row!.uuid);
    } finally {
      stop();
      await d.client.uploads.settled();
    }
  });
});
