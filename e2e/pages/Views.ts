import { expect, type Locator, type Page } from '@playwright/test';
import { Collab } from './Collab';

/** The filter page and saved views (issue 66.3), for a signed-in user. */
export class Views extends Collab {
  /** Signed in as a new user (as Collab.signedIn), motion reduced. */
  static async open(page: Page, phone: string, name: string): Promise<Views> {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new Views(page);
    await app.skipOnboarding();
    await app.signIn(phone, name);
    // Signed in once the app leaves the sign-in page (Home itself is another spec's business).
    await expect(page).not.toHaveURL(/\/login/, { timeout: 20_000 });
    return app;
  }

  get filterField(): Locator {
    return this.main.getByRole('textbox', { name: 'Filter' });
  }

  /** The rows of the matching items. */
  matchRow(title: string): Locator {
    return this.main.getByRole('listitem').filter({ hasText: title });
  }

  /** Types a query into the filter field. */
  async typeFilter(query: string) {
    await this.filterField.fill(query);
  }

  /** Saves the query on screen as a view named `name`: its page opens with that heading. */
  async saveView(name: string) {
    await this.main.getByRole('textbox', { name: 'View name' }).fill(name);
    await this.main.getByRole('button', { name: 'Save view' }).click();
    await expect(this.heading(name)).toBeVisible();
    await expect(this.page).toHaveURL(/\/views\/\d+$/);
  }

  /** Opens the navigation's Views menu (desktop) and picks `name`. */
  async openFromNav(name: string) {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Views' }).click();
    const item = this.page.getByRole('menuitem', { name });
    await expect(item).toBeVisible();
    await item.click();
    await expect(this.heading(name)).toBeVisible();
  }

  /** Pictures at both sizes and themes into .tmp/shots, axe checking the page in each. */
  pictures(name: string) {
    return this.lookPictures(name);
  }
}
