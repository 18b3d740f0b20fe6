import { type CDPSession, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { TrustPage } from './Trust';

/**
 * Passkeys in the browser (issue 52): Chromium's virtual authenticator over CDP stands in for the
 * device's screen lock, Preferences › Passkeys adds and removes them, the sign-in page uses them.
 */
export class PasskeysPage extends TrustPage {
  private cdp: CDPSession | null = null;

  constructor(page: Page) {
    super(page);
  }

  /** A platform authenticator that keeps discoverable credentials and always verifies the user. */
  async addAuthenticator(): Promise<string> {
    this.cdp = await this.page.context().newCDPSession(this.page);
    await this.cdp.send('WebAuthn.enable');
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return authenticatorId;
  }

  /** Whether the authenticator's user check passes: false stands in for a cancelled prompt. */
  async setUserVerified(authenticatorId: string, isUserVerified: boolean) {
    if (!this.cdp) throw new Error('No authenticator');
    await this.cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified });
  }

  /** The credentials the virtual authenticator holds. */
  async credentials(authenticatorId: string) {
    if (!this.cdp) throw new Error('No authenticator');
    return (await this.cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  }

  get section(): Locator {
    return this.main.locator('[role="region"][aria-labelledby="pref-passkeys"]');
  }

  get list(): Locator {
    return this.main.getByRole('list', { name: 'Your passkeys' });
  }

  /** Preferences › Passkeys › Add a passkey, named `name`, then the (virtual) browser prompt. */
  async addPasskey(name: string) {
    const dialog = this.page.getByRole('dialog', { name: 'Add a passkey' });
    await this.pressUntilOpen(this.section.getByRole('button', { name: 'Add a passkey' }), dialog);
    await expect(dialog.getByLabel('Passkey name')).toHaveValue(/^Passkey on /);
    await dialog.getByLabel('Passkey name').fill(name);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await expect(this.list.getByRole('listitem').filter({ hasText: name })).toBeVisible();
  }

  /** Preferences › Passkeys › Remove on the passkey named `name`: its question, answered Remove. */
  async removePasskey(name: string) {
    const confirm = this.page.getByRole('alertdialog', { name: `Remove ${name}?` });
    await this.pressUntilOpen(this.list.getByRole('button', { name: `Remove ${name}` }), confirm);
    await confirm.getByRole('button', { name: 'Remove' }).click();
  }

  /**
   * Presses `button` until `dialog` opens. Sections above Passkeys finish loading and move it down: a
   * click aimed just before that lands beside the button (CI runs saw Add's dialog and Remove's
   * question never open), so it is pressed again.
   */
  private async pressUntilOpen(button: Locator, dialog: Locator) {
    await expect(async () => {
      if (!(await dialog.isVisible())) await button.click();
      await expect(dialog).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }

  /** The sign-in page's passkey button: no phone typed. */
  async signInWithPasskey() {
    await this.goto('/login');
    await expect(this.heading('Sign In to Outpost')).toBeVisible();
    await this.main.getByRole('button', { name: 'Sign in with a passkey' }).click();
  }

  /** Log out from the account menu (or sheet), answering the unsynced-changes question if asked. */
  async logOut() {
    await this.pressLogOut();
    await expect(this.guestMarker()).toBeVisible({ timeout: 15_000 });
  }

  /**
   * The screen at the phone's and the desktop's size, light and dark, into test-results/ and
   * /tmp/outpost-shots/passkeys/; axe checks each theme once at the desktop's size.
   */
  async shots(testInfo: TestInfo, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
    await this.shotsInto(testInfo, 'passkeys', name, fullPage);
  }
}
