import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { E2E_OIDC_NAME } from '../../testkit/e2eOidc';
import { TrustPage } from './Trust';

/**
 * Single sign-on in the browser (issue 52): the sign-in page's button, the test provider's own
 * sign-in page (testkit/oidcProviderServer.ts, started beside the app by playwright.config.ts), and
 * Preferences › Phone for the phone such a person may add later.
 */
export class OidcPage extends TrustPage {
  constructor(page: Page) {
    super(page);
  }

  get oidcButton(): Locator {
    return this.main.getByRole('button', { name: `Sign in with ${E2E_OIDC_NAME}` });
  }

  /** The provider's page: its heading and its form. */
  get provider(): Locator {
    return this.page.getByRole('main').filter({ has: this.page.getByRole('heading', { name: 'Test ID' }) });
  }

  /** From the sign-in page to the provider's own page (another origin, over https). */
  async leaveForProvider() {
    await this.goto('/login');
    await expect(this.heading('Sign In to Outpost')).toBeVisible();
    await this.oidcButton.click();
    await expect(this.page).toHaveURL(/^https:\/\/localhost:\d+\/interaction\//, { timeout: 15_000 });
    await expect(this.provider).toBeVisible();
  }

  /** Signs in at the provider as `username`; the provider sends the browser back to the app. */
  async signInAtProvider(username: string) {
    await this.provider.getByLabel('Username').fill(username);
    await this.provider.getByRole('button', { name: 'Sign in' }).click();
  }

  async cancelAtProvider() {
    await this.provider.getByRole('button', { name: 'Cancel' }).click();
  }

  get phoneSection(): Locator {
    return this.main.locator('[role="region"][aria-labelledby="pref-phone"]');
  }

  async shots(testInfo: TestInfo, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
    await this.shotsInto(testInfo, 'oidc', name, fullPage);
  }
}
