import type { Locator, Page } from '@playwright/test';

/** The API reference page (`/api/docs`, swagger-ui served by the server). */
export class ApiDocs {
  readonly title: Locator;
  readonly operations: Locator;
  /** Console errors, failed requests and page errors seen since the page model was made (CSP refusals show here). */
  readonly problems: string[] = [];

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { name: /Outpost API/ });
    this.operations = page.locator('.opblock');
    page.on('console', (m) => {
      if (m.type() === 'error') this.problems.push(m.text());
    });
    page.on('pageerror', (e) => this.problems.push(String(e)));
    page.on('requestfailed', (r) => this.problems.push(`failed ${r.url()}`));
  }

  async open(): Promise<void> {
    await this.page.goto('/api/docs');
    await this.title.waitFor();
    await this.operations.first().waitFor();
  }

  /** Unfolds one operation by its path and method ('GET', '/api/items/{id}'). */
  async expand(method: string, path: string): Promise<Locator> {
    const block = this.page.locator(`.opblock-${method.toLowerCase()}`).filter({
      has: this.page.locator('.opblock-summary-path', { hasText: new RegExp(`^${escapeRegExp(path)}$`) }),
    });
    await block.locator('.opblock-summary').first().click();
    return block.first();
  }

  /** The page follows the system's colour scheme (swagger-ui reads it), so there is no theme of its own. */
  async setTheme(_theme: 'light' | 'dark'): Promise<void> {}
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
