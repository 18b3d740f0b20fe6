/**
 * A fresh device's first sync page, asked for as soon as the sign-in answers (signInSteps.ts) instead
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
  const page = askPage(api, '');
  // A failure is the pull's to meet: it asks again itself.
  page.catch(() => undefined);
  asked.set(api, { page, at: Date.now() });
}

/**
 * As the sign-in answers: a device with no cursor, holding no other account's data, asks for its
 * first page now (L16). Called from the data layer's own chunk, so the ask never waits for the
 * sign-in's other modules, which load behind the sync engine's at that moment.
 */
export async function askFirstPageIfFresh(
  db: OutpostDb,
  api: Pick<ApiClient, 'get'>,
  userId: number,
): Promise<void> {
  const [owner, cursor] = await Promise.all([
    getMeta<number>(db, META_KEYS.dataOwner),
    getMeta<string>(db, META_KEYS.cursor),
  ]);
  if ((owner === undefined || owner === userId) && !cursor) askFirstPage(api);
}

/** The first page asked for ahead (L16), once; null when none is waiting or it waited too long. */
export function takeFirstPage(api: Pick<ApiClient, 'get'>): Promise<PulledPage> | null {
  const waiting = asked.get(api);
  asked.delete(api);
  if (!waiting || Date.now() - waiting.at > FIRST_PAGE_KEPT_MS) return null;
  // Failed, it is asked for again: the pull meets only the second answer.
  return waiting.page.catch(() => askPage(api, ''));
}

/** Drops a first page asked for ahead (a sign-out: it is the leaving account's). */
export function forgetFirstPage(api: Pick<ApiClient, 'get'>): void {
  asked.delete(api);
}
