/** Sync runs, conflicts and the device's own state (ARCHITECTURE §6). */
import type { ConflictChoice } from '../reads/conflictView';
import { type KeptCalendarLink, keepCalendarLink, keptCalendarLink } from '../store/calendarLink';
import type { OutpostDb } from '../store/db';
import { dismissKept, rejectedChanges, rejectedFile } from '../store/keptChanges';
import type { LazyEngine } from '../sync/lazyEngine';
import { defineCommands } from './map';

/** Sync runs and conflicts go through the engine; a finished upgrade's flag is on the device. */
export interface SyncContext {
  engine: Pick<LazyEngine, 'sync' | 'resolveConflicts'>;
  db: OutpostDb;
}

/** The device's own state: its queue and its stores. */
export interface DeviceContext {
  db: OutpostDb;
}

/** What 'Sync Now' came to (SYNC.md): `ok` only when the run reached the server and sent what it could. */
export interface SyncNowResult {
  ok: boolean;
  outcome: 'synced' | 'offline' | 'unreachable' | 'failed' | 'conflicts' | 'busy' | 'guest';
  /** Changes still not on the server. */
  pending: number;
}

export const commands = defineCommands<SyncContext>()({
  /**
   * A manual sync run ('Sync Now'); its outcome is answered (never 'complete' when it was not) and
   * toasted by the engine, unless `quiet` (a dialog that reports it in place).
   */
  'sync.now': async (c, opts?: { quiet?: boolean }): Promise<SyncNowResult> => {
    const result = await c.engine.sync({ manual: true, quiet: opts?.quiet ?? false });
    return { ok: result.outcome === 'synced', outcome: result.outcome, pending: result.pending };
  },
  'sync.resolveConflicts': async (c, choices: Record<number, ConflictChoice>) => {
    await c.engine.resolveConflicts(choices);
  },
  /** Forgets a finished guest upgrade so its dialog does not come back. */
  'sync.clearFinishedUpgrade': async (c) => (await import('../sync/guestUpgrade')).clearFinishedUpgrade(c.db),
});

export const deviceCommands = defineCommands<DeviceContext>()({
  /** How many changes are not on the server yet (Clear Local Data and Log out ask before losing them). */
  'device.pendingChanges': (c) => c.db.syncQueue.count(),
  /** The file of every change the server refused and the device keeps (Q23): the toast's and Preferences' export. */
  'device.keptFile': async (c) => rejectedFile(await rejectedChanges(c.db)),
  /** Forgets kept changes the user has dealt with (`ids`; all of them without), Q23. */
  'device.dismissKept': (c, ids?: string[]) => dismissKept(c.db, ids),
  /** The calendar feed URL this device made, while it is the link active since `createdAt` (F9). */
  'device.calendarLink': (c, a: { userId: number; createdAt: string | null }) =>
    keptCalendarLink(c.db, a.userId, a.createdAt),
  /** Keeps the calendar feed URL just made here: only this device can show it again (F9). */
  'device.keepCalendarLink': (c, link: KeptCalendarLink) => keepCalendarLink(c.db, link),
  /**
   * Clear Local Data: wipes every store of IndexedDB but a named keep-list (W10, deviceWipe.ts) and
   * local storage (the caller reloads); a signed-in user's data comes back with the next sync.
   */
  'device.clear': async (c) => {
    // Loaded when asked: the first screen never needs it.
    const { clearDeviceStores } = await import('../sync/deviceWipe');
    await clearDeviceStores(c.db);
    // The spec clears all local storage too (onboarding, theme, persisted stores).
    localStorage.clear();
    sessionStorage.clear();
  },
});
