import { expect, type Locator, type Page } from '@playwright/test';
import { Collab } from './Collab';

/** The search dialog finding items by their comments (issue 66.4), on a signed-in user's task page. */
export class CommentSearch extends Collab {
  /** Signed in as a new user (as Collab.signedIn), motion reduced. */
  static async open(page: Page, phone: string, name: string): Promise<CommentSearch> {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new CommentSearch(page);
    await app.skipOnboarding();
    await app.signIn(phone, name);
    await app.expectHomeAfterSignIn();
    return app;
  }

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Search items' });
  }

  get input(): Locator {
    return this.dialog.getByRole('combobox', { name: 'Search items' });
  }

  /** Writes a comment on the open task's timeline with the keyboard (Ctrl+Enter sends it). */
  async addComment(body: string) {
    const field = this.main.getByRole('textbox', { name: 'Comment' });
    await field.fill(body);
    await field.press('Control+Enter');
    const timeline = this.main.getByRole('list', { name: /^Timeline of/ });
    await expect(timeline.locator('li[data-comment]').filter({ hasText: body })).toBeVisible();
  }

  /** Opens the dialog with Ctrl+K and types `query`: the result whose title is `title`. */
  async search(query: string, title: string): Promise<Locator> {
    await this.page.locator('body').click({ position: { x: 1, y: 1 } });
    await this.page.keyboard.press('Control+k');
    await expect(this.input).toBeFocused();
    await this.input.fill(query);
    const option = this.dialog.getByRole('option').filter({ hasText: title });
    await expect(option).toHaveCount(1);
    return option;
  }

  /** The words under a result that only a comment matched ('Comment: …'). */
  commentLine(option: Locator): Locator {
    return option.locator('[data-search-comment]');
  }

  /** Opens the selected result with Enter: its page's heading shows. */
  async openSelected(title: string) {
    await this.input.press('Enter');
    await expect(this.dialog).toBeHidden();
    await expect(this.heading(title)).toBeVisible();
  }

  /** Pictures at both sizes and themes into .tmp/shots, axe checking the dialog in each. */
  pictures(name: string) {
    return this.lookPictures(name, '[role="dialog"]');
  }
}
