/** Sync runs, conflicts and the device's own state (ARCHITECTURE §6). */
import type { ConflictChoice } from '../reads/conflictView';
import { defineCommands } from './map';

/** What 'Sync Now' came to (SYNC.md): `ok` only when the run reached the server and sent what it could. */
export interface SyncNowResult {
  ok: boolean;
  outcome: 'synced' | 'offline' | 'unreachable' | 'failed' | 'conflicts' | 'busy' | 'guest';
  /** Changes still not on the server. */
  pending: number;
}

export const commands = defineCommands({
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
  'sync.clearFinishedUpgrade': (c) => c.clearFinishedUpgrade(),
});

export const deviceCommands = defineCommands({
  /** How many changes are not on the server yet (Clear Local Data and Log out ask before losing them). */
  'device.pendingChanges': (c) => c.pendingChanges(),
  /** Deletes IndexedDB and local storage (the caller reloads). */
  'device.clear': async (c) => {
    await c.clearLocalData();
    // The spec clears all local storage too (onboarding, theme, persisted stores).
    localStorage.clear();
    sessionStorage.clear();
  },
});
