/**
 * Files on items (ARCHITECTURE §4 'Files on items', §6 'Files offline'). Files are device data
 * (SYNC.md A1): `attachments.add` stores the rows and their bytes at once and starts the uploader,
 * which sends them beside the queue (A2); `attachments.remove` takes one back (queued for the server
 * when it has it); `attachments.retry` sends a failed one again; `attachments.blob` opens one whose
 * bytes are only on this device; `attachments.waiting` counts those bytes (A14).
 */
import {
  addFiles,
  blobOf,
  type PickedFile,
  removeAttachment,
  retryUpload,
} from '../attachments/localAttachments';
import type { OutpostDb } from '../store/db';
import { waitingFiles } from '../store/storage';
import type { LocalAttachment, Viewer } from '../store/types';
import type { LazyEngine } from '../sync/lazyEngine';
import { defineCommands } from './map';

export interface AttachmentsContext {
  db: OutpostDb;
  /** The viewer of now, with the name a file shows before the server answers. */
  viewer: () => Viewer & { user: { id: number; name: string } };
  /** Resolves once the remembered account is restored, so an early file is never the guest's. */
  restored: () => Promise<void>;
  /** Starts the push of one queue row (a file's delete). */
  pushNow: LazyEngine['pushNow'];
  /** Asks the browser to keep the device's data (there is something to keep now). */
  keepStorage: () => void;
  /** Starts the uploader (data/attachments/part.ts). */
  uploads: { kick: () => void };
}

export const commands = defineCommands<AttachmentsContext>()({
  /**
   * A1: stores the files on the item at once ('Waiting to upload' for a signed-in user; a guest's stay
   * on the device), their bytes in the device's file store, and starts the uploader. Resolves with
   * the rows once stored on the device, not on the server.
   */
  'attachments.add': async (
    c,
    a: { itemId: number; files: readonly PickedFile[] },
  ): Promise<LocalAttachment[]> => {
    await c.restored();
    const rows = await addFiles(c.db, c.viewer(), a.itemId, a.files);
    if (rows.length > 0) {
      c.keepStorage();
      c.uploads.kick();
    }
    return rows;
  },
  /** Removes a file: one not on the server yet goes with its bytes; one it has is deleted there too (queued). */
  'attachments.remove': async (c, a: { id: number }) => {
    const entry = await removeAttachment(c.db, a.id);
    if (entry) void c.pushNow(entry.id).catch(() => undefined);
  },
  /** A5, A6: a failed upload goes back to waiting and the uploader tries it again. */
  'attachments.retry': async (c, a: { uuid: string }) => {
    if (await retryUpload(c.db, a.uuid)) c.uploads.kick();
  },
  /** A1: the bytes of a file only on this device (to open it offline or as a guest); null for one the server has. */
  'attachments.blob': (c, a: { uuid: string }): Promise<Blob | null> => blobOf(c.db, a.uuid),
  /** A14: how many files and bytes are only on this device (Clear Local Data names them first). */
  'attachments.waiting': (c): Promise<{ count: number; bytes: number }> => waitingFiles(c.db),
});
