import { expect, type Locator, type Page } from '@playwright/test';
import type { Outpost } from './Outpost';

/** The timer and the time report, as a person reaches them (issue 53). */
export class Time {
  readonly header: Locator;

  constructor(
    readonly app: Outpost,
    readonly page: Page = app.page,
  ) {
    this.header = page.locator('header [data-running-timer]').filter({ visible: true });
  }

  /** Starts the timer from a row: hover shows the button (keyboard focus would too). */
  async startOnRow(title: string) {
    const row = this.app.row(title);
    await row.hover();
    await row.getByRole('button', { name: `Start timer on ${title}` }).click();
    await expect(row.getByRole('button', { name: `Stop timer on ${title}` })).toBeVisible();
  }

  /** The header's running timer shows this item. */
  async expectRunning(title: string) {
    await expect(this.header).toBeVisible({ timeout: 15_000 });
    await expect(this.header.getByRole('button', { name: `Stop timer on ${title}` })).toBeVisible();
  }

  async expectNoneRunning() {
    await expect(this.page.locator('header [data-running-timer]')).toHaveCount(0, { timeout: 15_000 });
  }

  async stopInHeader(title: string) {
    await this.header.getByRole('button', { name: `Stop timer on ${title}` }).click();
  }

  /** Adds a finished entry on the item's page open now. */
  async addOnPage(day: string, from: string, to: string, note: string) {
    await this.page.getByRole('button', { name: 'Add time' }).click();
    const form = this.page.getByRole('form', { name: 'Add time entry' });
    await form.getByLabel('Day').fill(day);
    await form.getByLabel('From').fill(from);
    await form.getByLabel('To').fill(to);
    await form.getByLabel('Note').fill(note);
    await form.getByRole('button', { name: 'Add entry' }).click();
    await expect(form).toHaveCount(0);
  }
}
