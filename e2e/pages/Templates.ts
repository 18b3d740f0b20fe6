import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import type { A11yViolation } from './AppPage';
import { Collab } from './Collab';

/** Where this spec's pictures go, to be looked at after a run (test-results is emptied by every run). */
const SHOTS = '.tmp/shots';

/** An item as GET /api/items lists it (the fields the spec reads). */
export interface ServerItem {
  id: number;
  uuid: string;
  type: string;
  title: string;
  parent_id: number | null;
  start_date: string | null;
  due_date: string | null;
}

/** Templates on the device (issue 66): saving one from a campaign's menu, creating from one. */
export class Templates extends Collab {
  /** Signed in as a new user (as Collab.signedIn), motion reduced. */
  static async open(page: Page, phone: string, name: string): Promise<Templates> {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new Templates(page);
    await app.skipOnboarding();
    await app.signIn(phone, name);
    await app.expectHomeAfterSignIn();
    return app;
  }

  dialog(name: string): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** 'Save as template…' from the campaign page's menu, the dialog open with its name filled. */
  async openSaveFromCampaign(campaignTitle: string, name: string): Promise<Locator> {
    await this.main.getByRole('button', { name: `More actions for ${campaignTitle}` }).click();
    await this.page.getByRole('menuitem', { name: 'Save as template…' }).click();
    const dialog = this.dialog('Save as template');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Template name' }).fill(name);
    return dialog;
  }

  async save(dialog: Locator) {
    await dialog.getByRole('button', { name: 'Save template' }).click();
    await expect(dialog).toBeHidden();
  }

  /** 'New from template' on Home: the dialog with `template` chosen and its start date set. */
  async openNewFromTemplate(template: string, startsOn: string): Promise<Locator> {
    await this.main.getByRole('button', { name: 'New from template' }).first().click();
    const dialog = this.dialog('New from template');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: new RegExp(template) }).click();
    await dialog.getByLabel('Starts on').fill(startsOn);
    return dialog;
  }

  /** Presses Create; the toast says how many items were made. */
  async create(dialog: Locator, toast: string): Promise<Locator> {
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    const shown = this.page.getByText(toast);
    await expect(shown.first()).toBeVisible();
    return shown.first();
  }

  /** Every item the server lists for this user (one page is enough for a spec's few). */
  async serverItems(): Promise<ServerItem[]> {
    const res = await this.page.request.get('/api/items?per_page=100');
    expect(res.ok()).toBe(true);
    const body = (await res.json()) as { data: ServerItem[] };
    return body.data;
  }

  /** Serious and critical WCAG 2 A/AA findings inside the open dialog. */
  async dialogViolations(): Promise<A11yViolation[]> {
    const results = await new AxeBuilder({ page: this.page })
      .include('[role="dialog"]')
      .withTags(['wcag2a', 'wcag2aa'])
      .analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
  }

  /**
   * The screen at the phone's (390×844) and the desktop's (1280×800) size, light and dark, into
   * .tmp/shots/{name}-{size}-{theme}.png; axe checks the dialog in each.
   */
  async pictures(name: string) {
    await mkdir(SHOTS, { recursive: true });
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await this.page.setViewportSize(viewport);
      for (const theme of ['light', 'dark'] as const) {
        await this.setTheme(theme);
        await this.page.waitForTimeout(150);
        await this.page.screenshot({ path: `${SHOTS}/${name}-${size}-${theme}.png` });
        expect(await this.dialogViolations(), `${name} ${size} ${theme}`).toEqual([]);
      }
    }
    await this.setTheme('light');
    await this.page.setViewportSize({ width: 1280, height: 800 });
  }
}
