import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { Collab } from './Collab';

export type MemberRoleName = 'Editor' | 'Viewer';

/** A campaign's Share dialog, the invite page and a viewer's read-only campaign (issue 30). */
export class Sharing extends Collab {
  constructor(page: Page) {
    super(page);
  }

  static override async signedIn(page: Page, phone: string, name: string): Promise<Sharing> {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new Sharing(page);
    await app.skipOnboarding();
    await app.signIn(phone, name);
    await app.expectHomeAfterSignIn();
    return app;
  }

  /** The device's copy of the mutual contacts is refreshed by the Contacts page's fresh list. */
  async refreshMutuals(expectName: string) {
    await this.goto('/contacts');
    const mine = this.main.getByRole('region', { name: 'Your Contacts' });
    await expect(mine.getByText(expectName).first()).toBeVisible({ timeout: 30_000 });
  }

  async openCampaign(id: number, title: string) {
    await this.goto(`/campaigns/${id}`);
    await expect(this.heading(title)).toBeVisible({ timeout: 15_000 });
  }

  get shareDialog(): Locator {
    return this.page.getByRole('dialog', { name: /^Share “/ });
  }

  get members(): Locator {
    return this.shareDialog.getByRole('list', { name: 'Members' });
  }

  async openShare() {
    await expect(async () => {
      if (!(await this.shareDialog.isVisible()))
        await this.main.getByRole('button', { name: 'Share', exact: true }).click();
      await expect(this.shareDialog).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect(this.members).toBeVisible({ timeout: 15_000 });
  }

  async closeShare() {
    // Escape closes the newest layer first: a toast still showing ('Member added') takes the first
    // press, the dialog the next.
    await expect(async () => {
      await this.page.keyboard.press('Escape');
      await expect(this.shareDialog).toHaveCount(0, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  }

  /** Adds a mutual contact from the dialog's picker, by keyboard-reachable labelled controls. */
  async addMember(name: string, role: MemberRoleName) {
    await this.shareDialog.getByLabel('Person').selectOption({ label: name });
    await this.shareDialog.getByLabel('Role', { exact: true }).selectOption({ label: role });
    await this.shareDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(this.toast('Member added')).toBeVisible();
    await expect(this.members.getByRole('listitem').filter({ hasText: name })).toBeVisible();
  }

  async removeMember(name: string) {
    await this.shareDialog.getByRole('button', { name: `Remove ${name}` }).click();
    const confirm = this.page.getByRole('alertdialog', { name: `Remove ${name}?` });
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(this.toast('Member removed')).toBeVisible();
    await expect(this.members.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
  }

  /** Makes an invite link in the dialog and answers it (the field shows it once). */
  async createInvite(role: MemberRoleName, days = 7, uses = 1): Promise<string> {
    await this.shareDialog.getByLabel('Joins as').selectOption({ label: role });
    await this.shareDialog.getByLabel('Expires in (days)').fill(String(days));
    await this.shareDialog.getByLabel('Uses', { exact: true }).fill(String(uses));
    await this.shareDialog.getByRole('button', { name: 'Create link' }).click();
    const field = this.shareDialog.getByLabel('Invite link (shown once)');
    await expect(field).toHaveValue(/\/invite\/[A-Za-z0-9_-]{22,}$/);
    return field.inputValue();
  }

  /** The controls in the page's content that would change something, enabled (none for a viewer). */
  async enabledWriteControls(): Promise<string[]> {
    return this.main.evaluate((main) => {
      const controls = main.querySelectorAll<HTMLElement>(
        'button, input, select, textarea, [contenteditable="true"], [role="checkbox"], [role="switch"]',
      );
      // The timeline's comments (and muting them) are open to a viewer (§5 'Roles'): not the campaign's writes.
      const timelines = [...main.querySelectorAll('section, [role="region"]')].filter((region) => {
        const by = region.getAttribute('aria-labelledby');
        const label = by ? document.getElementById(by)?.textContent : region.getAttribute('aria-label');
        return label?.trim() === 'Timeline';
      });
      const out: string[] = [];
      for (const el of controls) {
        if (timelines.some((t) => t.contains(el))) continue;
        if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') continue;
        if (el.getAttribute('role') === 'tab') continue;
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
        // Reading who is in it (and leaving) is open to a viewer.
        if (name === 'Share') continue;
        out.push(name);
      }
      return out;
    });
  }

  /**
   * Pictures of the screen at the phone's and the desktop's size, light and dark, under
   * test-results/screenshots/sharing/; axe checks each theme once, at the desktop's size. With a
   * dialog open the picture is the viewport (a full page would show the page below the overlay).
   */
  async shots(testInfo: TestInfo, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
    await this.shotsInto(testInfo, 'sharing', name, fullPage);
  }
}
