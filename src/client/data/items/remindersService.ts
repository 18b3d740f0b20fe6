import type { ToastStore } from '../../stores/toastStore';
import type { OutpostDb } from '../store/db';

/** How long after the first screen the reminder watch starts. */
const REMINDERS_DELAY_MS = 2000;

/**
 * Reminders come due from the device's own items, signed in or not (./reminders.ts). The watch starts
 * a moment after the first screen has settled: one already due shows then (it catches up), and its
 * code is not part of the first screen's download.
 */
export const remindersService = {
  name: 'reminders',
  start({
    db,
    toasts,
    options,
  }: {
    db: OutpostDb;
    toasts: ToastStore;
    options: { openPath: (path: string) => void };
  }): () => void {
    let stopped = false;
    let stop = () => {};
    const later = setTimeout(() => {
      void import('./reminders').then((m) => {
        if (!stopped) stop = m.watchReminders({ db, toast: toasts.getState().push, open: options.openPath });
      });
    }, REMINDERS_DELAY_MS);
    return () => {
      stopped = true;
      clearTimeout(later);
      stop();
    };
  },
};
