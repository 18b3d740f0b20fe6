import { liveQuery } from 'dexie';
import { itemRoute, localReminders, reminderKey } from '../../../shared/notifications';
import type { ToastInput } from '../../stores/toastStore';
import { showSystemNotification } from '../notifications/systemNotification';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from '../store/db';
import type { LocalItem } from '../store/types';

/** Longest single wait: a sleeping laptop's timers drift, so the watch looks again at least this often. */
const MAX_WAIT_MS = 60_000;
/** Shown reminders remembered per device (older ones are far past the grace period anyway). */
const SHOWN_KEPT = 200;

/**
 * Shows the device's reminders while the app is open, for guests too: at each item's `remind_at`, a
 * toast and (when permitted) a system notification. Reads only local data; a shown reminder is
 * remembered on the device, so a reload or a second tab's catch-up does not show it again, and a
 * changed time is a new reminder. Returns a stop function.
 */
export function watchReminders(deps: {
  db: OutpostDb;
  toast: (toast: ToastInput) => unknown;
  open: (path: string) => void;
  now?: () => number;
}): () => void {
  const now = deps.now ?? (() => Date.now());
  let items: LocalItem[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const show = async (item: LocalItem) => {
    const parent = item.parent_id === null ? undefined : await deps.db.items.get(item.parent_id);
    const path = itemRoute(item, parent ? { id: parent.id, type: parent.type } : null);
    deps.toast({
      title: 'Reminder',
      description: item.title,
      duration: 15_000,
      action: { label: 'Open', onClick: () => deps.open(path) },
    });
    // The same tag as the server's push of this reminder: one system notification, not two.
    await showSystemNotification('Reminder', item.title, path, `due-${item.id}`);
  };

  const check = async () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = null;
    // Read each time: another tab may have shown a reminder since.
    let shown = (await getMeta<string[]>(deps.db, META_KEYS.remindersShown).catch(() => undefined)) ?? [];
    const known = new Set(shown);
    const { due, next } = localReminders(
      items.map((i) => ({
        key: i.uuid ?? String(i.id),
        remind_at: i.remind_at ?? null,
        status: i.status,
        deleted: i._deleted === 1 || Boolean(i.deleted_at),
        item: i,
      })),
      known,
      now(),
    );
    if (due.length > 0) {
      shown = [...shown, ...due.map((d) => reminderKey(d.key, d.remind_at ?? ''))].slice(-SHOWN_KEPT);
      await setMeta(deps.db, META_KEYS.remindersShown, shown).catch(() => {});
      for (const d of due) await show(d.item);
    }
    if (stopped) return;
    const wait = next === null ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, Math.max(0, next - now()));
    timer = setTimeout(() => check().catch(() => {}), wait);
  };

  // Only items with a reminder matter: read by the remind_at index (items without one are not in it),
  // so an edit of any other item does not re-run this query.
  const subscription = liveQuery(() => deps.db.items.where('remind_at').above('').toArray()).subscribe({
    next: (found) => {
      items = found;
      // A closed database (sign-out, tests) ends the watch quietly.
      check().catch(() => {});
    },
    error: () => {},
  });
  return () => {
    stopped = true;
    subscription.unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
