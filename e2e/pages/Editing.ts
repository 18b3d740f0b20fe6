import { expect, type Locator, type Page } from '@playwright/test';
import { Outpost } from './Outpost';

/** A created item as the API answers it (the fields the editing spec reads). */
export interface ApiItem {
  id: number;
  title: string;
  type: 'campaign' | 'task' | 'todo';
  parent_id: number | null;
  description: string | null;
  due_date: string | null;
  remind_at: string | null;
}

/** Editing after creation (issue 13, item 4): Edit details…, Move to…, the detail pages' fields. */
export class EditingPage extends Outpost {
  constructor(page: Page) {
    super(page);
  }

  private async xsrf(): Promise<string> {
    const cookie = (await this.page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
    return decodeURIComponent(cookie?.value ?? '');
  }

  /** Creates an item straight through the API (the signed-in page's cookies). */
  async apiCreate(input: { title: string; type: ApiItem['type']; parent_id?: number }): Promise<ApiItem> {
    const response = await this.page.request.post('/api/items', {
      data: input,
      headers: { 'X-XSRF-TOKEN': await this.xsrf() },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as ApiItem;
  }

  /** The item as the server has it now. */
  async apiItem(id: number): Promise<ApiItem> {
    const response = await this.page.request.get(`/api/items/${id}`);
    expect(response.status()).toBe(200);
    return (await response.json()) as ApiItem;
  }

  /** Opens a row's 'More actions' menu and picks an entry. */
  async rowAction(title: string, action: RegExp | string) {
    const row = this.row(title);
    await row.getByRole('button', { name: `More actions for ${title}` }).click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitem', { name: action }).click();
  }

  get editDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Edit details' });
  }

  get moveDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Move to…' });
  }

  /** Row menu › Edit details…; the dialog is open with its title field filled. */
  async openEditDetails(title: string): Promise<Locator> {
    await this.rowAction(title, 'Edit details…');
    await expect(this.editDialog).toBeVisible();
    await expect(this.editDialog.getByLabel('Title')).toHaveValue(title);
    return this.editDialog;
  }

  /** Row menu › Move to…; the picker is open with its search focused. */
  async openMoveTo(title: string): Promise<Locator> {
    await this.rowAction(title, 'Move to…');
    await expect(this.moveDialog).toBeVisible();
    await expect(this.moveDialog.getByRole('combobox')).toBeFocused();
    return this.moveDialog;
  }

  /** In the open picker: types a search, moves to the place with the arrow keys and presses Enter. */
  async pickPlace(search: string, place: string) {
    const input = this.moveDialog.getByRole('combobox');
    await input.fill(search);
    const option = this.moveDialog.getByRole('option').filter({ hasText: place }).first();
    await expect(option).toBeVisible();
    for (let i = 0; i < 10 && (await option.getAttribute('aria-selected')) !== 'true'; i++) {
      await input.press('ArrowDown');
    }
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await input.press('Enter');
    await expect(this.moveDialog).toBeHidden();
  }

  /** A detail page's fact field by its label ('Due', 'Reminder', 'Assigned to'). */
  fact(label: string): Locator {
    return this.main.getByLabel(`${label}:`, { exact: true });
  }
}
