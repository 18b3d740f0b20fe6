/**
 * `npm run bench -- board [--runs N] [--client-dir DIR]`: issue 33's board budget, a campaign board of
 * 2,000 cards opens to its first card within 1.3× a board of 200, in headless Chromium on the real
 * server with the built app. One guest profile is seeded once straight into the app's IndexedDB (as
 * list-screens seeds, bench/listScreens.ts): 10,000 items, among them a campaign of 20 tasks with 9 todos
 * each (200 cards) and one of 200 tasks with 9 todos each (2,000 cards), every list keyed in manual
 * order, a third done and one in ten active. Each round opens a fresh page and then each board's tab
 * (`/campaigns/ID?tab=board`), 200 then 2,000 (A B A B …), timed from navigation start to its first
 * card in the DOM; the figure is the median of the per-round ratios with their spread (min–max).
 * `--runs N` sets the rounds (5); `--client-dir DIR` serves another build of the client.
 */

import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import type { ItemStatus, ItemType } from '../src/shared/item';
import { keysAfter } from '../src/shared/sortKey';
import { type LocalItem, listKeysOf, topFlagsFromScratch } from './lib/appData';
import { startAppServer } from './lib/appServer';
import { firstRowContext } from './lib/firstRow';
import { guestRow } from './lib/guestSeed';
import { check, info, printAlternatingSummary, skip } from './lib/report';
import { median } from './lib/stats';
import { seed } from './listScreens';

const CARD = '[data-card-id]';
const RATIO_BUDGET = 1.3;
const TOTAL = 10_000;
/** The two boards: tasks under the campaign, each with TODOS_PER_TASK todos. */
const SMALL = { tasks: 20, cards: 200 } as const;
const BIG = { tasks: 200, cards: 2_000 } as const;
const TODOS_PER_TASK = 9;

/** A guest's rows: the two boards' campaigns first (ids 1 and 2), then other campaigns to TOTAL. */
function guestBoards(): LocalItem[] {
  const rows: LocalItem[] = [];
  const add = (type: ItemType, parent: number | null): number => {
    const id = rows.length + 1;
    const status: ItemStatus =
      type === 'campaign'
        ? 'pending'
        : id % 3 === 0
          ? 'completed'
          : id % 10 === 1
            ? 'in_progress'
            : 'pending';
    const row = guestRow(id, type, parent, { status, due_date: id % 10 === 0 ? '2026-12-01' : null });
    rows.push(status === 'completed' ? { ...row, completed_at: row.created_at } : row);
    return id;
  };
  const campaign = (tasks: number) => {
    const id = add('campaign', null);
    for (let t = 0; t < tasks; t++) {
      const task = add('task', id);
      for (let d = 0; d < TODOS_PER_TASK; d++) add('todo', task);
    }
    return id;
  };
  const small = campaign(SMALL.tasks);
  const big = campaign(BIG.tasks);
  if (small !== 1 || big !== SMALL.cards + 2)
    throw new Error('the boards are not where the bench opens them');
  while (rows.length + 1 + 9 * (1 + TODOS_PER_TASK) <= TOTAL) campaign(9);
  // Every list in manual order, as the app keys new items (one key after the last sibling's).
  const byParent = new Map<number | null, LocalItem[]>();
  for (const r of rows) byParent.set(r.parent_id, [...(byParent.get(r.parent_id) ?? []), r]);
  for (const siblings of byParent.values()) {
    const keys = keysAfter(null, siblings.length);
    siblings.forEach((r, i) => {
      r.sort_key = keys[i]!;
    });
  }
  const flags = topFlagsFromScratch(rows);
  return rows.map((r) => ({ ...r, ...flags.get(r.id), ...listKeysOf(r) }));
}

export async function run(args: string[] = []): Promise<void> {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 5;
  const dirAt = args.indexOf('--client-dir');
  const clientDir = dirAt >= 0 ? args[dirAt + 1] : undefined;
  const subject = `board of ${BIG.cards.toLocaleString('en-US')} vs ${SMALL.cards} cards, first card`;
  if (!chromiumAvailable()) {
    skip(subject, `no Chromium at ${chromiumPath}`);
    return;
  }
  const started = Date.now();
  const load0 = loadavg();
  const server = await startAppServer(120_000, clientDir ? { clientDir } : {});
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const small: number[] = [];
  const big: number[] = [];
  try {
    // Service workers blocked: the figure is the app's own render. A desktop viewport: three columns.
    const context = await firstRowContext(browser, { width: 1280, height: 900 }, CARD);
    const rows = guestBoards();
    const stored = await seed(context, server.url, rows);
    info(subject, 'seeded', `${stored.toLocaleString('en-US')} items`);
    const open = async (page: import('playwright-core').Page, campaign: number, cards: number) => {
      await page.goto(`${server.url}/campaigns/${campaign}?tab=board`);
      await page.waitForSelector(CARD, { timeout: 60_000 });
      const first = await page.evaluate(
        () => (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? NaN,
      );
      // Every card is on the board (the columns' counts), so the figure is a whole board's read.
      const counted = await page
        .locator('[data-column] h3 > span:nth-child(2)')
        .evaluateAll((badges) => badges.reduce((n, b) => n + Number.parseInt(b.textContent ?? '0', 10), 0));
      if (counted !== cards) throw new Error(`the board counts ${counted} cards, not ${cards}`);
      await page.waitForTimeout(300);
      return first;
    };
    for (let round = 0; round < runs; round++) {
      const page = await context.newPage();
      // Unmeasured: the first load of a fresh page fetches and compiles the app's chunks, the board's too.
      await page.goto(`${server.url}/no-such-page`);
      await page.waitForLoadState('networkidle');
      await open(page, 1, SMALL.cards);
      small.push(await open(page, 1, SMALL.cards));
      big.push(await open(page, SMALL.cards + 2, BIG.cards));
      console.log(
        `  round ${round + 1}: ${SMALL.cards} cards ${small.at(-1)!.toFixed(0)} ms, ${BIG.cards} cards ${big.at(-1)!.toFixed(0)} ms`,
      );
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  const ratios = big.map((b, i) => b / small[i]!);
  const ratio = median(ratios);
  const value = `${ratio.toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`;
  info(subject, `${SMALL.cards} cards (median)`, `${median(small).toFixed(0)} ms`);
  info(subject, `${BIG.cards} cards (median)`, `${median(big).toFixed(0)} ms`);
  const ok = check({
    subject,
    metric: `ratio (${ratios.length} rounds)`,
    value,
    budget: `≤ ${RATIO_BUDGET}×`,
    ok: ratio <= RATIO_BUDGET,
  });
  printAlternatingSummary(
    `board, medians (${SMALL.cards} and ${BIG.cards} cards alternated in one page; ratio = median of per-round ${BIG.cards}/${SMALL.cards}, min–max)`,
    [
      [
        'board opens to its first card',
        `${median(big).toFixed(0)} ms`,
        `${median(small).toFixed(0)} ms`,
        value,
        `≤ ${RATIO_BUDGET}×`,
        ok ? 'PASS' : 'FAIL',
      ],
    ],
    load0,
    started,
  );
}
