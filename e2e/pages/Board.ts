import { expect, type Locator, type Page } from '@playwright/test';
import { Trees } from './Trees';

type Column = 'pending' | 'in_progress' | 'completed';

/** A campaign's Board tab and the keyboard walk of a page's rows (issue 50). */
export class BoardPage extends Trees {
  /** A guest on Home, light theme, no motion. */
  static async start(page: Page): Promise<BoardPage> {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
    const app = new BoardPage(page);
    await app.skipOnboarding();
    await app.goto('/');
    await expect(app.heading('Home')).toBeVisible();
    return app;
  }

  async openBoard() {
    await this.main.getByRole('tab', { name: 'Board' }).click();
    await expect(this.main.getByRole('region', { name: 'Board' })).toBeVisible();
  }

  column(status: Column): Locator {
    return this.main.locator(`[data-column="${status}"]`);
  }

  /** A card by its title, in any column. */
  card(title: string): Locator {
    return this.main.locator('[data-card-id]').filter({ has: this.page.getByRole('link', { name: title }) });
  }

  handle(title: string): Locator {
    return this.main.getByRole('button', { name: `Move “${title}”` });
  }

  /** Lifts a card with Space, moves it `right` columns with →, and drops it with Space. */
  async keyboardDrop(title: string, right: number) {
    // dnd-kit listens for the moving keys a moment after the lift (its keyboard sensor attaches them
    // after activation): a → pressed in that moment is lost, so each → is pressed again until the
    // board's live region says the card moved.
    const said = this.page.locator('[id^="DndLiveRegion"]');
    await this.handle(title).focus();
    await this.page.keyboard.press('Space');
    await expect(said).toContainText(`Picked up “${title}”`);
    for (let i = 0; i < right; i++) {
      const before = (await said.textContent()) ?? '';
      await expect(async () => {
        if (((await said.textContent()) ?? '') === before) await this.page.keyboard.press('ArrowRight');
        await expect(said).not.toHaveText(before, { timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
      await expect(said).toContainText(`“${title}” is over`);
    }
    await this.page.keyboard.press('Space');
  }

  /** The title of the row focus is in, or null when focus is in no row. */
  async focusedRowText(): Promise<string | null> {
    return this.page.evaluate(
      () => (document.activeElement?.closest('[data-item-id]') as HTMLElement | null)?.textContent ?? null,
    );
  }

  /** Focus out of any field (onto the page), then J: focus lands in the page's first row. */
  async pressJFromPage() {
    await this.page.locator('body').click({ position: { x: 1, y: 1 } });
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await this.page.keyboard.press('j');
  }
}
