import { randomUUID } from 'node:crypto';
import type { CDPSession, Locator, Page } from '@playwright/test';
import type { Outpost } from './Outpost';

/** A task for the timeline, with its dates (YYYY-MM-DD). */
export interface PlannedTask {
  title: string;
  start_date: string;
  due_date: string;
}

/** The Timeline (issue 53), and a bar moved on it by mouse or by finger. */
export class Timeline {
  readonly announcement: Locator;
  private cdp: CDPSession | null = null;

  constructor(
    readonly app: Outpost,
    readonly page: Page = app.page,
  ) {
    this.announcement = page.getByTestId('timeline-announcement');
  }

  /** Gives the device a campaign holding `tasks` (one import, Outpost.importItems); ends on /preferences. */
  async importCampaign(title: string, tasks: readonly PlannedTask[]) {
    const campaign = randomUUID();
    await this.app.importItems([
      { uuid: campaign, parent_uuid: null, type: 'campaign', title, status: 'pending' },
      ...tasks.map((t) => ({
        uuid: randomUUID(),
        parent_uuid: campaign,
        type: 'task',
        status: 'pending',
        ...t,
      })),
    ]);
  }

  /** The bar (or diamond) of the task titled `title`. */
  bar(title: string): Locator {
    return this.page.locator(`[data-bar][aria-label^="${title}, "]`);
  }

  /** The middle of `target` on screen, scrolled into view first. */
  private async middle(target: Locator) {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error('the bar is not on screen');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  /** Presses the mouse on `target`'s middle, moves it by (dx, dy) in steps, and lets go. */
  async dragByMouse(target: Locator, dx: number, dy = 0) {
    const { x, y } = await this.middle(target);
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx, y + dy, { steps: 12 });
    await this.page.mouse.up();
  }

  /**
   * Puts one finger on `target`'s middle, slides it by (dx, dy) in steps and lifts it, through the
   * browser's own touch input (the DevTools protocol), so touch-action and scrolling decide as on a
   * phone.
   */
  async dragByTouch(target: Locator, dx: number, dy = 0) {
    const { x, y } = await this.middle(target);
    this.cdp ??= await this.page.context().newCDPSession(this.page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', px: number, py: number) =>
      this.cdp!.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: Math.round(px), y: Math.round(py), id: 1 }],
      });
    await touch('touchStart', x, y);
    const steps = 12;
    for (let i = 1; i <= steps; i++) {
      await touch('touchMove', x + (dx * i) / steps, y + (dy * i) / steps);
      await this.page.waitForTimeout(16);
    }
    await touch('touchEnd', x + dx, y + dy);
  }

  /** How far down everything on the page is scrolled, added up (the window and any inner scroller). */
  async scrolledDown(): Promise<number> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('*')].reduce((sum, el) => sum + el.scrollTop, 0),
    );
  }
}
