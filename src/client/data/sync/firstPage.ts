/**
 * A fresh device's first sync page, asked for as soon as the sign-in answers (client.ts) instead
 * of once the sync engine and Home's modules have loaded: measured from the Sign In click, the pull's
 * first request went out at 550–780 ms, and the page came back after the screen was ready for it. The
 * pull takes it as its first page (SYNC.md L16); one not taken within FIRST_PAGE_KEPT_MS, or asked for
 * before a sign-out, is dropped.
 */
import type { SyncPage } from '../../../shared/item';
import type { SyncPageChildren } from '../../../shared/itemChildren';
import type { SyncPageLists } from '../../../shared/syncLists';
import type { ApiClient } from '../net/apiClient';
import { getMeta, META_KEYS, type OutpostDb } from '../store/db';
import { dropFirstRows, showFirstRows } from '../store/firstRows';

/** A page of GET /api/sync, as the pull reads it. */
export type PulledPage = SyncPage & SyncPageChildren & SyncPageLists;

/** How long a first page asked for ahead waits for the pull. */
export const FIRST_PAGE_KEPT_MS = 30_000;

const asked = new WeakMap<Pick<ApiClient, 'get'>, { page: Promise<PulledPage>; at: number }>();

/** GET /api/sync after `cursor`, with the count of what remains when `count` (L7, L8). */
export function askPage(api: Pick<ApiClient, 'get'>, cursor: string, count = false): Promise<PulledPage> {
  return api
    .get<PulledPage>(`/sync?cursor=${encodeURIComponent(cursor)}${count ? '&count=1' : ''}`)
    .then(({ data }) => data);
}

/** Asks for a bootstrap's first page now, for the pull to take (L16). */
export function askFirstPage(api: Pick<ApiClient, 'get'>): void {
  // For the sign-in's timeline (npm run bench -- scale --timeline) and DevTools' performance panel.
  performance.mark('outpost: first page asked');
  const page = askPage(api, '');
  // A failure is the pull's to meet: it asks again itself.
  page.catch(() => undefined);
  asked.set(api, { page, at: Date.now() });
}

/** Whether the device holds no cursor, read once per sign-in; `known` is set once the read settles. */
interface Freshness {
  fresh: Promise<boolean>;
  known?: boolean;
}

const checked = new WeakMap<Pick<ApiClient, 'get'>, Freshness>();

/**
 * As a sign-in's request leaves: reads whether the device holds a cursor, so that its answer asks for
 * the first page at once (L16) instead of after the database has opened and answered.
 */
export function checkFreshDevice(db: OutpostDb, api: Pick<ApiClient, 'get'>): Freshness {
  const check: Freshness = {
    fresh: getMeta<string>(db, META_KEYS.cursor).then(
      (cursor) => !cursor,
      () => false,
    ),
  };
  void check.fresh.then((fresh) => {
    check.known = fresh;
  });
  checked.set(api, check);
  return check;
}

/**
 * As the sign-in answers (L16): a device known to hold a cursor asks for nothing; one with no cursor,
 * or whose read has not settled yet, asks for its first page now, and a page asked for before the read
 * said there is a cursor is dropped. The page is asked for with the session the answer just set: it
 * is the signing-in account's own, whatever the device held before (afterSignIn wipes that).
 */
export function askFirstPageAhead(db: OutpostDb, api: Pick<ApiClient, 'get'>): void {
  const check = checked.get(api) ?? checkFreshDevice(db, api);
  checked.delete(api);
  if (check.known === false) return;
  askFirstPage(api);
  const entry = asked.get(api);
  const waiting = () => entry !== undefined && asked.get(api) === entry;
  const drop = () => {
    if (!waiting()) return;
    asked.delete(api);
    dropFirstRows(db);
  };
  // L17: on Home from memory as it arrives, not once the sync engine has loaded and taken it; the
  // pull drops the rows when it ends, and a page it never takes drops them here.
  entry?.page.then((data) => {
    if (waiting()) showFirstRows(db, data.items);
  }, drop);
  setTimeout(drop, FIRST_PAGE_KEPT_MS);
  if (check.known === true) return;
  void check.fresh.then((fresh) => {
    if (!fresh) drop();
  });
}

/** The first page asked for ahead (L16), once; null when none is waiting or it waited too long. */
export function takeFirstPage(api: Pick<ApiClient, 'get'>): Promise<PulledPage> | null {
  const waiting = asked.get(api);
  asked.delete(api);
  if (!waiting || Date.now() - waiting.at > FIRST_PAGE_KEPT_MS) return null;
  // Failed, it is asked for again: the pull meets only the second answer.
  return waiting.page.catch(() => askPage(api, ''));
}

/** Drops a first page asked for ahead, and its rows shown from memory (a sign-out: they are the leaving account's). */
export function forgetFirstPage(db: OutpostDb, api: Pick<ApiClient, 'get'>): void {
  asked.delete(api);
  checked.delete(api);
  dropFirstRows(db);
}
