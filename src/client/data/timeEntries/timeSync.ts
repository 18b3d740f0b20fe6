/**
 * The time entries' part in sync (sync/kinds.ts, SYNC.md X10): what their queue kinds mean on the
 * device once the server answers or refuses, what a pulled page's entries do (X5, X6), and a guest's
 * entries going up after their items. The composition hands it to the sync engine.
 */
import type { QueueKindHooks, SyncFeature } from '../sync/kinds';
import {
  applyPulledTimeEntries,
  confirmTimeEntry,
  dropTimeEntry,
  moveGuestTimeEntries,
} from './localTimeEntries';

const timeKind: QueueKindHooks = {
  onPushed: confirmTimeEntry,
  async onDropped(db, entry, refusal) {
    await dropTimeEntry(db, entry);
    return {
      title: entry.kind === 'time_create' ? 'Time entry not saved' : 'Time change not synced',
      reason: refusal.message,
      note: '',
    };
  },
};

/** Time entries in sync: their four queue kinds, the pulled page's entries, the guest's upload. */
export const timeSync: SyncFeature = {
  kinds: { time_create: timeKind, time_stop: timeKind, time_edit: timeKind, time_delete: timeKind },
  async onPulled(db, page) {
    // After the page's items; sync then removes the entries of an item gone in it (X6).
    await applyPulledTimeEntries(db, page.time_entries ?? []);
  },
  async onGuestUpgrade(db, ids, owner) {
    return { entries: await moveGuestTimeEntries(db, ids, owner) };
  },
};
