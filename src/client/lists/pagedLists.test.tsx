// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { LIST_PAGE } from '../data/live';
import MyListPage from './MyListPage';
import QueuePage from './QueuePage';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

async function addTodos(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await client.items.create({ title: `Todo ${i}`, type: 'todo' });
}

const showMore = () => screen.queryByRole('button', { name: /^Show more/ });

describe('long lists, a page at a time', () => {
  it("Queue shows its first page, newest first, then the rest after 'Show more'", async () => {
    await addTodos(LIST_PAGE + 3);
    renderWithApp(<QueuePage />, { route: '/queue', path: '/queue' });
    await waitFor(() => expect(showMore()?.textContent).toBe(`Show more (${LIST_PAGE} shown)`));
    expect(screen.getByText(`Todo ${LIST_PAGE + 2}`)).toBeTruthy();
    fireEvent.click(showMore()!);
    // The whole list is shown: nothing more to ask for.
    await waitFor(() => expect(showMore()).toBeNull());
  });

  it("a list that fits one page has no 'Show more'", async () => {
    await addTodos(3);
    renderWithApp(<QueuePage />, { route: '/queue', path: '/queue' });
    await waitFor(() => expect(screen.getByText('Todo 0')).toBeTruthy());
    expect(document.querySelectorAll('[data-item-id]')).toHaveLength(3);
    expect(showMore()).toBeNull();
  });

  it("My List's tab badge counts every item, not the page shown, and follows a new one", async () => {
    await addTodos(LIST_PAGE + 1);
    renderWithApp(<MyListPage />, { route: '/my-list', path: '/my-list' });
    const badge = () => screen.getByRole('tab', { name: /Queue/ }).textContent;
    await waitFor(() => expect(badge()).toContain(`${LIST_PAGE + 1}`));
    await waitFor(() =>
      expect(showMore()?.textContent).toBe(`Show more (${LIST_PAGE} of ${LIST_PAGE + 1} shown)`),
    );
    await act(async () => {
      await client.items.create({ title: 'One more', type: 'todo' });
    });
    await waitFor(() => expect(badge()).toContain(`${LIST_PAGE + 2}`));
    expect(screen.getByText('One more')).toBeTruthy();
  });
});
