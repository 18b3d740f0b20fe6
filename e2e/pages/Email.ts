import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../../scripts/lib/paths';
import type { ReceivedMail } from '../../testkit/mailServer';
import { picturesWanted, savePicture } from '../lib/pictures';
import { Collab } from './Collab';

/** Where the brief's screenshots go (gitignored): open them to judge the look. */
export const SHOTS_DIR = path.join(repoRoot, '.tmp/shots');

/** The path and query of the first `/{route}?token=…` link in a mail (its origin is PUBLIC_URL's). */
export function linkIn(mail: ReceivedMail, route: 'verify-email' | 'unsubscribe'): string {
  const text = `${mail.parsed.text ?? ''}\n${typeof mail.parsed.html === 'string' ? mail.parsed.html : ''}`;
  const match = new RegExp(`/${route}\\?token=[A-Za-z0-9_.%-]+`).exec(text);
  if (!match) throw new Error(`no /${route} link in the mail '${mail.parsed.subject ?? ''}'`);
  return match[0];
}

/** Preferences › Email, the verify and unsubscribe pages, and a campaign's 'Add tasks by email…'. */
export class EmailPages extends Collab {
  constructor(page: Page) {
    super(page);
  }

  static async signedInAs(page: Page, phone: string, name: string): Promise<EmailPages> {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new EmailPages(page);
    await app.skipOnboarding();
    await app.signIn(phone, name);
    await app.expectHomeAfterSignIn();
    return app;
  }

  /** The Email section of Preferences. */
  get section(): Locator {
    return this.page.getByRole('region', { name: 'Email', exact: true });
  }

  /** One kind's switch, by its label (EMAIL_KIND_LABELS). */
  kindSwitch(label: string): Locator {
    return this.section.getByRole('switch', { name: label, exact: true });
  }

  get digest(): Locator {
    return this.section.getByLabel('Daily digest');
  }

  async openPreferences() {
    await this.goto('/preferences');
    await expect(this.heading('Preferences')).toBeVisible();
    await expect(this.section).toBeVisible();
  }

  /** Types an address and sends its verification link; the section then waits for the link. */
  async addAddress(email: string) {
    await this.section.getByLabel('Email address').fill(email);
    await this.section.getByRole('button', { name: /send the link/ }).click();
    await expect(
      this.section.getByText(`Waiting for you to open the link we sent to ${email}.`),
    ).toBeVisible();
  }

  /** Opens a verification link (a mail's path and query) and waits for 'verified'. */
  async openVerification(link: string, email: string) {
    await this.goto(link);
    await expect(this.page.getByText(`Your address ${email} is verified.`)).toBeVisible();
  }

  /** Flips a kind's switch from the keyboard and waits for the server to keep it. */
  async toggleKind(label: string) {
    const control = this.kindSwitch(label);
    const saved = this.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/me/email/preferences' && r.request().method() === 'PATCH',
    );
    await control.focus();
    await control.press('Space');
    expect((await saved).ok()).toBe(true);
  }

  /** Chooses the digest's hour (0–23) and waits for the server to keep it with the zone. */
  async chooseDigestHour(hour: number) {
    const saved = this.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/me/email/preferences' && r.request().method() === 'PATCH',
    );
    await this.digest.selectOption(String(hour));
    const response = await saved;
    expect(response.ok()).toBe(true);
    return response.request().postDataJSON() as { digest_hour: number | null; time_zone: string };
  }

  /** The campaign page's 'Add tasks by email…' dialog, opened from its menu. */
  async openAddByEmail(campaignId: number, title: string): Promise<Locator> {
    await this.goto(`/campaigns/${campaignId}`);
    await this.page.getByRole('button', { name: `More actions for ${title}` }).click();
    await this.page.getByRole('menuitem', { name: 'Add tasks by email…' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add tasks by email' });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /**
   * Screenshots of `target` at the phone's (390×844) and the desktop's (1280×800) size, light and
   * dark, into SHOTS_DIR as `{name}-{size}-{theme}.png`; axe at each size and theme finds nothing
   * serious.
   */
  async shots(name: string, target: Locator | null) {
    if (picturesWanted) await mkdir(SHOTS_DIR, { recursive: true });
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await this.page.setViewportSize(viewport);
      for (const theme of ['light', 'dark'] as const) {
        await this.setTheme(theme);
        await this.page.waitForTimeout(150);
        const file = path.join(SHOTS_DIR, `${name}-${size}-${theme}.png`);
        if (target) {
          // The whole page's picture cut to the target: an element's own picture has the sticky
          // header and the phone's bottom bar over it.
          await this.page.evaluate(() => window.scrollTo(0, 0));
          const box = await target.boundingBox();
          if (!box) throw new Error(`${name}: nothing to photograph`);
          const margin = 12;
          await savePicture(this.page, {
            path: file,
            fullPage: true,
            clip: {
              x: Math.max(0, box.x - margin),
              y: Math.max(0, box.y - margin),
              width: Math.min(viewport.width - Math.max(0, box.x - margin), box.width + 2 * margin),
              height: box.height + 2 * margin,
            },
          });
        } else {
          await savePicture(this.page, { path: file });
        }
        expect(await this.seriousA11yViolations(), `${name} ${size} ${theme}`).toEqual([]);
      }
    }
    await this.setTheme('light');
    await this.page.setViewportSize({ width: 1280, height: 800 });
  }
}
