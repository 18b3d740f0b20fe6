import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import type { A11yViolation } from './AppPage';
import { Collab } from './Collab';

/** Where this spec's pictures go, to be looked at after a run (test-results is emptied by every run). */
const SHOTS = '.tmp/shots';

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

  /** Serious and critical WCAG 2 A/AA findings inside the dialog. */
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
   * The screen as it is at the phone's (390×844) and the desktop's (1280×800) size, light and dark,
   * into .tmp/shots/{name}-{size}-{theme}.png; axe checks the dialog in each.
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
        // A moment for the theme's colours and the new width to settle (as AppPage.shotsInto).
        await this.page.waitForTimeout(150);
        await this.page.screenshot({ path: `${SHOTS}/${name}-${size}-${theme}.png` });
        expect(await this.dialogViolations(), `${name} ${size} ${theme}`).toEqual([]);
      }
    }
    await this.setTheme('light');
    await this.page.setViewportSize({ width: 1280, height: 800 });
  }
}
