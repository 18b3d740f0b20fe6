import { expect, type Locator, type Page } from '@playwright/test';

/** Preferences › API tokens: make a token, read its secret once, revoke it. */
export class ApiTokens {
  readonly section: Locator;
  constructor(readonly page: Page) {
    this.section = page.getByRole('region', { name: 'API tokens' });
  }

  /** The secret's field while the new token is on screen. */
  get secretField(): Locator {
    return this.section.getByLabel(/^Your new token/);
  }

  /** The token's row (desktop) or card (phone), whichever is shown. */
  entry(name: string): Locator {
    return this.section
      .locator('[data-token-id]')
      .filter({ visible: true })
      .filter({ has: this.page.getByText(name, { exact: true }) });
  }

  /** Fills the form and creates a token; answers the secret shown once. */
  async create(
    name: string,
    scopes: readonly ('Read' | 'Write' | 'Webhooks')[],
    expiry: string,
  ): Promise<string> {
    await this.section.getByLabel('Token name').fill(name);
    for (const scope of ['Read', 'Write', 'Webhooks'] as const) {
      const box = this.section.getByRole('checkbox', { name: new RegExp(`^${scope}`) });
      await box.setChecked(scopes.includes(scope));
    }
    await this.section.getByLabel('Expires after').selectOption({ label: expiry });
    await this.section.getByRole('button', { name: 'Create token' }).click();
    await expect(this.secretField).toHaveValue(/^opk_[A-Za-z0-9_-]{43}$/);
    return this.secretField.inputValue();
  }

  /** Revoke…, then the question's 'Revoke token'. */
  async revoke(name: string): Promise<void> {
    await this.entry(name)
      .getByRole('button', { name: `Revoke ${name}` })
      .click();
    const dialog = this.page.getByRole('alertdialog', { name: `Revoke “${name}”?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await expect(this.entry(name)).toHaveCount(0);
  }
}
