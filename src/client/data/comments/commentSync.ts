/**
 * The comments feature's part in sync (sync/kinds.ts): what its queue kinds mean on the device once
 * the server answers (K8, K20), what a pulled page's comments do (K13, K14), and the guest's comments
 * going up after their items (K16). The composition hands it to the sync engine.
 */
import type { QueueKindHooks, SyncFeature } from '../sync/kinds';
import {
  applyPulledComments,
  confirmComment,
  dropComment,
  guestCommentEntries,
  refusalReason,
} from './localComments';

const commentKind: QueueKindHooks = {
  onPushed: confirmComment,
  async onDropped(db, entry, refusal) {
    // K20: a refused comment or edit keeps its text on the device, marked with the reason.
    const reason = refusalReason(entry, refusal.status, refusal.message);
    await dropComment(db, entry, reason);
    return {
      title: entry.kind === 'comment_create' ? 'Comment not sent' : 'Change not synced',
      reason,
      note: entry.kind === 'comment_delete' ? '' : ' Your text is kept on the item.',
    };
  },
};

/** Comments in sync: their three queue kinds, the pulled page's comments, the guest's upload. */
export const commentSync: SyncFeature = {
  kinds: { comment_create: commentKind, comment_edit: commentKind, comment_delete: commentKind },
  async onPulled(db, page) {
    // After the page's items; sync then removes the comments of an item gone in it (K14).
    await applyPulledComments(db, page.comments ?? []);
  },
  async onGuestUpgrade(db, ids, owner) {
    const guest = await db.comments.filter((c) => c._syncStatus === 'local').toArray();
    const { rows, entries } = guestCommentEntries(guest, ids, owner);
    return { children: { comments: { put: rows } }, entries };
  },
};
