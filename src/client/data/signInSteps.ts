/**
 * What the client does when someone signs in or out (the auth store's reactions, composed by
 * client.ts): loaded when it first runs, so Home's first load carries none of it.
 */
import type { UserSummary } from '../../shared/item';
import type { ApiClient } from './net/apiClient';
import { getMeta, META_KEYS, type OutpostDb, setMeta } from './store/db';
import { hasGuestItems } from './store/guestRows';
import type { LazyEngine, LazyEngineDeps } from './sync/lazyEngine';

/** What the sign-in's steps use of the client. */
export interface SignInDeps {
  db: OutpostDb;
  api: ApiClient;
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
  // A fresh device's first page was asked for already (client.ts signInAnswered, L16).
  // Loaded before the transaction, which an await of anything but IndexedDB would end.
  const { wipeOtherAccount } = await import('./sync/deviceWipe');
  await db.transaction('rw', db.tables, async () => {
    const owner = await getMeta<number>(db, META_KEYS.dataOwner);
    // Another account's data must not leak into this one: every store goes (SYNC.md W10), but
    // the guest's rows, which stay and move over.
    if (owner !== undefined && owner !== user.id) await wipeOtherAccount(db, user.id);
    await setMeta(db, META_KEYS.dataOwner, user.id);
  });
  // A guest with no items of their own has nothing to move up (their children are on their items):
  // the upgrade's modules are not loaded for it.
  if (wasGuest && (await hasGuestItems(db))) {
    const [upgrade, applyLocalChange, features] = await Promise.all([
      import('./sync/guestUpgrade'),
      deps.funnel(),
      deps.syncFeatures(),
    ]);
    await upgrade.moveGuestDataToAccount(db, user, features, applyLocalChange);
  }
  // The sign-in is done, and its screen opens now: the sync engine's status and first run follow as
  // it loads (in this order, as the engine takes its calls), not before Home (350 ms on a slow machine).
  void Promise.resolve(deps.engine.refreshStatus()).catch(() => undefined);
  void deps.backgroundSync.run();
}

/** A passkey sign-in, through the server commands. */
export async function passkeySignIn(api: ApiClient) {
  const { commands } = await import('./commands/server');
  return commands['server.passkeySignIn']({ api });
}

/** After a sign-out: the calendar feed URL kept on this device (F9) and a first page asked for ahead (L16) are the leaving account's. */
export async function afterSignOut(db: OutpostDb, api: ApiClient): Promise<void> {
  (await import('./sync/firstPage')).forgetFirstPage(db, api);
  const { forgetCalendarLink } = await import('./store/calendarLink');
  await forgetCalendarLink(db);
}
