import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { savePicture } from './lib/pictures';
import { freshPhone, Outpost, serverItems, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

// Issue 33: manual order (ARCHITECTURE §5 'Order', SYNC.md O1–O3) and a campaign's Board.

const SHOTS = 'test-results/screenshots/order';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function signedInDevice(page: Page, phone: string): Promise<Outpost> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(phone, 'Orderer');
  await app.expectHomeAfterSignIn();
  return app;
}

/** The campaign page's contents list. */
const contents = (app: Outpost) => app.main.getByRole('list', { name: /^Contents of / });

/** The titles of `titles` in the order the contents list shows them. */
async function shownOrder(list: Locator, titles: readonly string[]): Promise<string[]> {
  const rows = await list.locator('[data-item-id]').allInnerTexts();
  return rows.map((text) => titles.find((t) => text.includes(t)) ?? '?');
}

/** Drags `from` by the mouse onto `to`, in small steps so the sensors and the sorting follow. */
async function dragTo(page: Page, from: Locator, to: Locator, before?: (page: Page) => Promise<void>) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 8, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.waitForTimeout(150);
  if (before) await before(page);
  await page.mouse.up();
}

async function shoot(page: Page, name: string) {
  await savePicture(page, { path: `${SHOTS}/${name}.png` });
}

test('O2, O3: reorder by keyboard and pointer, reload, then two offline devices reorder and agree; a card dragged to Done is completed', async ({
  page,
  context,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(240_000);
  const phone = freshPhone();
  const a = await signedInDevice(page, phone);
  const campaign = uniqueTitle('Trip');
  const [one, two, three] = [uniqueTitle('Tickets'), uniqueTitle('Hotel'), uniqueTitle('Bags')];
  const titles = [one, two, three];

  await test.step('a campaign with three tasks, in the order they were added', async () => {
    await a.quickAdd('campaign', campaign);
    await a.row(campaign).getByRole('link', { name: campaign }).click();
    await expect(a.heading(campaign)).toBeVisible();
    for (const title of titles) await a.quickAdd('task', title);
    await expect.poll(() => shownOrder(contents(a), titles)).toEqual([one, two, three]);
    // Synced first: a row lifted while its local id swaps for the server's is lost to the drag.
    await expect(contents(a).locator('[data-item-id^="-"]')).toHaveCount(0, { timeout: 15_000 });
  });

  await test.step('keyboard: Space lifts Bags, ArrowUp twice, Space drops it first', async () => {
    const handle = contents(a).getByRole('button', { name: `Move “${three}”` });
    // Lifted once the row says it is dragging (the quick-add card may still be settling at first).
    await expect(async () => {
      await handle.focus();
      await page.keyboard.press('Space');
      await expect(contents(a).locator('li[data-dragging="true"]')).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    // The sensor measures the rows after the lift: a person's pace, not a burst.
    for (const key of ['ArrowUp', 'ArrowUp', 'Space']) {
      await page.waitForTimeout(600);
      await page.keyboard.press(key);
    }
    await expect.poll(() => shownOrder(contents(a), titles)).toEqual([three, one, two]);
    await expect(a.toast('Task moved')).toBeVisible();
    // Alt+↓ on a focused row moves it one place down.
    await a.row(three).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => shownOrder(contents(a), titles)).toEqual([one, three, two]);
    await expect(a.row(three)).toBeFocused();
  });

  await test.step('pointer: Hotel dragged by its grip to the top, with pictures mid-drag', async () => {
    const grip = contents(a).getByRole('button', { name: `Move “${two}”` });
    const top = contents(a).getByRole('button', { name: `Move “${one}”` });
    await dragTo(page, grip, top, async (p) => {
      await shoot(p, 'list-mid-drag-desktop-light');
      await p.emulateMedia({ colorScheme: 'dark' });
      await shoot(p, 'list-mid-drag-desktop-dark');
      await p.emulateMedia({ colorScheme: 'light' });
    });
    await expect.poll(() => shownOrder(contents(a), titles)).toEqual([two, one, three]);
  });

  await test.step('reload: the same order', async () => {
    await page.reload();
    await expect.poll(() => shownOrder(contents(a), titles)).toEqual([two, one, three]);
  });

  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  const contextB: BrowserContext = await browser.newContext({
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    baseURL,
  });
  try {
    const b = await signedInDevice(await contextB.newPage(), phone);
    const campaignUrl = page.url();
    await b.page.goto(campaignUrl);
    await expect.poll(() => shownOrder(contents(b), titles)).toEqual([two, one, three]);

    await test.step('both offline: A puts Bags first, B puts Hotel last; online, both show the server’s order', async () => {
      await a.waitForOfflineReady();
      await b.waitForOfflineReady();
      await context.setOffline(true);
      await contextB.setOffline(true);
      await a.row(three).focus();
      // Each move is stored before the next key reads the list again.
      await a.page.keyboard.press('Alt+ArrowUp');
      await expect.poll(() => shownOrder(contents(a), titles)).toEqual([two, three, one]);
      await a.page.keyboard.press('Alt+ArrowUp');
      await expect.poll(() => shownOrder(contents(a), titles)).toEqual([three, two, one]);
      await b.row(two).focus();
      await b.page.keyboard.press('Alt+ArrowDown');
      await expect.poll(() => shownOrder(contents(b), titles)).toEqual([one, two, three]);
      await b.page.keyboard.press('Alt+ArrowDown');
      await expect.poll(() => shownOrder(contents(b), titles)).toEqual([one, three, two]);
      await contextB.setOffline(false);
      await context.setOffline(false);
      const serverOrder = async () => {
        const rows = (await serverItems(page.request, 'type=task')) as { title: string; sort_key?: string }[];
        const key = (r: { sort_key?: string }) => r.sort_key ?? '';
        return rows
          .filter((r) => titles.includes(r.title))
          .sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0))
          .map((r) => r.title);
      };
      // Bags first (A's move), Hotel after Tickets (B's move): nobody moved either again.
      await expect.poll(serverOrder, { timeout: 20_000 }).toEqual([three, one, two]);
      await expect
        .poll(() => shownOrder(contents(a), titles), { timeout: 20_000 })
        .toEqual([three, one, two]);
      await expect
        .poll(() => shownOrder(contents(b), titles), { timeout: 20_000 })
        .toEqual([three, one, two]);
    });
  } finally {
    await contextB.close();
  }

  await test.step('board: Hotel dragged to Done is completed, the toast says so', async () => {
    await a.main.getByRole('tab', { name: 'Board' }).click();
    const column = (name: string) =>
      a.main.locator('[data-column]').filter({ has: page.getByRole('heading', { name }) });
    const done = a.main.locator('[data-column="completed"]');
    await expect(a.main.locator('[data-column="pending"] [data-card-id]')).toHaveCount(3);
    await page.mouse.wheel(0, 600);
    await a.main.getByRole('region', { name: 'Board' }).scrollIntoViewIfNeeded();
    await shoot(page, 'board-desktop-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'board-desktop-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // Held under the next card: the line shows the place; Escape puts it back.
    const grip = (await a.main.locator('[data-column="pending"] [data-drag-handle]').first().boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 + 70, { steps: 8 });
    await expect(a.main.locator('[data-column="pending"] [data-drop-line]')).toBeVisible();
    await shoot(page, 'board-line-desktop-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'board-line-desktop-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await page.mouse.up();
    await expect(a.main.locator('[data-drop-line]')).toHaveCount(0);
    await dragTo(
      page,
      a.main.getByRole('button', { name: `Move “${two}”` }),
      done.getByRole('heading'),
      (p) => shoot(p, 'board-mid-drag-desktop-light'),
    );
    await expect(a.toast('Task moved to Done')).toBeVisible();
    await expect(done.getByText(two)).toBeVisible();
    await expect(column('Done')).toContainText('1');
    await expect
      .poll(async () => (await serverItems(page.request, 'type=task')).find((i) => i.title === two)?.status, {
        timeout: 15_000,
      })
      .toBe('completed');
    expect(await a.seriousA11yViolations()).toEqual([]);
    await page.setViewportSize(PHONE);
    await shoot(page, 'board-phone-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'board-phone-dark');
    await a.main.getByRole('tab', { name: 'Contents' }).click();
    await shoot(page, 'list-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shoot(page, 'list-phone-light');
    await page.setViewportSize(DESKTOP);
  });

  await test.step('O7: a todo dropped onto the middle of a task goes into it, the toast says where', async () => {
    const passport = uniqueTitle('Passport');
    await a.quickAdd('todo', passport);
    const grip = contents(a).getByRole('button', { name: `Move “${passport}”` });
    // Straight up by the grips, as a person drags, to the middle of the task's row.
    const target = contents(a).getByRole('button', { name: `Move “${one}”` });
    // Pictured at phone size first, that drag cancelled with Escape; then the drop at desktop size.
    await page.setViewportSize(PHONE);
    // The quick add's card settles (it keeps its place until focus leaves it) before the grip is read.
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await grip.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await dragTo(page, grip, target, async (p) => {
      await expect(contents(a).locator('li[data-drop-into="true"]')).toContainText(one);
      await shoot(p, 'drop-into-phone-light');
      await p.emulateMedia({ colorScheme: 'dark' });
      await shoot(p, 'drop-into-phone-dark');
      await p.emulateMedia({ colorScheme: 'light' });
      await p.keyboard.press('Escape');
    });
    await expect(a.row(passport)).toBeVisible();
    await page.setViewportSize(DESKTOP);
    await grip.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await dragTo(page, grip, target, async (p) => {
      await expect(contents(a).locator('li[data-drop-into="true"]')).toContainText(one);
      await shoot(p, 'drop-into-desktop-light');
      await p.emulateMedia({ colorScheme: 'dark' });
      await shoot(p, 'drop-into-desktop-dark');
      await p.emulateMedia({ colorScheme: 'light' });
    });
    await expect(a.toast(`Moved to “${one}”`)).toBeVisible();
    await expect(a.row(passport)).toHaveCount(0);
    const tickets = (await serverItems(page.request, 'type=task')).find((i) => i.title === one);
    await expect
      .poll(
        async () =>
          (await serverItems(page.request, 'type=todo')).find((i) => i.title === passport)?.parent_id,
        {
          timeout: 15_000,
        },
      )
      .toBe(tickets?.id);
  });
});
