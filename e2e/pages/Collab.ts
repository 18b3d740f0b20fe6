import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  request as requests,
  type TestInfo,
} from '@playwright/test';
import { Outpost } from './Outpost';

/** A user signed in through the API only (no browser): for the other side of a collaboration. */
export class ApiUser {
  private constructor(
    readonly api: APIRequestContext,
    readonly id: number,
    readonly name: string,
    readonly phone: string,
  ) {}

  static async signIn(baseURL: string, phone: string, name: string): Promise<ApiUser> {
    const api = await requests.newContext({ baseURL });
    const user = await login(api, phone, name);
    return new ApiUser(api, user.id, user.name, user.phone);
  }

  async post<T>(url: string, data: unknown): Promise<T> {
    return apiWrite<T>(this.api, 'POST', url, data);
  }

  async patch<T>(url: string, data: unknown): Promise<T> {
    return apiWrite<T>(this.api, 'PATCH', url, data);
  }

  async delete(url: string): Promise<void> {
    await apiWrite(this.api, 'DELETE', url, undefined);
  }

  async dispose() {
    await this.api.dispose();
  }
}

/** Signs in an API context (the anti-forgery cookie first), answering the user. */
export async function login(
  api: APIRequestContext,
  phone: string,
  name: string,
): Promise<{ id: number; name: string; phone: string }> {
  await api.get('/sanctum/csrf-cookie');
  const { user } = await apiWrite<{ user: { id: number; name: string; phone: string } }>(
    api,
    'POST',
    '/api/login',
    {
      phone,
      name,
    },
  );
  return user;
}

/** A write with the X-XSRF-TOKEN header from the context's own cookie. */
export async function apiWrite<T>(
  api: APIRequestContext,
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  data: unknown,
): Promise<T> {
  const { cookies } = await api.storageState();
  const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await api.fetch(url, {
    method,
    data,
    // A body-less write (a DELETE) sends no content type: the server refuses an empty JSON body.
    headers: {
      'X-XSRF-TOKEN': decodeURIComponent(xsrf),
      ...(data === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
  });
  expect(response.ok(), `${method} ${url}: ${response.status()} ${await response.text()}`).toBe(true);
  // A 204 (a DELETE's answer) has no body.
  return (response.status() === 204 ? undefined : await response.json()) as T;
}

/** The app with the campaign feed, contacts and assign menus (issue 13, items 10 to 13). */
export class Collab extends Outpost {
  constructor(page: Page) {
    super(page);
  }

  /** A signed-in browser user: onboarding marked done, then /login. */
  static async signedIn(page: Page, phone: string, name: string): Promise<Collab> {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const app = new Collab(page);
    await app.skipOnboarding();
    await app.signIn(phone, name);
    await app.expectHomeAfterSignIn();
    return app;
  }

  /** The browser user's own API writes (same cookies as the page). */
  async post<T>(url: string, data: unknown): Promise<T> {
    return apiWrite<T>(this.page.request, 'POST', url, data);
  }

  async patch<T>(url: string, data: unknown): Promise<T> {
    return apiWrite<T>(this.page.request, 'PATCH', url, data);
  }

  /** Opens a campaign's Activity tab. */
  async openActivity(campaignId: number) {
    await this.goto(`/campaigns/${campaignId}?tab=activity`);
    await expect(this.page.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
  }

  get activity(): Locator {
    return this.main.getByRole('list', { name: 'Activity' });
  }

  /** The feed's entry sentences, top to bottom. */
  async activityLines(): Promise<string[]> {
    return this.activity.locator(':scope > li p').allTextContents();
  }

  /** Also keeps a copy outside test-results (which every run of the suite empties) for review. */
  override async screenshot(testInfo: TestInfo, name: string) {
    const body = await super.screenshot(testInfo, name);
    if (!body) return body;
    // A copy that outlives test-results (every run empties it); the same bytes, not a second picture.
    const copy = `/tmp/outpost-shots/${testInfo.project.name}/${name}.png`;
    await mkdir(path.dirname(copy), { recursive: true });
    await writeFile(copy, body);
    return body;
  }

  /** The names the assign menu of a row offers (the desktop's assign button, the phone's row menu). */
  async assigneeOptions(title: string): Promise<string[]> {
    const row = this.row(title);
    const direct = row.getByRole('button', { name: `Assign ${title}` });
    const items = this.page.getByRole('menuitemradio');
    if (await direct.isVisible()) {
      await direct.click();
    } else {
      // The phone's row menu lists the assignees itself; elsewhere they are in the Assign submenu.
      const menu = this.page.getByRole('menu');
      await expect(async () => {
        if (!(await menu.first().isVisible()))
          await row.getByRole('button', { name: `More actions for ${title}` }).click();
        await expect(menu.first()).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 15_000 });
      if ((await items.count()) === 0) {
        await this.page.getByRole('menuitem', { name: 'Assign' }).focus();
        await this.page.keyboard.press('ArrowRight');
      }
    }
    await expect(items.first()).toBeVisible();
    const names = (await items.allTextContents()).map((t) => t.trim());
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Escape');
    await expect(items).toHaveCount(0);
    return names;
  }
}
