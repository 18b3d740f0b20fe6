/**
 * Files on items as device data (SYNC.md A1–A6, A10, A12, A14; ARCHITECTURE §6 'Files offline'). A
 * file picked on the device is stored at once: its row in `attachments` with a temporary id, 'waiting
 * to upload', and its bytes in the device's own file store (store/fileBlobs.ts), never in a queue row.
 * The uploader (./uploader.ts) sends it beside the queue and replaces the row by the server's; a
 * delete of a file the server has is queued like any child's. A guest's files stay on the device and
 * go up after their items once the guest signs in (A12).
 */
import type { Attachment, SyncAttachmentChange } from '../../../shared/attachments';
import { cleanFileName } from '../../../shared/attachments';
import { isChildTombstone } from '../../../shared/itemChildren';
import { applyLocalChange } from '../changes/applyLocalChange';
import { nextCounter, type OutpostDb } from '../store/db';
import type { FileBlob } from '../store/fileBlobs';
import { resolveId } from '../store/idAliases';
import { lostItemOf, type RefusalCause, rejectedChanges } from '../store/keptChanges';
import type { LocalAttachment, QueueEntry, Viewer } from '../store/types';
import { keepRejected } from '../sync/lostAccess';
import { lastSeq } from '../sync/queue';

/** The tables a file write touches in one transaction: the row, its bytes, the queue. */
export const ATTACHMENT_TABLES = ['items', 'attachments', 'fileBlobs', 'syncQueue', 'meta'] as const;

type Who = Viewer & { user: { id: number; name: string } };

/** A file as a page hands it over: a File, or a Blob with the name it should carry. */
export type PickedFile = Blob & { name?: string };

/** An item's live files on the device, newest first (the strip's order). */
export function newestFirst(a: LocalAttachment, b: LocalAttachment): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.uuid < b.uuid ? 1 : a.uuid > b.uuid ? -1 : 0;
}

/** The API's row from a stored one (the device's markers left out). */
export function serverShape(row: LocalAttachment): Attachment {
  const { _syncStatus: _s, _deleted: _d, _upload: _u, ...attachment } = row;
  return attachment;
}

/** A server row (a sync page's or an upload's answer) as the device stores it. */
function fromServer(server: Attachment & { item_uuid?: string | null }): LocalAttachment {
  const { item_uuid: _u, ...attachment } = server;
  return { ...attachment, _syncStatus: 'synced', _deleted: 0 };
}

/**
 * A1: stores picked files on item `itemId` at once, rows and bytes in one transaction: each a row
 * with a temporary id (url '', sha256 '' until the server answers) and its Blob in the file store.
 * A signed-in user's wait for the uploader; a guest's stay on the device (A12). Answers the rows.
 */
export async function addFiles(
  db: OutpostDb,
  viewer: Who,
  itemId: number,
  files: readonly PickedFile[],
): Promise<LocalAttachment[]> {
  if (files.length === 0) return [];
  return db.transaction('rw', [...ATTACHMENT_TABLES], async () => {
    const id = await resolveId(db, itemId);
    const item = await db.items.get(id);
    if (!item || item._deleted === 1) throw new Error('This item is not on the device.');
    const rows: LocalAttachment[] = [];
    const blobs: FileBlob[] = [];
    const at = new Date().toISOString();
    for (const file of files) {
      const counter = await nextCounter(db, 'tempCounter');
      const uuid = crypto.randomUUID();
      const name = cleanFileName(file.name ?? 'file');
      // The browser's guess until the server reads the bytes (A7): only for showing it meanwhile.
      const type = file.type || 'application/octet-stream';
      rows.push({
        id: -counter,
        uuid,
        item_id: item.id,
        name,
        type,
        size: file.size,
        sha256: '',
        user: { id: viewer.user.id, name: viewer.user.name },
        created_at: at,
        url: '',
        _syncStatus: viewer.isGuest ? 'local' : 'pending',
        _deleted: 0,
        ...(viewer.isGuest ? {} : { _upload: { state: 'waiting' as const } }),
      });
      blobs.push({
        uuid,
        item_id: item.id,
        item_uuid: item.uuid ?? null,
        owner: viewer.isGuest ? 0 : viewer.user.id,
        blob: file,
        name,
        type,
        size: file.size,
        createdAt: at,
      });
    }
    await applyLocalChange(db, { children: { attachments: { put: rows } } });
    await db.fileBlobs.bulkPut(blobs);
    return rows;
  });
}

/** The write that hides a file the server has and queues its DELETE (by its server id). */
async function queueDelete(db: OutpostDb, row: LocalAttachment): Promise<QueueEntry | null> {
  const [entry] = await applyLocalChange(db, {
    children: { attachments: { put: [{ ...row, _deleted: 1, _syncStatus: 'pending' }] } },
    queue: {
      entries: [
        {
          kind: 'attachment_delete',
          itemId: row.item_id,
          data: null,
          baseVersion: null,
          child: { uuid: row.uuid, ref: String(row.id) },
        },
      ],
      after: await lastSeq(db),
    },
  });
  return entry ?? null;
}

/**
 * Removes a file on the device: one not yet on the server (waiting, failed, or a guest's) goes with
 * its bytes; one the server has is hidden at once and its DELETE queued. Answers the queue entry.
 */
export async function removeAttachment(db: OutpostDb, id: number): Promise<QueueEntry | null> {
  return db.transaction('rw', [...ATTACHMENT_TABLES], async () => {
    const row = await db.attachments.get(id);
    if (!row || row._deleted === 1) return null;
    if (row.id < 0 || row._syncStatus === 'local') {
      await applyLocalChange(db, { children: { attachments: { removed: [row.id] } } });
      await db.fileBlobs.delete(row.uuid);
      return null;
    }
    return queueDelete(db, row);
  });
}

/** A5, A6: a failed upload goes back to waiting (its retries counted afresh); false when none failed. */
export async function retryUpload(db: OutpostDb, uuid: string): Promise<boolean> {
  return db.transaction('rw', ['attachments'], async () => {
    const row = await db.attachments.where('uuid').equals(uuid).first();
    if (!row || row.id > 0 || row._upload?.state !== 'failed') return false;
    await db.attachments.put({ ...row, _upload: { state: 'waiting' } });
    return true;
  });
}

/** A1: the bytes of a file not yet on the server (waiting, failed, a guest's, or kept: A6); null otherwise. */
export async function blobOf(db: OutpostDb, uuid: string): Promise<Blob | null> {
  return (await db.fileBlobs.get(uuid))?.blob ?? null;
}

// ---------------------------------------------------------------------------------------------
// The server's answers: the upload's (./uploader.ts), the queued delete's, a pulled page's
// ---------------------------------------------------------------------------------------------

/**
 * An upload the server answered (2xx), in one transaction: the temporary row becomes the server's
 * (its id, url, thumbnail, sha256 and sniffed type) and the bytes leave the device. A file removed
 * while it was on its way is deleted on the server too: answers that queued DELETE (null otherwise).
 */
export async function confirmUpload(
  db: OutpostDb,
  uuid: string,
  server: Attachment,
): Promise<QueueEntry | null> {
  return db.transaction('rw', [...ATTACHMENT_TABLES], async () => {
    await db.fileBlobs.delete(uuid);
    const rows = await db.attachments.where('uuid').equals(uuid).toArray();
    const temp = rows.find((r) => r.id < 0);
    const stored = rows.find((r) => r.id === server.id);
    if (temp) await db.attachments.delete(temp.id);
    // A pulled page brought it first (the answer's twin): that copy, or its queued delete, stays.
    if (stored) return null;
    const row = { ...fromServer(server), _syncStatus: 'synced' as const };
    if (temp) {
      await db.attachments.put(row);
      return null;
    }
    // Removed on the device while it was sent: the server has it now, so it is deleted there too.
    const item = await db.items.get(server.item_id);
    if (!item || item._deleted === 1) return null;
    return queueDelete(db, row);
  });
}

/** A file upload's stand-in queue entry, for the kept changes (A6): it never was in the queue. */
export function uploadRecord(row: LocalAttachment): QueueEntry {
  return {
    id: `upload-${row.uuid}`,
    seq: 0,
    kind: 'attachment_upload',
    method: 'POST',
    url: `/api/items/${row.item_id}/attachments?uuid=${row.uuid}`,
    data: { uuid: row.uuid, name: row.name, type: row.type, size: row.size },
    timestamp: Date.parse(row.created_at) || Date.now(),
    retries: 0,
    idempotencyKey: row.uuid,
    baseVersion: null,
    itemId: row.item_id,
    child: { kind: 'attachments', uuid: row.uuid },
    tag: null,
  };
}

/**
 * A6: an upload refused because its item was lost to the device is kept with the changes that could
 * not be applied (Q20), its bytes with it (marked kept: they go when the user dismisses it); the row
 * leaves the item.
 */
export async function keepLostUpload(
  db: OutpostDb,
  row: LocalAttachment,
  why: Parameters<typeof keepRejected>[3],
): Promise<void> {
  await db.transaction('rw', [...ATTACHMENT_TABLES], async () => {
    await keepRejected(db, [uploadRecord(row)], new Date(), why);
    await db.attachments.delete(row.id);
    await db.fileBlobs.update(row.uuid, { kept: 1 });
  });
}

/**
 * Keeps the file store in step with the rows, in one transaction: a signed-in user's bytes are theirs
 * (a guest's moved over, A12); bytes the server has (a pulled twin of the upload) go; bytes whose row
 * left with its item (the item deleted or lost to the device before the upload went) are kept with
 * the changes that could not be applied (A6), never dropped silently; kept bytes the user dismissed
 * go. Answers how many files were newly kept.
 */
export async function sweepFileStore(db: OutpostDb, userId: number): Promise<number> {
  return db.transaction('rw', [...ATTACHMENT_TABLES], async () => {
    const blobs = await db.fileBlobs.toArray();
    if (blobs.length === 0) return 0;
    const rows = await db.attachments
      .where('uuid')
      .anyOf(blobs.map((b) => b.uuid))
      .toArray();
    const byUuid = new Map<string, LocalAttachment[]>();
    for (const row of rows) byUuid.set(row.uuid, [...(byUuid.get(row.uuid) ?? []), row]);
    const keptUuids = new Set(
      (await rejectedChanges(db)).flatMap((c) =>
        c.kind === 'attachment_upload' && typeof c.data?.uuid === 'string' ? [c.data.uuid] : [],
      ),
    );
    const gone: string[] = [];
    let kept = 0;
    for (const blob of blobs) {
      const own = byUuid.get(blob.uuid) ?? [];
      const temp = own.find((r) => r.id < 0);
      if (temp) {
        // A guest's file moved into the account (A12): its bytes are the account's now.
        if (temp._syncStatus !== 'local' && blob.owner !== userId)
          await db.fileBlobs.update(blob.uuid, { owner: userId, item_id: temp.item_id });
        continue;
      }
      // The server has it (the upload's answer, or a pulled twin of it): the bytes are done with.
      if (own.length > 0) {
        gone.push(blob.uuid);
        continue;
      }
      // Kept with the changes that could not be applied (A6) until the user dismisses it there.
      if (blob.kept === 1) {
        if (!keptUuids.has(blob.uuid)) gone.push(blob.uuid);
        continue;
      }
      // Another account's leftovers are not this one's to keep.
      if (blob.owner !== userId) {
        gone.push(blob.uuid);
        continue;
      }
      await keepRejected(db, [orphanRecord(blob)], new Date(), await orphanCause(db, blob));
      await db.fileBlobs.update(blob.uuid, { kept: 1 });
      kept += 1;
    }
    if (gone.length > 0) await db.fileBlobs.bulkDelete(gone);
    return kept;
  });
}

/** The stand-in entry of bytes whose row is gone (the row's item left the device). */
function orphanRecord(blob: FileBlob): QueueEntry {
  return uploadRecord({
    id: 0,
    uuid: blob.uuid,
    item_id: blob.item_id,
    name: blob.name,
    type: blob.type,
    size: blob.size,
    sha256: '',
    user: { id: blob.owner, name: '' },
    created_at: blob.createdAt,
    url: '',
    _syncStatus: 'pending',
    _deleted: 0,
  });
}

/** Why an orphan's item left: with a lost campaign the device remembers (Q24), else it was deleted. */
async function orphanCause(db: OutpostDb, blob: FileBlob): Promise<Parameters<typeof keepRejected>[3]> {
  const lost = await lostItemOf(db, blob.item_id);
  const cause: RefusalCause = lost ? 'removed' : 'deleted';
  return {
    cause,
    campaign: lost ? { id: lost.campaignId, title: lost.title, removed: false, by: null } : null,
  };
}

/** The file a queued entry is about, by the uuid its row names. */
function attachmentOf(db: OutpostDb, entry: QueueEntry): Promise<LocalAttachment | undefined> {
  const uuid = entry.child?.kind === 'attachments' ? entry.child.uuid : undefined;
  return uuid === undefined ? Promise.resolve(undefined) : db.attachments.where('uuid').equals(uuid).first();
}

/** The queued delete's answer (the entry has left the queue): the row goes, inside the push's transaction. */
export async function confirmAttachmentDelete(db: OutpostDb, entry: QueueEntry): Promise<void> {
  const row = await attachmentOf(db, entry);
  if (row && row.id > 0) await db.attachments.delete(row.id);
}

/** A delete the server refused for good: the file comes back as the server has it. */
export async function dropAttachmentDelete(db: OutpostDb, entry: QueueEntry): Promise<void> {
  const row = await attachmentOf(db, entry);
  if (row && row.id > 0) await db.attachments.put({ ...row, _deleted: 0, _syncStatus: 'synced' });
}

/**
 * A10: stores a pulled page's files inside the page's transaction: live ones replace the device's
 * copy unless its delete still waits; tombstones remove. A file this device uploaded whose answer
 * never arrived is recognised by its uuid: the server's row replaces the temporary one (its bytes
 * leave with the next sweep).
 */
export async function applyPulledAttachments(
  db: OutpostDb,
  changes: readonly SyncAttachmentChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const stored = await db.attachments.bulkGet(changes.map((c) => c.id));
  const byId = new Map<number, LocalAttachment>();
  for (const row of stored) if (row) byId.set(row.id, row);
  const temps = new Map<string, number>();
  for (const t of await db.attachments.where('id').below(0).toArray()) temps.set(t.uuid, t.id);
  const puts = new Map<number, LocalAttachment>();
  const deletes = new Set<number>();
  for (const change of changes) {
    if (isChildTombstone(change)) {
      puts.delete(change.id);
      deletes.add(change.id);
      continue;
    }
    deletes.delete(change.id);
    const temp = temps.get(change.uuid);
    if (temp !== undefined) deletes.add(temp);
    const local = byId.get(change.id);
    const copy = fromServer(change);
    // A delete still queued wins until it is answered.
    puts.set(change.id, local?._deleted === 1 ? { ...copy, _deleted: 1, _syncStatus: 'pending' } : copy);
  }
  if (deletes.size > 0) await db.attachments.bulkDelete([...deletes]);
  if (puts.size > 0) await db.attachments.bulkPut([...puts.values()]);
}

/**
 * A12: the guest signs in. Inside the upgrade's transaction, after the items were given temporary ids
 * (`ids`: guest id → temporary id): each guest file on a moved item becomes the account's, waiting
 * for the uploader, which sends it once its item is on the server (A3). Nothing is queued.
 */
export async function moveGuestFiles(
  db: OutpostDb,
  ids: ReadonlyMap<number, number>,
  owner: { id: number; name: string },
): Promise<LocalAttachment[]> {
  const guest = await db.attachments.where('_syncStatus').equals('local').toArray();
  const rows: LocalAttachment[] = [];
  for (const row of guest) {
    const itemId = ids.get(row.item_id);
    if (itemId === undefined || row._deleted === 1) continue;
    rows.push({
      ...row,
      item_id: itemId,
      user: { id: owner.id, name: owner.name },
      _syncStatus: 'pending',
      _upload: { state: 'waiting' },
    });
  }
  return rows;
}
