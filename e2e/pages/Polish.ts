import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { Trees } from './Trees';

/** Issue 13 item 15: statuses in words, one toast per batch, the tutorial and the Contacts import. */
export class PolishPage extends Trees {
  constructor(page: Page) {
    super(page);
  }

  /** A guest past the tutorial, on Home, with no motion, in the light theme. */
  static async asGuest(page: Page): Promise<PolishPage> {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
    const app = new PolishPage(page);
    await app.skipOnboarding();
    await app.goto('/');
    await expect(app.heading('Home')).toBeVisible();
    return app;
  }

  /** The first-visit tutorial card (its accessible name is 'Welcome' on every step). */
  get tutorial(): Locator {
    return this.page.getByRole('dialog', { name: 'Welcome' });
  }

  /** A fresh device: the tutorial opens on Step 1. */
  async openTutorial() {
    await this.goto('/');
    await expect(this.page).toHaveURL(/\/onboarding$/);
    await expect(this.tutorial.getByText('Step 1 of 9')).toBeVisible();
  }

  /**
   * From now on, every answer of 400 or more and every console error of the page, as lines: a clean
   * flow leaves it empty (the browser logs each failed request as a console error too).
   */
  recordFailures(): string[] {
    const failures: string[] = [];
    this.page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
    this.page.on('console', (m) => {
      if (m.type() === 'error') failures.push(`console: ${m.text()} (${m.location().url})`);
    });
    return failures;
  }

  /** The tutorial's sign-in: phone and name, then the demo code (the tutorial open on its account step). */
  async signInInTutorial(phone: string, name: string) {
    await this.tutorial.getByLabel('Phone number').fill(phone);
    await this.tutorial.getByLabel('Your name (optional)').fill(name);
    await this.tutorial.getByRole('button', { name: 'Next' }).click();
    await this.tutorial.getByLabel('Verification code').fill('123456');
    await this.tutorial.getByRole('button', { name: 'Next' }).click();
    await expect(this.tutorial.getByRole('button', { name: 'Skip for Now' })).toBeVisible();
  }

  /** Welcome → account prompt → picks a path → Next. */
  async chooseAccount(label: 'Sign In' | 'Continue Without Account') {
    await this.tutorial.getByRole('button', { name: 'Next' }).click();
    await this.tutorial.getByText(label, { exact: true }).click();
    await expect(this.tutorial.getByRole('radio', { name: new RegExp(label) })).toBeChecked();
    await this.tutorial.getByRole('button', { name: 'Next' }).click();
  }

  /** The toasts on screen (the app shows one at a time). */
  get toasts(): Locator {
    return this.page.locator('ol > li');
  }

  /** Whether this browser has the Contact Picker API. */
  async hasContactPicker(): Promise<boolean> {
    return this.page.evaluate(() => {
      const contacts = (navigator as { contacts?: { select?: unknown } }).contacts;
      return !!contacts && typeof contacts.select === 'function';
    });
  }

  /** Makes the page believe it has the Contact Picker API (from the next load on). */
  async fakeContactPicker() {
    await this.page.addInitScript(() => {
      Object.defineProperty(navigator, 'contacts', {
        value: { select: async () => [], getProperties: async () => ['name', 'tel'] },
        configurable: true,
      });
    });
  }

  /** Light and dark screenshots of what is on screen, then no serious or critical axe findings. */
  async captureBoth(testInfo: TestInfo, name: string, axe = true) {
    for (const theme of ['light', 'dark'] as const) {
      await this.setTheme(theme);
      await this.screenshot(testInfo, `polish-${name}-${theme}`);
    }
    if (axe) {
      for (const theme of ['light', 'dark'] as const) {
        await this.setTheme(theme);
        expect(await this.seriousA11yViolations(), `${name} (${theme})`).toEqual([]);
      }
    }
    await this.setTheme('light');
  }
}
