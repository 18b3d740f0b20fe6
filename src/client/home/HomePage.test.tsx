// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localItem, serverItem } from '../../../testkit/client/items';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { ItemType } from '../../shared/item';
import type { OutpostClient } from '../data/client';
import { dropFirstRows, firstRowsStored, showFirstRows } from '../data/store/firstRows';
import { fromServer } from '../data/store/localItems';
import type { LocalItem } from '../data/store/types';
import HomePage from './HomePage';

let client: OutpostClient;

const guest = {
  id: 0,
  name: 'Guest User',
  phone: '',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/** A guest's own item (user 0, stored on the device only). */
function guestItem(id: number, type: ItemType): LocalItem {
  const at = new Date(Date.UTC(2026, 0, 1) + id * 60_000).toISOString();
  return localItem(id, `${type} number ${id}`, {
    type,
    user_id: 0,
    remind_at: null,
    created_at: at,
    updated_at: at,
    created_by: guest,
    user: guest,
    _syncStatus: 'local',
    _localVersion: 1,
  });
}

beforeEach(() => {
  client = makeTestClient();
});

afterEach(() => {
  cleanup();
  client.close();
});

describe('HomePage', () => {
  it('shows the heading, the tabs and the All empty text', async () => {
    renderWithApp(<HomePage />);
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(screen.getByText('Everything happening in your world')).toBeTruthy();
    for (const name of ['All', 'Campaigns', 'Tasks', 'Todos'])
      expect(screen.getByRole('tab', { name })).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByText('No items yet! Create your first campaign to get started.')).toBeTruthy(),
    );
  });

  it('keeps fewer than 100 rows in the DOM with 10,000 items, before and after View All', async () => {
    const types: ItemType[] = ['campaign', 'task', 'todo'];
    await client.db.items.bulkPut(
      Array.from({ length: 10_000 }, (_, i) => guestItem(i + 1, types[i % 3] ?? 'todo')),
    );
    renderWithApp(<HomePage />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'View All (10000 items)' })).toBeTruthy(), {
      timeout: 10_000,
    });
    const rows = () => document.querySelectorAll('[data-item-id]').length;
    expect(rows()).toBe(20);
    // Newest first: the highest id leads.
    expect(document.querySelector('[data-item-id]')?.getAttribute('data-item-id')).toBe('10000');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'View All (10000 items)' })));
    expect(rows()).toBeGreaterThan(0);
    expect(rows()).toBeLessThan(100);
    expect(screen.getByRole('button', { name: 'Show Less' })).toBeTruthy();
  }, 30_000);

  describe("a fresh device's first page (SYNC.md L17)", () => {
    const me = { ...guest, id: 1, name: 'Me', phone: '+15555550100' };
    const page = [
      serverItem(1, 'First campaign', { type: 'campaign' }, 1),
      serverItem(2, 'Newest todo', {}, 2),
    ];

    it('L17: is on All from memory while nothing is stored, and stays once stored until the list reads it', async () => {
      client.auth.setState({ user: me, isAuthenticated: true, isAnonymous: false, restored: true });
      renderWithApp(<HomePage />);
      await waitFor(() => expect(screen.getByText(/No items yet!/)).toBeTruthy());
      act(() => showFirstRows(client.db, page));
      await waitFor(() => expect(screen.getByText('Newest todo')).toBeTruthy());
      expect(screen.getByText('First campaign')).toBeTruthy();
      await client.db.items.bulkPut(page.map((i) => fromServer(i)));
      act(() => {
        firstRowsStored(client.db);
        dropFirstRows(client.db);
      });
      expect(screen.queryByText(/No items yet!/)).toBeNull();
      await waitFor(() => expect(screen.getByText('Newest todo')).toBeTruthy());
      expect(screen.queryByText(/No items yet!/)).toBeNull();
    });

    it('L17: goes when its pull ends unstored, and a guest never sees it', async () => {
      renderWithApp(<HomePage />);
      act(() => showFirstRows(client.db, page));
      await waitFor(() => expect(screen.getByText(/No items yet!/)).toBeTruthy());
      expect(screen.queryByText('Newest todo')).toBeNull();
      act(() =>
        client.auth.setState({ user: me, isAuthenticated: true, isAnonymous: false, restored: true }),
      );
      await waitFor(() => expect(screen.getByText('Newest todo')).toBeTruthy());
      act(() => dropFirstRows(client.db));
      await waitFor(() => expect(screen.getByText(/No items yet!/)).toBeTruthy());
      expect(screen.queryByText('Newest todo')).toBeNull();
    });
  });
});
