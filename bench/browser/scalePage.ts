/**
 * The page side of `npm run bench -- scale`: bench/scale.ts bundles this file with esbuild into one
 * script and adds it to every page of a round's browser context (addInitScript), so it runs before
 * the app's own code on the app's pages and on the plain JSON page the reference pull runs in. It
 * imports nothing: the app's screens are measured as they are built, with nothing of the bench
 * loaded beside them but these few observers.
 *
 * It records main-thread tasks over 50 ms (PerformanceObserver 'longtask') and hands them to the
 * Node side through the `scaleLongTask` binding (it outlives page loads), notes when the first item
 * row enters `main` (ms since navigation start, as bench/home10k.ts does), and exposes on
 * `window.scale` the probes and timers the Node side calls.
 */

interface LongTask {
  /** Epoch milliseconds, comparable with the Node side's Date.now(). */
  at: number;
  duration: number;
}

interface IndexSpec {
  name: string;
  keyPath: string | string[];
  unique: boolean;
}

/** bench/browser/rawKeys.ts, on the reference's page only. */
interface RawKeys {
  COUNTS_STORE: string;
  withKeys<T extends object>(row: T): T;
  countRowsFromScratch(rows: readonly object[]): object[];
  topFlagsFromScratch(rows: readonly object[]): Map<number, { _top: 1 | false; _stop: 1 | false }>;
}

interface ScaleWindow {
  scaleLongTask?: (task: LongTask) => Promise<void>;
  scaleFirstRowAt?: number;
  scale: typeof scale;
}

const w = window as unknown as ScaleWindow;
const ROW = 'main [data-item-id]';
const PROGRESS = /Syncing\s+[\d,.]+\s+of\s+[\d,.]+/i;

/** The page's long tasks, for the sign-in timeline. */
const longTasks: PerformanceEntry[] = [];
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      longTasks.push(entry);
      void w.scaleLongTask?.({ at: performance.timeOrigin + entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // No long-task timing in this browser: the figures say 'n/a' rather than 0.
}

/**
 * When the search dialog's typing debounce (a 300 ms timer) last fired: search figures are also
 * given from there, i.e. the search and its render without the wait the dialog adds on purpose.
 */
let debounceFiredAt = Number.NaN;
const nativeSetTimeout = window.setTimeout.bind(window);
window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
  if (delay === 300 && typeof handler === 'function') {
    const inner = handler as (...xs: unknown[]) => void;
    return nativeSetTimeout(
      (...xs: unknown[]) => {
        debounceFiredAt = performance.now();
        inner(...xs);
      },
      delay,
      ...rest,
    );
  }
  return nativeSetTimeout(handler, delay, ...rest);
}) as typeof window.setTimeout;

const firstRow = new MutationObserver(() => {
  if (document.querySelector(ROW)) {
    w.scaleFirstRowAt = performance.now();
    sessionStorage.setItem(FIRST_ROW_EPOCH, String(performance.timeOrigin + w.scaleFirstRowAt));
    firstRow.disconnect();
    // On screen: the frame after the row entered the DOM has run its style, layout and paint (a
    // message posted from its animation frame runs once the frame is done). The row in the DOM alone
    // leaves out what the same task does after it and the frame's own work.
    requestAnimationFrame(() => {
      const after = new MessageChannel();
      after.port1.onmessage = () =>
        sessionStorage.setItem(FIRST_PAINT_EPOCH, String(performance.timeOrigin + performance.now()));
      after.port2.postMessage(null);
    });
  }
});
// The sign-in's click and the first row, as wall-clock times kept in the tab's session storage: a
// navigation in between would reset performance.now(), and a poll from outside lands late (its
// store count waits behind the pull's write transaction).
const SIGN_IN_EPOCH = 'scale.signInClickAt';
const FIRST_ROW_EPOCH = 'scale.firstRowAt';
const FIRST_PAINT_EPOCH = 'scale.firstRowPaintedAt';
document.addEventListener(
  'click',
  (event) => {
    const button = (event.target as HTMLElement | null)?.closest?.('button');
    if (button && button.textContent?.trim() === 'Sign In')
      sessionStorage.setItem(SIGN_IN_EPOCH, String(performance.timeOrigin + performance.now()));
  },
  { capture: true },
);
firstRow.observe(document, { childList: true, subtree: true });

function req<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Resolves with performance.now() once `ready()` holds after a DOM change, or NaN after `timeoutMs`. */
function whenDom(ready: () => boolean, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const finish = (at: number) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(at);
    };
    const observer = new MutationObserver(() => {
      if (ready()) finish(performance.now());
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    const timer = setTimeout(() => finish(Number.NaN), timeoutMs);
  });
}

const localFields = {
  _syncStatus: 'synced',
  _deleted: 0,
  _localVersion: 0,
  _conflict: null,
  _dirty: [],
  _base: null,
  _remote: null,
  _predicted: null,
} as const;

let pending: Promise<number> | null = null;
let afterDebounce = Number.NaN;

const scale = {
  /** What the app has stored and shows: items in its database, a row in `main`, the progress line. */
  async probe(): Promise<{ stored: number; row: boolean; progress: string | null; heap: number }> {
    const row = document.querySelector(ROW) !== null;
    const progress = document.body?.textContent?.match(PROGRESS)?.[0] ?? null;
    const heap =
      (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
    // Never open (and so create) the app's database before the app has: an empty version 1 would
    // stop its own schema from being created.
    const names = await indexedDB.databases();
    if (!names.some((d) => d.name === 'Outpost')) return { stored: 0, row, progress, heap };
    const db = await req(indexedDB.open('Outpost'));
    // The app's upgrade must never wait for this probe.
    db.onversionchange = () => db.close();
    try {
      if (!db.objectStoreNames.contains('items')) return { stored: 0, row, progress, heap };
      const stored = await req(db.transaction('items').objectStore('items').count());
      return { stored, row, progress, heap };
    } finally {
      db.close();
    }
  },

  /**
   * The reference: GET /api/sync page by page (the signed-in cookies), then every item written in one
   * raw IndexedDB transaction into a database with the app's item indexes (as bench/browser/entry.ts
   * rawPull does). Timed from the first request until the items are counted back.
   */
  async rawPull(
    indexes: IndexSpec[],
  ): Promise<{ ms: number; count: number; pages: number; networkMs: number }> {
    const name = 'scale-raw-pull';
    // The app's list keys and counters (bench/browser/rawKeys.ts, added to this page by scale.ts).
    const keys = (window as unknown as { scaleRawKeys?: RawKeys }).scaleRawKeys;
    if (!keys) throw new Error('the reference page has no rawKeys script');
    await new Promise<void>((resolve) => {
      const del = indexedDB.deleteDatabase(name);
      del.onsuccess = del.onerror = del.onblocked = () => resolve();
    });
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const db = open.result;
      const items = db.createObjectStore('items', { keyPath: 'id' });
      for (const index of indexes) items.createIndex(index.name, index.keyPath, { unique: index.unique });
      db.createObjectStore('users', { keyPath: 'id' });
      db.createObjectStore('meta', { keyPath: 'key' });
      db.createObjectStore(keys.COUNTS_STORE, { keyPath: ['parent', 'scope'] });
    };
    const db = await req(open);
    const t0 = performance.now();
    const all: Array<{ id: number; parent_id: number | null; created_by: { id: number } }> = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await fetch(`/api/sync?cursor=${encodeURIComponent(cursor)}`, {
        headers: { Accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`GET /api/sync answered ${res.status}: ${await res.text()}`);
      const page = (await res.json()) as { items: typeof all; cursor: string; has_more: boolean };
      pages++;
      for (const item of page.items) all.push(item);
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    // Every page on the wire and parsed, in turn, before anything is written: the network and JSON alone.
    const networkMs = performance.now() - t0;
    const tx = db.transaction(['items', 'users', 'meta', keys.COUNTS_STORE], 'readwrite');
    const items = tx.objectStore('items');
    const users = tx.objectStore('users');
    const seen = new Set<number>();
    const rows: object[] = [];
    const flags = keys.topFlagsFromScratch(all.map((item) => ({ ...item, ...localFields })));
    for (const item of all) {
      // The fields the app's middleware keeps (Home's flag and the list keys): without them the
      // reference's rows had no entry in the list indexes, work the app's rows cannot skip.
      const row = keys.withKeys({ ...item, ...localFields, ...flags.get(item.id) });
      rows.push(row);
      items.put(row);
      if (!seen.has(item.created_by.id)) {
        seen.add(item.created_by.id);
        users.put(item.created_by);
      }
    }
    // And the progress counters, each written once, computed from every row (the least any writer
    // of them can do; the app keeps them page by page).
    for (const counter of keys.countRowsFromScratch(rows)) tx.objectStore(keys.COUNTS_STORE).put(counter);
    tx.objectStore('meta').put({ key: 'cursor', value: cursor });
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
    const count = await req(db.transaction('items').objectStore('items').count());
    const ms = performance.now() - t0;
    db.close();
    indexedDB.deleteDatabase(name);
    return { ms, count, pages, networkMs };
  },

  /** From the Sign In click to the first item row in `main`, across navigations; null before both. */
  signInToFirstRow(): number | null {
    const clicked = sessionStorage.getItem(SIGN_IN_EPOCH);
    const row = sessionStorage.getItem(FIRST_PAINT_EPOCH);
    return clicked === null || row === null ? null : Number(row) - Number(clicked);
  },

  /**
   * What this page did between the Sign In click and its first row (--timeline): its API requests,
   * long tasks and script loads, in ms from the click; empty when the page navigated in between.
   */
  signInTimeline(): string[] {
    const clicked = Number(sessionStorage.getItem(SIGN_IN_EPOCH));
    const row = Number(sessionStorage.getItem(FIRST_ROW_EPOCH));
    const at = (t: number) => Math.round(performance.timeOrigin + t - clicked);
    const lines: string[] = [];
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const start = at(entry.startTime);
      // Also those asked before the click and still loading at it: they hold connections it needs;
      // and the counted page (SYNC.md L8), whenever it went: it holds the server while it counts.
      const after = performance.timeOrigin + entry.startTime > row && !entry.name.includes('count=1');
      if (at(entry.responseEnd) < 0 || after) continue;
      const url = new URL(entry.name);
      // Sent and first byte too: a wait for a connection shows as the gap before 'sent', the server's
      // time as the gap from 'sent' to 'first byte'.
      const sent = entry.requestStart > 0 ? at(entry.requestStart) : '?';
      const firstByte = entry.responseStart > 0 ? at(entry.responseStart) : '?';
      lines.push(
        `${start} → ${at(entry.responseEnd)} ms ${url.pathname}${url.search} (${entry.initiatorType}, sent ${sent}, first byte ${firstByte})`,
      );
    }
    for (const task of longTasks) {
      const start = at(task.startTime);
      if (start >= 0 && performance.timeOrigin + task.startTime <= row)
        lines.push(`${start} → ${at(task.startTime + task.duration)} ms long task`);
    }
    for (const mark of performance.getEntriesByType('mark')) {
      const start = at(mark.startTime);
      if (start >= 0 && performance.timeOrigin + mark.startTime <= row)
        lines.push(`${start} ms mark ${mark.name}`);
    }
    lines.push(`${Math.round(row - clicked)} ms first row in the DOM`);
    const painted = Number(sessionStorage.getItem(FIRST_PAINT_EPOCH));
    if (painted > 0) lines.push(`${Math.round(painted - clicked)} ms first row painted`);
    return lines.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  },

  /** When the first item row entered `main`, in ms since this page's navigation started. */
  firstRowAt(): number | null {
    return w.scaleFirstRowAt ?? null;
  },

  /**
   * Arms the edit timer: from the Enter that commits an inline title edit (keydown, capture phase)
   * until the row `id` shows `title` again as text (the field gone), or NaN after 30 s.
   */
  armEdit(container: string, title: string): void {
    let started = Number.NaN;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter') started = performance.now();
    };
    document.addEventListener('keydown', onKey, { capture: true, once: true });
    const shown = () => {
      const row = document.querySelector(container);
      return !!row && !row.querySelector('input') && (row.textContent ?? '').includes(title);
    };
    pending = whenDom(shown, 30_000).then((at) => at - started);
  },

  /**
   * Arms the search timer: from the text going into the search dialog's field (its input event)
   * until the dialog shows results or 'No items found', or NaN after 30 s. Includes the dialog's
   * 300 ms typing debounce (src/client/components/ui/useDebouncedValue.ts).
   */
  armSearch(): void {
    let started = Number.NaN;
    const onInput = (event: Event) => {
      if ((event.target as HTMLElement | null)?.matches?.('[data-search-input]')) started = performance.now();
    };
    document.addEventListener('input', onInput, { capture: true, once: true });
    const shown = () => {
      if (Number.isNaN(started)) return false;
      const dialog = document.querySelector('[role="dialog"]');
      if (!dialog) return false;
      if (dialog.querySelector('[role="listbox"] [role="option"]')) return true;
      return (dialog.textContent ?? '').includes('No items found');
    };
    pending = whenDom(shown, 30_000).then((at) => {
      afterDebounce = at - debounceFiredAt;
      return at - started;
    });
  },

  /** The last search's time from its debounce timer firing until results showed. */
  searchAfterDebounce(): number {
    return afterDebounce;
  },

  /** What the armed timer measured, in ms (NaN when it timed out). */
  async result(): Promise<number> {
    const p = pending;
    pending = null;
    if (!p) throw new Error('nothing armed');
    return p;
  },
};

w.scale = scale;
