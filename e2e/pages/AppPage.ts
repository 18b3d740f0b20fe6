import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';

export type Theme = 'light' | 'dark';

/** An axe finding reduced to what a failure message needs. */
export type A11yViolation = { id: string; impact: string; help: string; targets: string[] };

/** The app shell: what every screen has, whatever route it is on. */
export class AppPage {
  readonly brand: Locator;
  readonly tagline: Locator;

  constructor(readonly page: Page) {
    this.brand = page.getByRole('heading', { level: 1, name: 'Outpost' });
    this.tagline = page.getByText('Offline-first campaigns, tasks and todos');
  }

  /** Opens a route and waits until React has rendered the shell. */
  async goto(route = '/') {
    const response = await this.page.goto(route);
    await this.brand.waitFor();
    return response;
  }

  /** Sets the theme the way the app does: a `dark` class on <html>. */
  async setTheme(theme: Theme) {
    await this.page.evaluate(
      (dark) => document.documentElement.classList.toggle('dark', dark),
      theme === 'dark',
    );
  }

  /** Serious and critical WCAG 2 A/AA violations on the current page. */
  async seriousA11yViolations(): Promise<A11yViolation[]> {
    const results = await new AxeBuilder({ page: this.page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  }

  /** Saves a full-page screenshot under test-results/screenshots/<project>/ and attaches it to the report. */
  async screenshot(testInfo: TestInfo, name: string) {
    const file = `test-results/screenshots/${testInfo.project.name}/${name}.png`;
    const body = await this.page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(name, { body, contentType: 'image/png' });
  }
}
