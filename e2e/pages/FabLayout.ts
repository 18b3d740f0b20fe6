import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The phone's floating add button and what must never lie under it (issue 62): each control is
 * scrolled to the button's height, where a control in its column would be covered, and must then be
 * clear of it and be what a finger on its middle touches.
 */
export class FabLayout {
  constructor(readonly page: Page) {}

  get fab(): Locator {
    return this.page.getByRole('button', { name: 'Create new item' });
  }

  async expectClearOfFab(control: Locator, what: string) {
    await expect(this.fab).toBeVisible();
    await control.scrollIntoViewIfNeeded();
    const fab = (await this.fab.boundingBox())!;
    const before = (await control.boundingBox())!;
    await this.page.evaluate(
      (dy) => window.scrollBy(0, dy),
      before.y + before.height / 2 - (fab.y + fab.height / 2),
    );
    const box = (await control.boundingBox())!;
    // Outside the button's column it is clear at every scroll position, whatever the page holds.
    expect(
      box.x + box.width <= fab.x || fab.x + fab.width <= box.x,
      `${what} (${JSON.stringify(box)}) is in the add button's column (${JSON.stringify(fab)})`,
    ).toBe(true);
    const apart =
      box.x + box.width <= fab.x ||
      fab.x + fab.width <= box.x ||
      box.y + box.height <= fab.y ||
      fab.y + fab.height <= box.y;
    expect(apart, `${what} (${JSON.stringify(box)}) lies under the add button (${JSON.stringify(fab)})`).toBe(
      true,
    );
    const touched = await control.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit !== null && el.contains(hit);
    });
    expect(touched, `a finger on ${what} touches it`).toBe(true);
  }
}
