/**
 * The page side of `npm run bench -- saved-view` (bench/savedView.ts), issue 66's budget for a saved
 * view's live list, on `window.savedView`, with the account's 10,000 items pulled and the device offline
 * (edits stay queued, no push in the timed part):
 *
 *  app: a title rename through the repository (items.update) until the saved view's live query (Dexie
 *       liveQuery over the view page's read, reads.viewItems: '!status: completed & !p1', by title)
 *       shows it.
 *  reference: the same rename until the same items' list without the filter shows it: the Queue
 *       screen's live query (reads.screenItems('queue', 'all'), its first page).
 */
import { liveQuery } from 'dexie';
import { dayKey } from '../../src/shared/agenda';
import { deviceReads, LIST_PAGE, type LocalItem, type OutpostClient } from '../lib/appData';
import { type LiveWatch, sleep, watchLive } from './liveTiming';
import { deleteDb, pulledOffline } from './localWrites';

export const VIEW_QUERY = '!status: completed & !p1';
type ViewAnswer = { ok: true; items: LocalItem[]; total: number } | { ok: false } | undefined;

interface State {
  client: OutpostClient;
  stop: () => void;
  view: LiveWatch<ViewAnswer>;
  list: LiveWatch<LocalItem[]>;
  /** The row both lists show: the first of the Queue's page. */
  target: number;
  n: number;
}

let state: State | null = null;

const savedView = {
  /** The app's device pulled and started offline; both live queries subscribed. */
  async setup(): Promise<{ items: number; matching: number; target: number }> {
    await deleteDb('sv-app');
    const d = await pulledOffline('sv-app');
    const stop = d.stop;
    const reads = deviceReads(d.client);
    const today = dayKey(new Date());
    // The view's read loads with its screen (a later read): loaded before anything is timed.
    for (let tries = 0; tries < 50 && reads.viewItems(VIEW_QUERY, today, 'title') === undefined; tries++)
      await sleep(20);
    const view = await watchLive<ViewAnswer>(
      liveQuery(() => deviceReads(d.client).viewItems(VIEW_QUERY, today, 'title')),
    );
    const list = await watchLive<LocalItem[]>(
      liveQuery(() => deviceReads(d.client).screenItems('queue', 'all', { limit: LIST_PAGE })),
    );
    const page = await reads.screenItems('queue', 'all', { limit: LIST_PAGE });
    const first = page[0];
    if (!first) throw new Error('the Queue is empty');
    const matching = await reads.viewItems(VIEW_QUERY, today, 'title');
    state = { client: d.client, stop, view, list, target: first.id, n: 0 };
    await sleep(300);
    return {
      items: await d.client.db.items.count(),
      matching: matching?.ok ? matching.total : -1,
      target: first.id,
    };
  },

  /** The app: a rename until the saved view's live list shows it (the new title sorts first). */
  async app(): Promise<{ ms: number; storedMs: number }> {
    const e = state!;
    await e.client.db.syncQueue.clear();
    await sleep(30);
    const title = `Aaa view edit ${++e.n}`;
    return e.view.time(
      () => e.client.items.update(e.target, { title }),
      (answer) => answer?.ok === true && answer.items[0]?.id === e.target && answer.items[0].title === title,
    );
  },

  /** The reference: the same rename until the Queue's live list (no filter) shows it. */
  async ref(): Promise<{ ms: number; storedMs: number }> {
    const e = state!;
    await e.client.db.syncQueue.clear();
    await sleep(30);
    const title = `Aaa list edit ${++e.n}`;
    return e.list.time(
      () => e.client.items.update(e.target, { title }),
      (rows) => rows.some((r) => r.id === e.target && r.title === title),
    );
  },

  async teardown(): Promise<void> {
    const e = state;
    if (!e) return;
    e.view.stop();
    e.list.stop();
    e.stop();
    e.client.close();
    state = null;
    await deleteDb('sv-app');
  },
};

(window as unknown as { savedView: typeof savedView }).savedView = savedView;
