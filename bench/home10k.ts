/**
 * `npm run bench -- home-10k`: Home with 10,000 local guest items, in headless Chromium on the real
 * server. The rows are written straight into the app's IndexedDB (`Outpost`, store `items`) in the
 * shape of src/client/data/store/types.ts LocalItem, as a guest's own items (user 0, `_syncStatus: 'local'`);
 * then Home is opened again and timed from navigation start to the first item row on screen, and
 * the item rows in the DOM are counted once the screen has settled.
 * Budgets: first row under 1 s, fewer than 100 rows in the DOM.
 */
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import type { ItemType } from '../src/shared/item';
import { type LocalItem, listKeysOf } from './lib/appData';
import { startAppServer } from './lib/appServer';
import { firstRowContext } from './lib/firstRow';
import { seedGuestCounts, seedGuestItems } from './lib/guestSeed';
import { check, heading, info, skip } from './lib/report';
import { median } from './lib/stats';

const ITEMS = 10_000;
const RUNS = 3;
const FIRST_ROW_BUDGET_MS = 1000;
const ROWS_BUDGET = 100;
const ROW = '[data-item-id]';

/** Guest items (ids first+1..count): a third each of campaigns, tasks and todos, every fourth one completed. */
function guestItems(count: number, first = 0): LocalItem[] {
  const types: ItemType[] = ['campaign', 'task', 'todo'];
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  return Array.from({ length: count - first }, (_, offset): LocalItem => {
    const index = first + offset;
    const id = index + 1;
    const at = new Date(start + id * 60_000).toISOString();
    const guest = { id: 0, name: 'Guest User', phone: '', created_at: at, updated_at: at };
    const completed = id % 4 === 0;
    const row = {
      id,
      uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
      title: `Bench item ${id}`,
      description: id % 5 === 0 ? `Details for item ${id}` : null,
      type: types[index % 3] ?? 'todo',
      status: completed ? 'completed' : 'pending',
      user_id: 0,
      assigned_to: null,
      parent_id: null,
      due_date: null,
      end_date: null,
      remind_at: null,
      created_at: at,
      updated_at: at,
      completed_at: completed ? at : null,
      deleted_at: null,
      version: 1,
      created_by: guest,
      user: guest,
      assignedUser: null,
      parent: null,
      children_count: 0,
      completed_count: 0,
      _syncStatus: 'local',
      _deleted: 0,
      _localVersion: 1,
      _conflict: null,
      _dirty: [],
      _base: null,
      _remote: null,
      // As the app stores them (store/topFlags.ts): with the flag, the first open does not repair 100,000 rows.
      _top: 1,
      _stop: 1,
    } satisfies LocalItem;
    // And the list keys (listKeys.ts), or the first open would compute them for every row.
    return { ...row, ...listKeysOf(row) };
  });
}

/** `--items N` seeds N items instead of 10,000 (bench/home100k.ts passes 100,000). */
export async function run(args: string[] = []): Promise<void> {
  const at = args.indexOf('--items');
  const count = at >= 0 ? Number(args[at + 1]) : ITEMS;
  const subject = `Home, ${count.toLocaleString('en-US')} items`;
  if (!chromiumAvailable()) {
    skip(subject, `no Chromium at ${chromiumPath}`);
    return;
  }
  const server = await startAppServer();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    // Service workers blocked: the figure is the app's own render, not a cache warming in between.
    const context = await firstRowContext(browser, { width: 412, height: 915 }, ROW);
    const page = await context.newPage();
    // The first visit lets the app create its database (Dexie, version 1) before the rows go in.
    await page.goto(server.url, { waitUntil: 'networkidle' });
    // In slices: one evaluate of 100,000 rows would be a single message of tens of megabytes.
    let seeded = 0;
    for (let from = 0; from < count; from += 10_000) {
      seeded = await seedGuestItems(page, guestItems(Math.min(count, from + 10_000), from), count);
    }
    await seedGuestCounts(page, guestItems(count));
    heading(`Home with ${seeded.toLocaleString('en-US')} local items (${server.url}/)`);

    const firstRow: number[] = [];
    const wall: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const started = Date.now();
      await page.goto(server.url);
      await page.waitForSelector(ROW, { timeout: 30_000 });
      wall.push(Date.now() - started);
      firstRow.push(
        await page.evaluate(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? NaN),
      );
      // Settled: live queries answered and any list growth done.
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
      rows = Math.max(rows, await page.locator(ROW).count());
    }
    info(subject, 'runs', String(RUNS));
    info(subject, 'goto→row (wall)', `${median(wall).toFixed(0)} ms`);
    check({
      subject,
      metric: 'first row (median)',
      value: `${median(firstRow).toFixed(0)} ms`,
      budget: `< ${FIRST_ROW_BUDGET_MS} ms`,
      ok: median(firstRow) < FIRST_ROW_BUDGET_MS,
    });
    check({
      subject,
      metric: 'item rows in DOM',
      value: String(rows),
      budget: `< ${ROWS_BUDGET}`,
      ok: rows > 0 && rows < ROWS_BUDGET,
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
