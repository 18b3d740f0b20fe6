import { expect, type Locator, type Page } from '@playwright/test';
import { Outpost } from './Outpost';

const LAZY_LOAD_MS = 15_000;

/** The account, Preferences and the connectivity badge: what decides whether work is kept (issue 13, 1–2). */
export class TrustPage extends Outpost {
  constructor(page: Page) {
    super(page);
  }

  /** Every API request fails with no answer while the browser stays online (the server is down). */
  async cutServer() {
    await this.page.route('**/api/**', (route) => route.abort('connectionrefused'));
  }

  async restoreServer() {
    await this.page.unroute('**/api/**');
  }

  /** The connectivity badge (bottom right). */
  get badge(): Locator {
    return this.page.locator('[role="status"][data-connection]');
  }

  /** The question before Clear Local Data or Log out. */
  get confirm(): Locator {
    return this.page.getByRole('alertdialog');
  }

  /** Opens the phone's account sheet or the desktop's account menu. */
  async openAccount(): Promise<Locator> {
    if (this.isPhone) {
      await this.page.getByRole('button', { name: 'Account', exact: true }).click();
      const sheet = this.page.getByRole('dialog', { name: 'Account' });
      await expect(sheet).toBeVisible();
      return sheet;
    }
    await this.page.getByRole('button', { name: 'Account menu' }).click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible({ timeout: LAZY_LOAD_MS });
    return menu;
  }

  /** Preferences through the account sheet or menu (no reload, so the page keeps its routes). */
  async openPreferences() {
    const account = await this.openAccount();
    if (this.isPhone) await account.getByRole('button', { name: 'Preferences' }).click();
    else await account.getByRole('menuitem', { name: 'Preferences' }).click();
    await expect(this.heading('Preferences')).toBeVisible();
  }

  /** Presses Log out in the sheet or the menu. */
  async pressLogOut() {
    const account = await this.openAccount();
    if (this.isPhone) await account.getByRole('button', { name: 'Log out' }).click();
    else await account.getByRole('menuitem', { name: 'Log out' }).click();
  }

  /** Whether the header shows the signed-in account (else the guest's sign-in). */
  signedInMarker(): Locator {
    return this.isPhone
      ? this.page.getByRole('button', { name: 'Account', exact: true })
      : this.page.getByRole('button', { name: 'Account menu' });
  }

  guestMarker(): Locator {
    return this.isPhone
      ? this.page.getByRole('button', { name: 'Account and sign in' })
      : this.page.getByRole('banner').getByText('Local only');
  }

  /**
   * Adds a todo with Home's quick-add and waits for its row, not for a toast (quick-adds in a row may
   * share one toast).
   */
  async addTodo(title: string) {
    const form = this.quickAddForm();
    const input = form.getByRole('textbox', { name: 'Todo title' });
    if (!(await input.isVisible())) await form.getByRole('textbox').first().click();
    const chip = form.getByRole('radio', { name: 'Todo', exact: true });
    if ((await chip.count()) > 0) {
      await form.getByText('Todo', { exact: true }).click();
      await expect(chip).toBeChecked();
    }
    await input.fill(title);
    await form.getByRole('button', { name: 'Add todo' }).click();
    await expect(input).toHaveValue('');
    await expect(this.row(title)).toBeVisible();
  }

  /** Presses Sync Now on Preferences. */
  async syncNow() {
    await this.main.getByRole('button', { name: 'Sync Now' }).click();
  }

  /** A toast's description, under its title. */
  toastWith(title: string, description: string | RegExp): Locator {
    return this.page.locator('ol > li').filter({ hasText: title }).filter({ hasText: description }).first();
  }
}
