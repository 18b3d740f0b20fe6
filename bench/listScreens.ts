/**
 * `npm run bench -- list-screens`: every list screen's first row with 10,000 and with 100,000 local
 * guest items (issue 19: at 100,000 within 1.3× the 10,000 figure and under 400 ms), in headless
 * Chromium on the real server. Two fresh profiles are seeded once, straight into the app's IndexedDB
 * (the rows in the shape the app stores them: with `_top` and the list keys, so no repair runs), in a
 * realistic shape: a few thousand top-level items, campaigns with 20 tasks, tasks with tens of todos,
 * one task with 2,000 todos, a third completed, one in ten due between 15 days ago and 29 days on (Today
 * and Upcoming read them by the due-day index). Then rounds alternate 10k and 100k; each screen is
 * opened and timed from navigation start to its first item row. `--runs N` sets the rounds (3);
 * `--client-dir DIR` serves another build of the client (an older commit's, for a before figure);
 * `--screens Today,Upcoming` times only the screens whose names start with one of these (a quicker run).
 */
import { type BrowserContext, chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { addDays, dayKey } from '../src/shared/agenda';
import type { ItemStatus, ItemType } from '../src/shared/item';
import { type LocalItem, listKeysOf, topFlagsFromScratch } from './lib/appData';
import { startAppServer } from './lib/appServer';
import { firstRowContext } from './lib/firstRow';
import { guestRow, SEED_START, seedGuestCounts, seedGuestItems } from './lib/guestSeed';
import { check, heading, info, skip } from './lib/report';
import { median } from './lib/stats';

const SIZES = [10_000, 100_000] as const;
const ROW = '[data-item-id]';
const FIRST_ROW_BUDGET_MS = 400;
const RATIO_BUDGET = 1.3;
/** The campaign (id 1) holding the task (id 2) with 2,000 todos. */
const BIG_CAMPAIGN = 1;
const BIG_TASK = 2;

const SCREENS = [
  { name: 'Queue', path: '/queue' },
  { name: 'Home, Tasks tab', path: '/?tab=task' },
  { name: 'Active', path: '/active' },
  { name: 'Completed', path: '/completed' },
  { name: 'My List', path: '/my-list' },
  { name: 'a campaign', path: `/campaigns/${BIG_CAMPAIGN}` },
  { name: 'a task with 2,000 todos', path: `/tasks/${BIG_TASK}` },
  { name: 'Today', path: '/today' },
  { name: 'Upcoming', path: '/upcoming' },
] as const;

/** The guest's items in the shape described at the top, ids 1..count. */
function guestTree(count: number): LocalItem[] {
  const rows: LocalItem[] = [];
  // Due days around the day the bench runs (this machine's zone, as the browser's).
  const today = dayKey(new Date());
  const add = (type: ItemType, parent: number | null): number => {
    const id = rows.length + 1;
    const updated = new Date(SEED_START + id * 60_000 + ((id * 7919) % 1000) * 60_000).toISOString();
    const status: ItemStatus = id % 3 === 0 ? 'completed' : id % 10 === 1 ? 'in_progress' : 'pending';
    const row = guestRow(id, type, parent, {
      description: id % 5 === 0 ? `Details for item ${id}` : null,
      status,
      due_date: id % 10 === 0 ? addDays(today, (((id / 10) * 7) % 45) - 15) : null,
      updated_at: updated,
      completed_at: status === 'completed' ? updated : null,
    });
    rows.push(row);
    return id;
  };
  add('campaign', null);
  add('task', BIG_CAMPAIGN);
  for (let i = 0; i < 2_000; i++) add('todo', BIG_TASK);
  const types: ItemType[] = ['todo', 'task', 'campaign'];
  for (let i = 0; i < Math.round(count * 0.03); i++) add(types[i % 3]!, null);
  const tasks: number[] = [];
  for (let c = 0; c < count / 500; c++) {
    const campaign = add('campaign', null);
    for (let t = 0; t < 20; t++) tasks.push(add('task', campaign));
  }
  for (let i = 0; rows.length < count; i++) add('todo', tasks[i % tasks.length]!);
  // As the app stores them: the top-level flag and the list keys (topFlags.ts, listKeys.ts).
  const flags = topFlagsFromScratch(rows);
  return rows.map((r) => ({ ...r, ...flags.get(r.id), ...listKeysOf(r) }));
}

/** Writes `items` with the browser's own IndexedDB into the database the app has created; answers how many are stored. */
export async function seed(context: BrowserContext, url: string, items: LocalItem[]): Promise<number> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  let stored = 0;
  // In slices: one evaluate of 100,000 rows would be a single message of tens of megabytes.
  for (let from = 0; from < items.length; from += 10_000)
    stored = await seedGuestItems(page, items.slice(from, from + 10_000), items.length);
  await seedGuestCounts(page, items);
  await page.close();
  return stored;
}

/** What one count of the whole items store and of one index of it costs (the app counts at open). */
async function countCost(context: BrowserContext, url: string): Promise<{ store: number; index: number }> {
  const page = await context.newPage();
  await page.goto(`${url}/no-such-page`, { waitUntil: 'networkidle' });
  // No named functions inside: the bundler would wrap them in a helper the page does not have.
  const [store = NaN, index = NaN] = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('Outpost');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const out: number[] = [];
    for (const name of [null, '[_scope+status+_sk]']) {
      const started = performance.now();
      await new Promise((resolve, reject) => {
        const items = db.transaction('items').objectStore('items');
        const request = name === null ? items.count() : items.index(name).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      out.push(performance.now() - started);
    }
    db.close();
    return out;
  });
  const cost = { store, index };
  await page.close();
  return cost;
}

export async function run(args: string[] = []): Promise<void> {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 3;
  const dirAt = args.indexOf('--client-dir');
  const clientDir = dirAt >= 0 ? args[dirAt + 1] : undefined;
  const screensAt = args.indexOf('--screens');
  const wanted = screensAt >= 0 ? (args[screensAt + 1] ?? '').toLowerCase().split(',') : null;
  const screens = SCREENS.filter((s) => !wanted || wanted.some((w) => s.name.toLowerCase().startsWith(w)));
  const subject = 'list screens, 10k vs 100k';
  if (!chromiumAvailable()) {
    skip(subject, `no Chromium at ${chromiumPath}`);
    return;
  }
  const server = await startAppServer(120_000, clientDir ? { clientDir } : {});
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const profiles = new Map<number, BrowserContext>();
    for (const size of SIZES) {
      // A fresh profile per size; service workers blocked: the figure is the app's own render.
      const context = await firstRowContext(browser, { width: 412, height: 915 }, ROW);
      const stored = await seed(context, server.url, guestTree(size));
      info(subject, `seeded (${size})`, `${stored.toLocaleString('en-US')} items`);
      if (!clientDir) {
        const cost = await countCost(context, server.url);
        info(
          subject,
          `count, store / an index (${size})`,
          `${cost.store.toFixed(0)} / ${cost.index.toFixed(0)} ms`,
        );
      }
      profiles.set(size, context);
    }
    heading(`First row of each list screen, ${runs} rounds, 10k and 100k alternating (${server.url})`);
    const times = new Map<string, number[]>();
    for (let round = 0; round < runs; round++) {
      for (const size of SIZES) {
        const page = await profiles.get(size)!.newPage();
        // Unmeasured: the first load of a fresh page fetches and compiles the app's chunks (on a page that
        // reads no items: Preferences' storage line reads them all, and the next page would wait for it).
        await page.goto(`${server.url}/no-such-page`);
        await page.waitForLoadState('networkidle');
        for (const screen of screens) {
          await page.goto(`${server.url}${screen.path}`);
          await page.waitForSelector(ROW, { timeout: 30_000 });
          const firstRow = await page.evaluate(
            () => (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? NaN,
          );
          const key = `${screen.name}@${size}`;
          times.set(key, [...(times.get(key) ?? []), firstRow]);
          await page.waitForTimeout(300);
        }
        await page.close();
      }
    }
    for (const screen of screens) {
      const smallRuns = times.get(`${screen.name}@${SIZES[0]}`) ?? [];
      const largeRuns = times.get(`${screen.name}@${SIZES[1]}`) ?? [];
      const small = median(smallRuns);
      const large = median(largeRuns);
      const each = (runs: number[]) => runs.map((t) => t.toFixed(0)).join(', ');
      info(screen.name, 'first row at 10k (median)', `${small.toFixed(0)} ms`);
      info(screen.name, 'each round, 10k | 100k', `${each(smallRuns)} | ${each(largeRuns)} ms`);
      check({
        subject: screen.name,
        metric: 'first row at 100k (median)',
        value: `${large.toFixed(0)} ms`,
        budget: `< ${FIRST_ROW_BUDGET_MS} ms`,
        ok: large < FIRST_ROW_BUDGET_MS,
      });
      check({
        subject: screen.name,
        metric: '100k / 10k',
        value: `${(large / small).toFixed(2)}×`,
        budget: `≤ ${RATIO_BUDGET}×`,
        ok: large / small <= RATIO_BUDGET,
      });
    }
    for (const context of profiles.values()) await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
