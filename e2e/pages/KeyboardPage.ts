import { expect, type Locator } from '@playwright/test';
import { Outpost, QUICK_ADD_TOAST } from './Outpost';

/** The app driven from the keyboard: list rows as tab stops, the search dialog, the shortcut help. */
export class KeyboardPage extends Outpost {
  /** The list of Home's open tab ('All items', …). */
  list(name: string | RegExp = /items$/): Locator {
    return this.main.getByRole('list', { name }).filter({ visible: true }).first();
  }

  /** A row as the roving tab stop it is: a group named '{Type}: {title}'. */
  rowGroup(title: string): Locator {
    return this.main.getByRole('group', {
      name: new RegExp(`^(Campaign|Task|Todo): ${escapeRegExp(title)}$`),
    });
  }

  /** The element that has focus, described for assertions: its role-ish name or text. */
  async focusedLabel(): Promise<string> {
    return this.page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return 'body';
      return el.getAttribute('aria-label') ?? el.getAttribute('placeholder') ?? el.textContent ?? el.tagName;
    });
  }

  async expectFocused(label: string | RegExp) {
    await expect.poll(() => this.focusedLabel()).toMatch(label);
  }

  /** Adds todos one after another with the quick add and Enter (the spec: Enter submits a todo). */
  async quickAddTodos(titles: string[]) {
    const form = this.quickAddForm();
    await form.getByRole('textbox').first().click();
    const todo = form.getByRole('radio', { name: 'Todo', exact: true });
    if ((await todo.count()) > 0 && !(await todo.isChecked()))
      await form.getByText('Todo', { exact: true }).click();
    const title = form.getByRole('textbox', { name: 'Todo title' });
    for (const t of titles) {
      await title.fill(t);
      await title.press('Enter');
      await expect(title).toHaveValue('');
      await expect(this.row(t)).toBeVisible();
    }
    // The toast's region mounts with the first toast (its chunk loads then): a Tab pressed before it
    // has would meet a tab order that changes under it (CI once tabbed past the rows into nothing, and
    // Shift+Tab came back into the toast).
    await expect(this.toast(QUICK_ADD_TOAST)).toBeVisible();
  }

  searchDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Search items' });
  }

  shortcutHelp(): Locator {
    return this.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
