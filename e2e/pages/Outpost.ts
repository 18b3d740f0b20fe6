import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { AppPage, type Theme } from './AppPage';

export type ItemType = 'campaign' | 'task' | 'todo';

/** What GET /api/items answers with; only the fields the specs read. */
export interface ServerItem {
  id: number;
  title: string;
  type: ItemType;
  status: string;
  parent_id: number | null;
}

// Must match THEME_STORAGE_KEY in src/client/stores/themeStore.ts (a bare string, not JSON).
const THEME_STORAGE_KEY = 'outpost-theme';

const TYPE_LABEL: Record<ItemType, string> = { campaign: 'Campaign', task: 'Task', todo: 'Todo' };

/** The quick-add toast: the spec's 'Item created', replaced in place by quick-adds in a row. */
export const QUICK_ADD_TOAST = 'Item created';

let phoneCounter = 0;

/**
 * A US 555 number no other spec (or earlier run against the same database) uses: the server accepts
 * possible-but-unassigned numbers (ARCHITECTURE §5), so every spec can be its own user.
 */
export function freshPhone(): string {
  phoneCounter += 1;
  const seed = (Date.now() * 7 + process.pid * 131 + phoneCounter * 7919) % 10_000_000;
  return `+1555${String(seed).padStart(7, '0')}`;
}

/**
 * Presses Escape until `layer` is gone. A toast is a dismissable layer too (Radix): one that appears on
 * top of a dialog (say 'New address made') takes the first Escape, so a second closes the dialog; on a
 * loaded machine a key pressed while a layer is being swapped in was also once lost (fresh-clone CIs).
 */
export async function escapeUntilGone(page: Page, layer: Locator): Promise<void> {
  await expect(async () => {
    if ((await layer.count()) > 0) await page.keyboard.press('Escape');
    await expect(layer).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

/** A title no other spec uses, so lists and search never match another spec's items. */
export function uniqueTitle(prefix: string): string {
  // No vowels, digits or p/m/h/d/s/w/y: the quick add must never read a suffix as a date ('feb4th'),
  // a time ('3pm'), a priority ('p2') or a unit, or a title typed there would lose it.
  const letters = 'bcfgjklnqrtvxz';
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += letters[Math.floor(Math.random() * letters.length)];
  return `${prefix} ${suffix}`;
}

/** The app with the flows the journeys share: onboarding, sign-in, adding items, search, theme. */
/** Pages that note each time the sign-in celebration is on screen (see watchCelebration). */
const watchedPages = new WeakSet<Page>();

declare global {
  interface Window {
    /** Set by the spec's page script when the sign-in celebration has been on screen. */
    __outpostCelebrated?: boolean;
  }
}

export class Outpost extends AppPage {
  readonly main: Locator;

  constructor(page: Page) {
    super(page);
    this.main = page.locator('main');
  }

  override async skipOnboarding() {
    await super.skipOnboarding();
    await this.watchCelebration();
  }

  /**
   * From the next page load on, the page notes when the sign-in celebration has been on screen, so
   * expectHomeAfterSignIn can wait for it to come and go rather than guess whether it is still to come.
   */
  async watchCelebration() {
    if (watchedPages.has(this.page)) return;
    watchedPages.add(this.page);
    await this.page.addInitScript(() => {
      // Only the nodes a commit adds are looked at: the dialog arrives whole (a portal's subtree), and a
      // page with long lists must not pay a document-wide query for each of its mutations.
      const celebration = (node: Node) =>
        node instanceof Element &&
        (node.matches('[role="dialog"]') ? [node] : [...node.querySelectorAll('[role="dialog"]')]).some(
          (dialog) => /Upgrading Your Account|You're all set/.test(dialog.textContent ?? ''),
        );
      new MutationObserver((records) => {
        if (records.some((record) => [...record.addedNodes].some(celebration)))
          window.__outpostCelebrated = true;
      }).observe(document, { childList: true, subtree: true });
    });
  }

  /**
   * Preferences once its late parts are in: the Email section's chunk and the storage line arrive
   * after the first paint and push down what is below them, so a click aimed before they land can hit
   * whatever moved under it.
   */
  async gotoPreferences() {
    await this.goto('/preferences');
    await expect(this.heading('Preferences')).toBeVisible();
    await expect(this.main.getByRole('region', { name: 'Email', exact: true })).toBeVisible();
    await expect(this.main.getByTestId('storage-line')).toBeVisible();
  }

  /**
   * Preferences' Clear Local Data, pressed by keyboard: the sections above the danger zone fill in as
   * their data arrives (with the server cut, as their retries give up), moving the button down, and a
   * click aimed at where it was landed on whatever moved there (a fresh-clone run's flake).
   */
  async pressClearLocalData() {
    await expect(this.main.getByTestId('storage-line')).toBeVisible();
    await this.main.getByRole('button', { name: 'Clear Local Data' }).focus();
    await this.page.keyboard.press('Enter');
  }

  get isPhone(): boolean {
    return (this.page.viewportSize()?.width ?? 1280) < 768;
  }

  /** Starts every page load with a fixed theme, for screenshots and axe in both modes. */
  async presetTheme(theme: Theme) {
    await this.page.addInitScript(([key, value]) => localStorage.setItem(key, value), [
      THEME_STORAGE_KEY,
      theme,
    ] as const);
  }

  /** The tutorial as a guest: welcome, 'Continue Without Account', the offline tour, 'Get Started'. */
  async onboardAsGuest() {
    await this.goto('/');
    await expect(this.page).toHaveURL(/\/onboarding$/);
    const dialog = this.page.getByRole('dialog', { name: 'Welcome' });
    await expect(dialog.getByText('Step 1 of 9')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect(dialog.getByText('Step 2 of 9')).toBeVisible();
    // The account prompt: Next waits for a choice.
    await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
    await dialog.getByText('Continue Without Account').click();
    await expect(dialog.getByRole('radio', { name: /Continue Without Account/ })).toBeChecked();
    // The longest path was counted until the choice; this one is shorter.
    await expect(dialog.getByText('Step 2 of 6')).toBeVisible();
    for (let step = 3; step <= 6; step++) {
      await dialog.getByRole('button', { name: 'Next' }).click();
      await expect(dialog.getByText(`Step ${step} of 6`)).toBeVisible();
    }
    await dialog.getByRole('button', { name: 'Get Started' }).click();
    await expect(this.page).toHaveURL(/\/$/);
    await expect(this.heading('Home')).toBeVisible();
  }

  /** Signs in on /login with a phone and a name; the app goes Home afterwards. */
  async signIn(phone: string, name: string) {
    await this.watchCelebration();
    await this.goto('/login');
    await expect(this.heading('Sign In to Outpost')).toBeVisible();
    await this.main.getByLabel('Phone number').fill(phone);
    await this.main.getByLabel('Name').fill(name);
    await this.main.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(this.page).toHaveURL(/\/$/);
  }

  /**
   * Home once a guest's sign-in has settled: the celebration ('Upgrading Your Account', then 'You're
   * all set!') opens over Home and closes by itself. It is modal and takes the focus, so a test that
   * went on while it was still to come would lose what it had begun (a quick add collapses when its
   * empty title loses focus): on a page that watches for it, this waits until it has been shown.
   * The waits are long because a busy machine is slow to close it.
   */
  async expectHomeAfterSignIn() {
    if (watchedPages.has(this.page)) {
      await expect
        .poll(() => this.page.evaluate(() => window.__outpostCelebrated === true), { timeout: 20_000 })
        .toBe(true);
      await this.page.evaluate(() => {
        window.__outpostCelebrated = false;
      });
    }
    // A role query skips what a modal hides from assistive technology: Home counts once it is uncovered.
    await expect(this.heading('Home')).toBeVisible({ timeout: 20_000 });
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  /** Goes to a screen through the phone's bottom bar or the desktop's nav links. */
  async navigate(label: 'Home' | 'My List' | 'Queue' | 'Active' | 'Completed') {
    const nav = this.page.getByRole('navigation', { name: 'Main' }).filter({ visible: true });
    const text = this.isPhone && label === 'Completed' ? 'Done' : label;
    await nav.getByRole('link', { name: text, exact: true }).click();
    await expect(this.heading(label)).toBeVisible();
  }

  /** The quick-add card with this accessible name ('Quick add', 'Add todo', …) in the open tab. */
  quickAddForm(name: string | RegExp = 'Quick add'): Locator {
    return this.main.getByRole('form', { name }).filter({ visible: true }).first();
  }

  /**
   * Gives the device `titles` as pending todos with one Outpost JSON import (Preferences › Data): one
   * local write, where typing each into the quick add takes a second apiece. Ends on /preferences.
   */
  async importTodos(titles: readonly string[]) {
    await this.importItems(
      titles.map((title) => ({
        uuid: randomUUID(),
        parent_uuid: null,
        type: 'todo',
        title,
        status: 'pending',
      })),
    );
  }

  /**
   * Gives the device `items` (lines of an Outpost JSON export, parents first) with one import in
   * Preferences › Data. Ends on /preferences.
   */
  async importItems(items: readonly Record<string, unknown>[]) {
    const doc = { format: 'outpost', version: 1, exported_at: new Date().toISOString(), user: null, items };
    await this.goto('/preferences');
    await expect(this.heading('Preferences')).toBeVisible();
    const data = this.main.getByRole('region', { name: 'Data', exact: true });
    await data.getByTestId('import-file').setInputFiles({
      name: 'items.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(doc)),
    });
    await data.getByRole('button', { name: `Import ${items.length} items` }).click();
    await expect(data.getByTestId('import-result')).toHaveText(`Imported: ${items.length} new items.`);
  }

  /** Adds an item with the quick-add card; the item's row appears in the page's list. */
  async quickAdd(type: ItemType, title: string, formName: string | RegExp = 'Quick add') {
    const form = this.quickAddForm(formName);
    const input = form.getByRole('textbox', { name: `${TYPE_LABEL[type]} title` });
    const chip = form.getByRole('radio', { name: TYPE_LABEL[type], exact: true });
    // A multi-type card: focusing expands it and shows the type chips. An empty card collapses when
    // focus leaves it (by design), and a page still settling after navigation can take focus once:
    // the whole open-and-pick step is tried again then, as a person would click the card again.
    await expect(async () => {
      if (!(await input.isVisible())) await form.getByRole('textbox').first().click();
      if ((await chip.count()) > 0) {
        await form.getByText(TYPE_LABEL[type], { exact: true }).click({ timeout: 2_000 });
        await expect(chip).toBeChecked({ timeout: 2_000 });
      }
    }).toPass({ timeout: 20_000 });
    const title_ = form.getByRole('textbox', { name: `${TYPE_LABEL[type]} title` });
    await title_.fill(title);
    // CI once saw the card lose what was typed between the fill and the press (the button detached
    // and never came back): the step is tried again from the typing, and the log says it happened.
    let tries = 0;
    await expect(async () => {
      if (tries++ > 0) {
        const headings = await this.main.locator('h1, h2, [role=alert]').allInnerTexts();
        console.warn(
          `quickAdd(${type}): the card no longer held the title at ${this.page.url()} (the page shows ${JSON.stringify(headings)}); typing again`,
        );
        if (!(await title_.isVisible())) await form.getByRole('textbox').first().click({ timeout: 2_000 });
        if ((await chip.count()) > 0)
          await form.getByText(TYPE_LABEL[type], { exact: true }).click({ timeout: 2_000 });
        if ((await title_.inputValue({ timeout: 2_000 })) !== title)
          await title_.fill(title, { timeout: 2_000 });
      }
      await form.getByRole('button', { name: `Add ${type}` }).click({ timeout: 10_000 });
      // A press the card did not take (its reading of the title changing under the click, on a busy
      // CI machine) leaves the title in place and nothing busy: the step is tried again.
      await expect(title_).toHaveValue('', { timeout: 15_000 });
    }).toPass({ timeout: 60_000 });
    // Quick-adds in a row share one toast with the spec's 'Item created'.
    await expect(this.toast(QUICK_ADD_TOAST)).toBeVisible();
    // A successful create empties the card again.
    await expect(title_).toHaveValue('');
  }

  /** Adds an item with the Create New Item dialog behind the phone's floating add button. */
  async createWithDialog(type: ItemType, title: string) {
    await this.page.getByRole('button', { name: 'Create new item' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Create New Item' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('tab', { name: type }).click();
    await expect(dialog.getByRole('tab', { name: type })).toHaveAttribute('aria-selected', 'true');
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: `Create ${type}` }).click();
    await expect(dialog).toBeHidden();
    await expect(this.toast('Item created')).toBeVisible();
  }

  /**
   * A toast by its title. Not by role: a modal (the tutorial) hides the toast region from the
   * accessibility tree with aria-hidden, though the toast shows above it; Radix renders toasts as
   * the items of the viewport's list.
   */
  toast(title: string | RegExp): Locator {
    return this.page.locator('ol > li').getByText(title, { exact: true }).first();
  }

  /** The row of an item, by its exact title, in whatever list is on screen. */
  row(title: string): Locator {
    return this.main
      .locator('[data-item-id]')
      .filter({ has: this.page.getByText(title, { exact: true }) })
      .first();
  }

  /** Opens the search dialog with Ctrl+K, types, and opens the first result with Enter. */
  async searchAndOpen(query: string, expectTitle: string) {
    await this.page.locator('body').click({ position: { x: 1, y: 1 } });
    await this.page.keyboard.press('Control+k');
    const dialog = this.page.getByRole('dialog', { name: 'Search items' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Start typing to search across all your items')).toBeVisible();
    const input = dialog.getByRole('combobox', { name: 'Search items' });
    await expect(input).toBeFocused();
    await input.fill(query);
    const option = dialog.getByRole('option').filter({ hasText: expectTitle }).first();
    await expect(option).toBeVisible();
    await expect(dialog.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    // Move the selection to the expected hit with the arrow keys, then open it with Enter.
    const options = dialog.getByRole('option');
    const count = await options.count();
    for (let i = 0; i < count; i++) {
      if ((await options.nth(i).getAttribute('aria-selected')) === 'true') {
        if ((await options.nth(i).textContent())?.includes(expectTitle)) break;
      }
      await input.press('ArrowDown');
    }
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await input.press('Enter');
    await expect(dialog).toBeHidden();
  }

  /** Full-page screenshot and axe check in one go, for the screens spec. */
  async captureScreen(testInfo: TestInfo, name: string) {
    await this.screenshot(testInfo, name);
    return this.seriousA11yViolations();
  }
}

/** The server's items of a type visible to whoever the request's cookies belong to. */
export async function serverItems(request: APIRequestContext, query = ''): Promise<ServerItem[]> {
  const response = await request.get(`/api/items?per_page=100${query ? `&${query}` : ''}`);
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { data: ServerItem[] };
  return body.data;
}
