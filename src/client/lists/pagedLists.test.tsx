// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_PAGE } from '../app/liveData';
import { makeTestClient, renderWithApp } from '../components/items/testUtils';
import type { OutpostClient } from '../data/client';
import MyListPage from './MyListPage';
import QueuePage from './QueuePage';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
});

afterEach(() => {
  cleanup();
  client.close();
});

const rows = () => document.querySelectorAll('[data-item-id]').length;

async function addTodos(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await client.items.create({ title: `Todo ${i}`, type: 'todo' });
}

describe('long lists, a page at a time', () => {
  it("Queue shows its first page, then the rest after 'Show more'; a list that fits has no button", async () => {
    await addTodos(LIST_PAGE + 3);
    renderWithApp(<QueuePage />, { route: '/queue', path: '/queue' });
    await waitFor(() => expect(rows()).toBe(LIST_PAGE));
    // Newest first: the last one created leads.
    expect(screen.getByText(`Todo ${LIST_PAGE + 2}`)).toBeTruthy();
    expect(screen.queryByText('Todo 0')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Show more/ }));
    await waitFor(() => expect(rows()).toBe(LIST_PAGE + 3));
    expect(screen.getByText('Todo 0')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Show more/ })).toBeNull();
  });

  it("My List's tab badge counts every item, not the page shown, and follows a new one", async () => {
    await addTodos(LIST_PAGE + 1);
    renderWithApp(<MyListPage />, { route: '/my-list', path: '/my-list' });
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: /Queue/ }).textContent).toContain(`${LIST_PAGE + 1}`),
    );
    await waitFor(() => expect(rows()).toBe(LIST_PAGE));
    await act(async () => {
      await client.items.create({ title: 'One more', type: 'todo' });
    });
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: /Queue/ }).textContent).toContain(`${LIST_PAGE + 2}`),
    );
    expect(screen.getByText('One more')).toBeTruthy();
  });
});
