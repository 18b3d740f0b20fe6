import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { Outpost } from './Outpost';

/**
 * Campaigns, tasks and todos built through the UI as a guest, and the detail pages' parts (status
 * button, progress block, confirm dialogs) that the bulk and layout specs read.
 */
export class Trees extends Outpost {
  /** A guest on Home with light or dark theme and no motion, ready to add items. */
  static async guest(page: Page, theme: 'light' | 'dark' = 'light'): Promise<Trees> {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
    const app = new Trees(page);
    await app.skipOnboarding();
    await app.presetTheme(theme);
    await app.goto('/');
    await expect(app.heading('Home')).toBeVisible();
    return app;
  }

  /** Opens an item's detail page from its row's title link. */
  async open(title: string) {
    await this.row(title).getByRole('link', { name: title, exact: true }).click();
    await expect(this.heading(title)).toBeVisible();
  }

  /** The detail page's Start / Complete / Reopen button. */
  statusButton(label: 'Start' | 'Complete' | 'Reopen'): Locator {
    return this.main.locator('header').getByRole('button', { name: label, exact: true });
  }

  /** The 'Status: …' fact on a detail page. */
  statusFact(): Locator {
    return this.main.getByText('Status:', { exact: true }).locator('..');
  }

  /** The detail page's progress block ('N of M done', percent, bar). */
  progress(): Locator {
    return this.main.getByRole('region', { name: 'Progress' });
  }

  async expectProgress(done: number, total: number) {
    const percent = Math.round((done / total) * 100);
    await expect(this.progress()).toContainText(`${done} of ${total} done`);
    await expect(this.progress()).toContainText(`${percent}%`);
  }

  /** The confirm dialog (a Radix AlertDialog) by its title. */
  alert(name: string | RegExp): Locator {
    return this.page.getByRole('alertdialog', { name });
  }

  /** Marks a todo row done with its status icon. */
  async tickTodo(title: string) {
    const row = this.row(title);
    await row.getByRole('button', { name: `Mark as done: ${title}` }).click();
    await expect(row.getByRole('button', { name: `Mark as not done: ${title}` })).toBeVisible();
  }

  /** Titles of the rows on screen, top to bottom. */
  async rowTitles(titles: readonly string[]): Promise<string[]> {
    // A row not drawn yet has no box and would sort first: wait until every one is on screen.
    for (const t of titles) await expect(this.row(t)).toBeVisible();
    const boxes = await Promise.all(
      titles.map(async (t) => ({ t, y: (await this.row(t).boundingBox())?.y })),
    );
    return boxes.sort((a, b) => (a.y ?? 0) - (b.y ?? 0)).map((b) => b.t);
  }

  /** The page never scrolls sideways. */
  async expectNoSideScroll(where: string) {
    const { scroll, inner } = await this.page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(scroll, `${where}: scrollWidth ${scroll} > innerWidth ${inner}`).toBeLessThanOrEqual(inner);
  }

  /** A locator's box lies inside the viewport. */
  async expectInViewport(locator: Locator, what: string) {
    // Measured once its entrance has ended: a dialog zooming in measured x = -158 mid-animation.
    await locator.evaluate((el) =>
      Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
    );
    const box = await locator.boundingBox();
    const size = this.page.viewportSize();
    expect(box, what).not.toBeNull();
    if (!box || !size) return;
    expect(box.x, `${what} left`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${what} right`).toBeLessThanOrEqual(size.width + 0.5);
  }

  /** Screenshot plus axe: fails on serious or critical violations. */
  async shotAndAxe(testInfo: TestInfo, name: string) {
    const violations = await this.captureScreen(testInfo, name);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  }
}
