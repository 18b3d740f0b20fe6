import { expect, type Locator, type Page } from '@playwright/test';
import { Collab } from './Collab';

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

  /** Pictures at both sizes and themes into .tmp/shots, axe checking the dialog in each. */
  pictures(name: string) {
    return this.lookPictures(name, '[role="dialog"]');
  }
}
