import type { Locator, Page } from '@playwright/test';
import { Outpost } from './Outpost';

/** Issue 13 item 14: a guest's items moved to a new account in batches, the Upgrade dialog and its badge. */
export class UpgradePage extends Outpost {
  constructor(page: Page) {
    super(page);
  }

  /** The Upgrade dialog while the items go up. */
  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Upgrading Your Account' });
  }

  /** The badge that keeps counting once the dialog is dismissed (it reopens the dialog). */
  get badge(): Locator {
    return this.page.getByRole('button', { name: /^Moving your items to your account/ });
  }

  /** 'N of M items' in the dialog, as numbers. */
  async progress(): Promise<{ sent: number; total: number }> {
    const text = (await this.dialog.getByText(/^[\d,]+ of [\d,]+ items$/).textContent()) ?? '';
    const [sent, total] = (text.match(/[\d,]+/g) ?? []).map((n) => Number(n.replace(/,/g, '')));
    return { sent: sent ?? Number.NaN, total: total ?? Number.NaN };
  }

  /**
   * Slows each batch request down, as a real network does, so the progress can be seen and dismissed.
   * `hold()` keeps later batches back until `release()`, so a step can't race the upload's end on a loaded machine.
   */
  async slowBatches(ms: number): Promise<{ hold(): void; release(): void }> {
    let gate: Promise<void> = Promise.resolve();
    let open = () => {};
    await this.page.route('**/api/items/batch', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await gate;
      await route.continue();
    });
    return {
      hold() {
        gate = new Promise<void>((resolve) => {
          open = resolve;
        });
      },
      release() {
        open();
      },
    };
  }
}
