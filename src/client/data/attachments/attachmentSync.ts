/**
 * Files' part in sync (sync/kinds.ts): what a queued file delete means on the device once the server
 * answers or refuses it, what a pulled page's files do (A10), and a guest's files waiting for their
 * items after a sign-in (A12). The upload is no queue kind: it runs beside the queue (./uploader.ts).
 * The composition hands it to the sync engine.
 */
import type { QueueKindHooks, SyncFeature } from '../sync/kinds';
import {
  applyPulledAttachments,
  confirmAttachmentDelete,
  dropAttachmentDelete,
  moveGuestFiles,
} from './localAttachments';

const deleteKind: QueueKindHooks = {
  onPushed: (db, entry) => confirmAttachmentDelete(db, entry),
  async onDropped(db, entry, refusal) {
    await dropAttachmentDelete(db, entry);
    return { title: 'File not deleted', reason: refusal.message, note: '' };
  },
};

/** Files in sync: the queued delete, the pulled page's files, the guest's files. */
export const attachmentSync: SyncFeature = {
  kinds: { attachment_delete: deleteKind },
  async onPulled(db, page) {
    // After the page's items; sync then removes the files of an item gone in it (K14).
    await applyPulledAttachments(db, page.attachments ?? []);
  },
  async onGuestUpgrade(db, ids, owner) {
    return { children: { attachments: { put: await moveGuestFiles(db, ids, owner) } }, entries: [] };
  },
};
