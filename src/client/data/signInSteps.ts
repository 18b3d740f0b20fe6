/**
 * What the client does when someone signs in or out (the auth store's reactions, composed by
 * client.ts): loaded when it first runs, so Home's first load carries none of it.
 */
import type { UserSummary } from '../../shared/item';
import type { ApiClient } from './net/apiClient';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from './store/db';
import type { LazyEngine, LazyEngineDeps } from './sync/lazyEngine';

/** What the sign-in's steps use of the client. */
export interface SignInDeps {
  db: OutpostDb;
  funnel: LazyEngineDeps['funnel'];
  syncFeatures: LazyEngineDeps['features'];
  engine: LazyEngine;
  backgroundSync: { run: () => unknown };
}

/**
 * After a sign-in: another account's data leaves the device (the guest's rows stay, SYNC.md W10), a
 * guest's data moves to the account (U1), and a sync run starts.
 */
export async function afterSignIn(deps: SignInDeps, user: UserSummary, wasGuest: boolean): Promise<void> {
  const { db } = deps;
  // Loaded before the transaction, which an await of anything but IndexedDB would end.
  const { wipeOtherAccount } = await import('./sync/deviceWipe');
  await db.transaction('rw', db.tables, async () => {
    const owner = await getMeta<number>(db, META_KEYS.dataOwner);
    // Another account's data must not leak into this one: every store goes (SYNC.md W10), but
    // the guest's rows, which stay and move over.
    if (owner !== undefined && owner !== user.id) await wipeOtherAccount(db, user.id);
    await setMeta(db, META_KEYS.dataOwner, user.id);
  });
  if (wasGuest) {
    const [upgrade, applyLocalChange, features] = await Promise.all([
      import('./sync/guestUpgrade'),
      deps.funnel(),
      deps.syncFeatures(),
    ]);
    await upgrade.moveGuestDataToAccount(db, user, features, applyLocalChange);
  }
  await deps.engine.refreshStatus();
  void deps.backgroundSync.run();
}

/** A passkey sign-in, through the server commands. */
export async function passkeySignIn(api: ApiClient) {
  const { commands } = await import('./commands/server');
  return commands['server.passkeySignIn']({ api });
}

/** After a sign-out: the calendar feed URL kept on this device is a secret of the account that leaves (F9). */
export async function afterSignOut(db: OutpostDb): Promise<void> {
  const { forgetCalendarLink } = await import('./store/calendarLink');
  await forgetCalendarLink(db);
}
