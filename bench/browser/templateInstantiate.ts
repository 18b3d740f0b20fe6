/**
 * The page side of `npm run bench -- template-instantiate` (bench/templateInstantiate.ts), issue 66's
 * budget: a 200-item template created offline until a live read of the device shows every item, beside
 * a raw 200-row put in one IndexedDB transaction on the app's own schema, on `window.templateInstantiate`.
 *
 *  app: send('templates.instantiate') (shared instantiateEntries, then ONE write through the funnel:
 *       rows, queued creates, undo record), the device offline, until a Dexie liveQuery of the items'
 *       count has all 200 (the write committed and a live list read it again).
 *  reference: the same number of rows put in one readwrite transaction, then one count read.
 */
import { liveQuery } from 'dexie';
import type { TemplateNode, TemplateTree } from '../../src/shared/templates';
import { type LocalItem, type OutpostClient, withKeys } from '../lib/appData';
import { done, req } from './idb';
import { type LiveWatch, sleep, watchLive } from './liveTiming';
import { deleteDb, openRaw, pulledOffline } from './localWrites';

const node = (type: TemplateNode['type'], title: string, children: TemplateNode[] = []): TemplateNode => ({
  type,
  title,
  description: null,
  priority: 4,
  labels: [],
  estimate_minutes: null,
  recurrence: null,
  start_offset: null,
  due_offset: children.length,
  end_offset: null,
  children,
});

/** A campaign of 12 tasks, 11 of them with 17 todos: 200 items. */
function tree(): TemplateTree {
  const tasks = Array.from({ length: 12 }, (_, t) =>
    node(
      'task',
      `Step ${t + 1}`,
      t < 11 ? Array.from({ length: 17 }, (_, i) => node('todo', `Check ${t + 1}.${i + 1}`)) : [],
    ),
  );
  return { nodes: [node('campaign', 'Onboarding', tasks)] };
}

export const TEMPLATE_ITEMS = 200;

interface State {
  client: OutpostClient;
  stop: () => void;
  raw: IDBDatabase;
  watch: LiveWatch<number>;
  nextRawId: number;
}

let state: State | null = null;

const templateInstantiate = {
  /** The app's device pulled and started offline, the reference's empty database with the app's schema. */
  async setup(): Promise<{ items: number }> {
    await deleteDb('ti-app');
    await deleteDb('ti-ref');
    const d = await pulledOffline('ti-app');
    const stop = d.stop;
    // The templates' commands load before the first timed create (a page has them from its dialog).
    await d.client.send('templates.cached');
    const raw = await openRaw('ti-ref');
    const watch = await watchLive<number>(liveQuery(() => d.client.db.items.count()));
    state = { client: d.client, stop, raw, watch, nextRawId: 1 };
    await sleep(300);
    return { items: await d.client.db.items.count() };
  },

  /** The app: a 200-item template created offline until the live count shows every item. */
  async app(): Promise<{ ms: number; storedMs: number }> {
    const e = state!;
    await e.client.db.syncQueue.clear();
    const before = await e.client.db.items.count();
    const template = { name: 'Onboarding', tree: tree() };
    await sleep(30);
    return e.watch.time(
      () => e.client.send('templates.instantiate', { template, anchorDate: '2026-12-01' }),
      (count) => count >= before + TEMPLATE_ITEMS,
    );
  },

  /** The reference: 200 rows put in one transaction, then one count read. */
  async ref(): Promise<{ ms: number }> {
    const e = state!;
    const at = new Date().toISOString();
    const rows = Array.from({ length: TEMPLATE_ITEMS }, (_, i) => {
      const id = -1_000_000 - e.nextRawId++;
      return withKeys({
        id,
        uuid: crypto.randomUUID(),
        type: i === 0 ? 'campaign' : 'task',
        title: `Row ${i}`,
        description: null,
        status: 'pending',
        priority: 4,
        labels: [],
        sort_key: 'a0',
        user_id: 1,
        assigned_to: null,
        parent_id: null,
        due_date: null,
        end_date: null,
        created_at: at,
        updated_at: at,
        version: 1,
        _syncStatus: 'pending',
        _deleted: 0,
        _localVersion: 1,
        _conflict: null,
        _dirty: [],
        _base: null,
        _remote: null,
      } as unknown as LocalItem);
    });
    await sleep(30);
    const t0 = performance.now();
    const tx = e.raw.transaction('items', 'readwrite');
    const store = tx.objectStore('items');
    for (const row of rows) store.put(row);
    await done(tx);
    await req(e.raw.transaction('items').objectStore('items').count());
    const ms = performance.now() - t0;
    await sleep(50);
    return { ms };
  },

  async teardown(): Promise<void> {
    const e = state;
    if (!e) return;
    e.watch.stop();
    e.stop();
    e.client.close();
    e.raw.close();
    state = null;
    await deleteDb('ti-app');
    await deleteDb('ti-ref');
  },
};

(window as unknown as { templateInstantiate: typeof templateInstantiate }).templateInstantiate =
  templateInstantiate;
