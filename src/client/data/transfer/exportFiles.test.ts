import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import type { Device } from '../../../../testkit/client/harness';
import { createSynced } from '../../../../testkit/client/harness';
import { EXPORT_JSON_ENTRY, exportFilePath } from '../../../shared/exportZip';
import type { ExportDocument } from '../../../shared/importExport';
import { clearDeviceStores } from '../sync/deviceWipe';
import type { ExportFile } from './dataTransfer';

const { guest, signedIn } = testDevices();

/** A file with `n` bytes that say which file they are. */
function picked(name: string, n = 1000, seed = 7, type = 'application/octet-stream'): File {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * seed + 13) % 251;
  return new File([bytes], name, { type });
}

const sha256 = async (blob: Blob) =>
  createHash('sha256')
    .update(Buffer.from(await blob.arrayBuffer()))
    .digest('hex');

/** The zip an export made, entry by entry, and its document. */
async function unzipped(file: ExportFile) {
  expect(file.blob).toBeDefined();
  const entries = unzipSync(new Uint8Array(await file.blob!.arrayBuffer()));
  const doc = JSON.parse(strFromU8(entries[EXPORT_JSON_ENTRY]!)) as ExportDocument;
  return { entries, doc };
}

/** The zip as a picked file, as the import's file input hands it over. */
const pickedZip = (file: ExportFile) => new File([file.blob!], file.name, { type: 'application/zip' });

/** The live files of the item called `title` on the device, oldest first. */
async function filesOf(d: Device, title: string) {
  const item = (await d.client.db.items.toArray()).find((i) => i.title === title && i._deleted === 0);
  if (!item) return [];
  const rows = await d.client.db.attachments.where('item_id').equals(item.id).toArray();
  return rows.filter((r) => r._deleted !== 1).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

describe('an export with files is a zip, and an import brings them back', () => {
  it('T4: a guest’s export: outpost.json lists each file with its path and sha256, its bytes at files/<uuid>-<name>', async () => {
    const d = guest();
    const todo = await d.client.items.create({ title: 'Fix the gate', type: 'todo' });
    await d.client.items.create({ title: 'No files here', type: 'todo' });
    const photo = picked('gate.jpg', 3000, 3, 'image/jpeg');
    const note = picked('notes.txt', 12, 5, 'text/plain');
    const [first] = await d.client.send('attachments.add', { itemId: todo.id, files: [photo] });
    const [second] = await d.client.send('attachments.add', { itemId: todo.id, files: [note] });

    const file = await (await d.client.transfer()).exportFile('json');
    expect(file.name).toMatch(/^outpost-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(file.mime).toBe('application/zip');
    expect(file.missing).toEqual([]);
    const { entries, doc } = await unzipped(file);
    const gate = doc.items.find((i) => i.title === 'Fix the gate');
    expect(gate?.attachments).toEqual([
      {
        uuid: first!.uuid,
        name: 'gate.jpg',
        type: 'image/jpeg',
        size: 3000,
        sha256: await sha256(photo),
        path: exportFilePath(first!.uuid, 'gate.jpg'),
      },
      {
        uuid: second!.uuid,
        name: 'notes.txt',
        type: 'text/plain',
        size: 12,
        sha256: await sha256(note),
        path: exportFilePath(second!.uuid, 'notes.txt'),
      },
    ]);
    expect(doc.items.find((i) => i.title === 'No files here')?.attachments).toEqual([]);
    expect(Object.keys(entries).sort()).toEqual(
      [
        EXPORT_JSON_ENTRY,
        exportFilePath(first!.uuid, 'gate.jpg'),
        exportFilePath(second!.uuid, 'notes.txt'),
      ].sort(),
    );
    expect(await sha256(new Blob([entries[exportFilePath(first!.uuid, 'gate.jpg')]!]))).toBe(
      await sha256(photo),
    );
    // The text is the document inside the zip (what the export's toast and tests read).
    expect(JSON.parse(file.text)).toEqual(doc);
  });

  it('without files the export stays plain Outpost JSON; CSV never carries files', async () => {
    const d = guest();
    const todo = await d.client.items.create({ title: 'Plain', type: 'todo' });
    const transfer = await d.client.transfer();
    const plain = await transfer.exportFile('json');
    expect(plain.name).toMatch(/\.json$/);
    expect(plain.blob).toBeUndefined();
    expect((JSON.parse(plain.text) as ExportDocument).items[0]?.attachments).toEqual([]);
    await d.client.send('attachments.add', { itemId: todo.id, files: [picked('a.bin')] });
    const csv = await transfer.exportFile('csv');
    expect(csv.name).toMatch(/\.csv$/);
    expect(csv.blob).toBeUndefined();
  });

  it('T4: an uploaded file’s bytes come from the server; offline, the export still goes and names the file it could not include', async () => {
    const d = await signedIn('Exporter');
    const todo = await createSynced(d, { title: 'Signed quote', type: 'todo' });
    const pdf = picked('quote.pdf', 5000, 11);
    await d.client.send('attachments.add', { itemId: todo.id, files: [pdf] });
    d.client.uploads.kick();
    await d.client.uploads.settled();
    const [uploaded] = await filesOf(d, 'Signed quote');
    expect(uploaded?.id).toBeGreaterThan(0);
    expect(await d.client.db.fileBlobs.count()).toBe(0);
    const transfer = await d.client.transfer();

    const online = await transfer.exportFile('json');
    const { entries, doc } = await unzipped(online);
    const listed = doc.items[0]?.attachments[0];
    expect(listed).toMatchObject({ uuid: uploaded!.uuid, sha256: await sha256(pdf), size: 5000 });
    expect(await sha256(new Blob([entries[listed!.path!]!]))).toBe(await sha256(pdf));
    expect(online.missing).toEqual([]);

    d.goOffline();
    const offline = await transfer.exportFile('json');
    const { entries: kept, doc: offlineDoc } = await unzipped(offline);
    expect(offlineDoc.items[0]?.attachments[0]).toMatchObject({
      uuid: uploaded!.uuid,
      name: 'quote.pdf',
      sha256: uploaded!.sha256,
      path: null,
    });
    expect(Object.keys(kept)).toEqual([EXPORT_JSON_ENTRY]);
    expect(offline.missing).toEqual([
      { name: 'quote.pdf', item: 'Signed quote', reason: 'It is on the server, which could not be reached.' },
    ]);
    d.goOnline();
  });

  it('T4: export as a guest, clear, import the zip: the items come back with their files, once', async () => {
    const d = guest();
    const campaign = await d.client.items.create({ title: 'Move', type: 'campaign' });
    const task = await d.client.items.create({ title: 'Pack', type: 'task', parent_id: campaign.id });
    const photo = picked('boxes.jpg', 2500, 13, 'image/jpeg');
    await d.client.send('attachments.add', { itemId: task.id, files: [photo] });
    const transfer = await d.client.transfer();
    const file = await transfer.exportFile('json');

    await clearDeviceStores(d.client.db);
    d.client.auth.getState().initGuest();
    const preview = await transfer.planImport(pickedZip(file));
    expect(preview).toMatchObject({ error: null, counts: { campaign: 1, task: 1, todo: 0 }, newFiles: 1 });
    const result = await transfer.runImport(preview);
    expect(result).toMatchObject({ created: 2, files: 1, failed: [] });
    const [back] = await filesOf(d, 'Pack');
    expect(back).toMatchObject({ name: 'boxes.jpg', size: 2500, _syncStatus: 'local' });
    const bytes = await d.client.send('attachments.blob', { uuid: back!.uuid });
    expect(await sha256(bytes!)).toBe(await sha256(photo));

    const again = await transfer.planImport(pickedZip(file));
    expect(again).toMatchObject({ existing: 2, newFiles: 0 });
    expect(await transfer.runImport(again)).toMatchObject({ created: 0, files: 0 });
    expect(await filesOf(d, 'Pack')).toHaveLength(1);
  });

  it('a JSON export’s files (listed, no bytes) are left out of an import, and the preview says so', async () => {
    const d = guest();
    const todo = await d.client.items.create({ title: 'Listed', type: 'todo' });
    await d.client.send('attachments.add', { itemId: todo.id, files: [picked('a.txt', 3, 1, 'text/plain')] });
    const transfer = await d.client.transfer();
    const zip = await transfer.exportFile('json');
    await clearDeviceStores(d.client.db);
    d.client.auth.getState().initGuest();
    const json = new File([zip.text], 'outpost.json', { type: 'application/json' });
    const preview = await transfer.planImport(json);
    expect(preview).toMatchObject({ error: null, newFiles: 0, attachments: [] });
    expect(preview.warnings[0]?.reason).toMatch(/^1 file listed without its bytes/);
    expect(await transfer.runImport(preview)).toMatchObject({ created: 1, files: 0 });
    expect(await filesOf(d, 'Listed')).toEqual([]);
  });

  it('a zip that is not an Outpost export, or is damaged, imports nothing and says why', async () => {
    const d = guest();
    const transfer = await d.client.transfer();
    const { zipSync } = await import('fflate');
    const other = new File([zipSync({ 'photo.jpg': new Uint8Array([1, 2, 3]) })], 'photos.zip');
    expect((await transfer.planImport(other)).error).toBe(
      '“photos.zip” holds no outpost.json: it is not an Outpost export.',
    );
    const damaged = new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 9, 9, 9])], 'cut.zip');
    expect((await transfer.planImport(damaged)).error).toBe(
      '“cut.zip” could not be read as a zip: the file is damaged or incomplete.',
    );
  });
});
