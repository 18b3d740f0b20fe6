/**
 * `npm run bench -- timeline [--runs N]`: issue 31's budget, a task page with 500 comments and 500
 * history entries opens to its first timeline row within 1.2× of the same page with none, in headless
 * Chromium on the real server (PGlite) with the built app. One account is seeded straight into the
 * database (seedAccount: a campaign of tasks), then one task gets 500 comments and 500 title changes,
 * interleaved a minute apart; a sibling task gets neither. The device signs in once and pulls. Each
 * round opens a fresh page, then each task's page (`/tasks/ID`), empty then full (A B A B …), timed
 * from navigation start until its timeline shows: the first row (a change or a comment) on the full
 * page, 'No comments yet.' on the empty one; both wait for the same reads (the item's comments, a
 * page of history). The figure is the median of the per-round ratios with their spread (min–max),
 * beside how many timeline rows the full page had in the DOM (the window), and how many pages of
 * comments scrolling to the end asked the server for (none once comments are device data, 9897d88).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { openDatabase, rows, sql } from '../src/server/db/client';
import { seedAccount } from '../testkit/seedAccount';
import { startAppServer } from './lib/appServer';
import { firstRowContext } from './lib/firstRow';
import { check, info, printAlternatingSummary, skip } from './lib/report';
import { median } from './lib/stats';

const PHONE = '+15555550331';
const NAME = 'Timeline Bench';
const COMMENTS = 500;
const CHANGES = 500;
const RATIO_BUDGET = 1.2;
/** The timeline is shown: a row of it, or the empty timeline's line. */
const READY = '[data-history], [data-comment], [data-timeline-empty]';

export async function run(args: string[] = []): Promise<void> {
  const subject = 'timeline';
  if (!chromiumAvailable()) {
    skip(subject, `no Chromium at ${chromiumPath}`);
    return;
  }
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 7;
  const load0 = loadavg();
  const started = Date.now();
  const work = await mkdtemp(path.join(tmpdir(), 'outpost-timeline-'));
  const dataDir = path.join(work, 'data');
  const database = await openDatabase({ dataDir });
  const seeded = await seedAccount(database.db, PHONE, NAME, 40);
  const tasks = await rows<{ id: number; parent_id: number }>(
    database.db,
    sql`SELECT id, parent_id FROM items WHERE user_id = ${seeded.userId} AND type = 'task' ORDER BY id LIMIT 2`,
  );
  const [full, empty] = tasks;
  if (!full || !empty) throw new Error('the seed made fewer than two tasks');
  await database.db.execute(sql`
    INSERT INTO comments (uuid, item_id, user_id, body, created_at, updated_at)
    SELECT gen_random_uuid(), ${full.id}, ${seeded.userId},
           'Comment ' || g || ': the ferry leaves at nine, who brings the bikes? See https://example.com/' || g,
           now() - make_interval(days => 10) + make_interval(mins => g),
           now() - make_interval(days => 10) + make_interval(mins => g)
    FROM generate_series(1, ${COMMENTS}) g`);
  await database.db.execute(sql`
    INSERT INTO activities (user_id, item_id, root_id, action, item_type, item_title, description, metadata, created_at)
    SELECT ${seeded.userId}, ${full.id}, ${full.parent_id}, 'updated', 'task', 'Task', 'changed the title',
           jsonb_build_object('title', jsonb_build_object('old', 'Title ' || g, 'new', 'Title ' || (g + 1))),
           now() - make_interval(days => 10) + make_interval(mins => g, secs => 30)
    FROM generate_series(1, ${CHANGES}) g`);
  await database.db.execute(
    sql`UPDATE items SET comments_count = ${COMMENTS}, change_xid = pg_current_xact_id()::text::bigint
        WHERE id = ${full.id}`,
  );
  await database.close();
  info(subject, 'seeded', `${seeded.items} items; task ${full.id}: ${COMMENTS} comments, ${CHANGES} changes`);

  const server = await startAppServer(180_000, {
    dataDir,
    env: {
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      RATE_LIMIT_LOGINS_PER_MINUTE: '0',
      RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '0',
    },
  });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const small: number[] = [];
  const big: number[] = [];
  const windowRows: number[] = [];
  try {
    // Service workers blocked: the figure is the app's own render. A phone's viewport, as the budget's.
    const context = await firstRowContext(browser, { width: 412, height: 915 }, READY);
    const login = await context.newPage();
    await login.goto(`${server.url}/login`);
    await login.locator('main').getByLabel('Phone number').fill(PHONE);
    await login.locator('main').getByLabel('Name').fill(NAME);
    await login.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await login.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 60_000 });
    // The device has pulled both tasks once they open from it.
    await login.goto(`${server.url}/tasks/${full.id}`);
    await login.waitForSelector('[data-comment]', { timeout: 120_000 });
    await login.close();

    const open = async (page: Page, taskId: number) => {
      await page.goto(`${server.url}/tasks/${taskId}`);
      await page.waitForSelector(READY, { timeout: 60_000 });
      const first = await page.evaluate(
        () => (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? Number.NaN,
      );
      await page.waitForTimeout(300);
      return first;
    };
    for (let round = 0; round < runs; round++) {
      const page = await context.newPage();
      // Unmeasured: the first load of a fresh page fetches and compiles the app's chunks, the timeline's too.
      await open(page, empty.id);
      small.push(await open(page, empty.id));
      big.push(await open(page, full.id));
      const rendered = await page.locator('[data-history], [data-comment]').count();
      windowRows.push(rendered);
      console.log(
        `  round ${round + 1}: none ${small.at(-1)!.toFixed(0)} ms, ${COMMENTS}+${CHANGES} ${big.at(-1)!.toFixed(0)} ms (${rendered} rows in the DOM)`,
      );
      await page.close();
    }
    // Scrolling to the end loads the next pages of comments, 50 at a time, while the DOM stays small.
    const page = await context.newPage();
    const commentPages: string[] = [];
    page.on('request', (request) => {
      if (/\/items\/\d+\/comments\?page=/.test(request.url())) commentPages.push(request.url());
    });
    await open(page, full.id);
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(120);
    }
    const pages = commentPages.length;
    const inDom = await page.locator('[data-history], [data-comment]').count();
    info(
      subject,
      'after scrolling down 40 times',
      `${pages} requests for a page of comments (0: they come from the device), ${inDom} rows in the DOM`,
    );
    await page.close();
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  const ratios = big.map((b, i) => b / small[i]!);
  const ratio = median(ratios);
  const value = `${ratio.toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`;
  info(subject, 'empty task (median)', `${median(small).toFixed(0)} ms`);
  info(subject, `${COMMENTS} comments + ${CHANGES} changes (median)`, `${median(big).toFixed(0)} ms`);
  info(subject, 'timeline rows in the DOM (full page)', `${median(windowRows)}`);
  const ok = check({
    subject,
    metric: `ratio (${ratios.length} rounds)`,
    value,
    budget: `≤ ${RATIO_BUDGET}×`,
    ok: ratio <= RATIO_BUDGET,
  });
  printAlternatingSummary(
    `timeline, medians (an empty task page and one with ${COMMENTS} comments + ${CHANGES} changes alternated; ratio = median of per-round full/empty, min–max)`,
    [
      [
        'task page opens to its first timeline row',
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
