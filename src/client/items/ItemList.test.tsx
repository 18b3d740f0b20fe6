// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../testkit/client/items';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { ItemList } from './ItemList';
import type { RowItem } from './ItemRow';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

const row = (id: number, title: string): RowItem => ({
  id,
  title,
  type: 'todo',
  status: 'pending',
  parent_id: null,
  assigned_to: null,
  due_date: null,
});

const items = [row(1, 'One'), row(2, 'Two'), row(3, 'Three')];

function group(title: string) {
  return screen.getByRole('group', { name: `Todo: ${title}` });
}

function tabbable() {
  return [...document.querySelectorAll<HTMLElement>('ul a[href], ul button, ul input, ul [tabindex]')].filter(
    (el) => el.tabIndex >= 0,
  );
}

/** The list with rows a test can take away, as a delete does. */
let setShown: (next: RowItem[]) => void = () => {};
function Harness() {
  const [shown, set] = useState(items);
  setShown = set;
  return <ItemList items={shown} label="Todos" />;
}

describe('ItemList keyboard', () => {
  it('is one tab stop: the first row, its controls out of the tab order', () => {
    renderWithApp(<ItemList items={items} label="Todos" />);
    expect(tabbable()).toEqual([group('One')]);
  });

  it('moves between rows with the arrows, j/k, Home and End, and the tab stop follows', () => {
    renderWithApp(<ItemList items={items} label="Todos" />);
    act(() => group('One').focus());
    fireEvent.keyDown(group('One'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(group('Two'));
    fireEvent.keyDown(group('Two'), { key: 'j' });
    expect(document.activeElement).toBe(group('Three'));
    fireEvent.keyDown(group('Three'), { key: 'j' });
    expect(document.activeElement).toBe(group('Three'));
    fireEvent.keyDown(group('Three'), { key: 'k' });
    expect(document.activeElement).toBe(group('Two'));
    expect(tabbable()).toEqual([group('Two')]);
    fireEvent.keyDown(group('Two'), { key: 'End' });
    expect(document.activeElement).toBe(group('Three'));
    fireEvent.keyDown(group('Three'), { key: 'Home' });
    expect(document.activeElement).toBe(group('One'));
    fireEvent.keyDown(group('One'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(group('One'));
  });

  it('moves focus to the next row when the focused row goes away, or the one before the last', () => {
    renderWithApp(<Harness />);
    act(() => group('Two').focus());
    // The row is removed while it has focus (a delete): the browser drops focus to the body.
    act(() => group('Two').blur());
    act(() => setShown([items[0]!, items[2]!]));
    expect(document.activeElement).toBe(group('Three'));
    act(() => group('Three').blur());
    act(() => setShown([items[0]!]));
    expect(document.activeElement).toBe(group('One'));
  });

  it('starts renaming a todo on Enter and returns focus to the row after it', () => {
    renderWithApp(<ItemList items={items} label="Todos" />);
    act(() => group('One').focus());
    fireEvent.keyDown(group('One'), { key: 'Enter' });
    const field = screen.getByRole('textbox', { name: 'Title' });
    expect(document.activeElement).toBe(field);
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(document.activeElement).toBe(group('One'));
  });
});

describe('ItemList shared marker', () => {
  /** The owner's campaign shared with two others, one of their own alone, and rows inside each. */
  async function ownersRows() {
    const shared = localItem(10, 'Garden', { type: 'campaign', my_role: 'owner', members_count: 3 });
    const alone = localItem(20, 'Attic', { type: 'campaign', my_role: 'owner', members_count: 1 });
    const task = localItem(11, 'Dig the beds', { type: 'task', parent_id: 10, my_role: 'owner' });
    const todo = localItem(12, 'Buy bulbs', { parent_id: 11, my_role: 'owner' });
    const own = localItem(21, 'Sweep', { parent_id: 20, my_role: 'owner' });
    await client.db.items.bulkPut([shared, alone, task, todo, own]);
    return [task, todo, own];
  }
  const marker = (name: string) => within(screen.getByRole('group', { name })).queryByText('Shared');

  it("marks the owner's task and todo inside a campaign shared with others, not those in one of their own", async () => {
    renderWithApp(<ItemList items={await ownersRows()} label="Queue" />);
    await waitFor(() => expect(marker('Task: Dig the beds')).not.toBeNull());
    expect(marker('Todo: Buy bulbs')).not.toBeNull();
    expect(marker('Todo: Sweep')).toBeNull();
  });

  it("leaves the marker to the header on the campaign's own page (showParent off)", async () => {
    renderWithApp(<ItemList items={await ownersRows()} label="Contents" showParent={false} />);
    await waitFor(() => expect(screen.getByRole('group', { name: 'Task: Dig the beds' })).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(marker('Task: Dig the beds')).toBeNull();
  });
});

describe('ItemList rows', () => {
  it('shows a reminder as a bell and its time on the row of an open item, none on a done one (issue 50)', () => {
    const at = new Date();
    at.setHours(9, 30, 0, 0);
    const later = new Date(at.getFullYear() + 1, 2, 4, 18, 5);
    renderWithApp(
      <ItemList
        items={[
          { ...row(1, 'Call'), remind_at: at.toISOString() },
          { ...row(2, 'Book'), remind_at: later.toISOString() },
          { ...row(3, 'Done'), status: 'completed', remind_at: at.toISOString() },
        ]}
        label="Todos"
      />,
    );
    const time = at.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    expect(within(group('Call')).getByText('Reminder').parentElement?.textContent).toBe(`Reminder${time}`);
    const book = within(group('Book')).getByText('Reminder').parentElement?.textContent ?? '';
    expect(book).toContain(String(later.getFullYear()));
    expect(book).toContain(later.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }));
    expect(within(group('Done')).queryByText('Reminder')).toBeNull();
  });
});
