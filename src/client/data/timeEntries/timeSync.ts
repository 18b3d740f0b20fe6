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
  removeTimeEntriesOf,
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
  async onPulled(db, page, gone) {
    // After the page's items: an item gone in it takes its entries, even one the page carried.
    await applyPulledTimeEntries(db, page.time_entries ?? []);
    await removeTimeEntriesOf(db, gone);
  },
  async onGuestUpgrade(db, ids, owner) {
    return { comments: [], entries: await moveGuestTimeEntries(db, ids, owner) };
  },
};
