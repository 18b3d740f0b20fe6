// @vitest-environment jsdom
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import LabelPage from './LabelPage';
import MyListPage from './MyListPage';
import QueuePage from './QueuePage';

// Each write goes through IndexedDB and a live re-read: on a loaded machine that takes over a second.
configure({ asyncUtilTimeout: 5_000 });

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

async function seed() {
  await client.items.create({ title: 'Buy stamps', type: 'todo', labels: ['Errand'] });
  await client.items.create({ title: 'Fix the bike', type: 'todo', labels: ['home', 'errand'] });
  await client.items.create({ title: 'Read a book', type: 'todo' });
}

const rows = () =>
  [...document.querySelectorAll('[data-item-id] button[aria-label^="Edit title: "]')].map(
    (b) => b.textContent,
  );

describe('filtering a list by label', () => {
  it('Queue lists its labels with counts (ignoring case); a chip filters, pressed again shows all', async () => {
    await seed();
    renderWithApp(<QueuePage />, { route: '/queue', path: '/queue' });
    const chips = await screen.findByRole('group', { name: 'Filter by label' });
    // Named as first written in the list (newest first: 'errand' before 'Errand'), sorted by name.
    expect(
      within(chips)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['errand, 2 items', 'home, 1 item']);
    await waitFor(() => expect(rows()).toHaveLength(3));
    const errand = within(chips).getByRole('button', { name: 'errand, 2 items' });
    fireEvent.click(errand);
    expect(errand.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(rows().sort()).toEqual(['Buy stamps', 'Fix the bike']));
    fireEvent.click(within(chips).getByRole('button', { name: 'home, 1 item' }));
    await waitFor(() => expect(rows()).toEqual(['Fix the bike']));
    fireEvent.click(within(chips).getByRole('button', { name: 'home, 1 item' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it('My List filters its open tab the same way', async () => {
    await seed();
    renderWithApp(<MyListPage />, { route: '/my-list', path: '/my-list' });
    const chips = await screen.findByRole('group', { name: 'Filter by label' });
    fireEvent.click(within(chips).getByRole('button', { name: 'home, 1 item' }));
    await waitFor(() => expect(rows()).toEqual(['Fix the bike']));
  });

  it('shows no chips while no item has a label', async () => {
    await client.items.create({ title: 'Plain', type: 'todo' });
    renderWithApp(<QueuePage />, { route: '/queue', path: '/queue' });
    await waitFor(() => expect(rows()).toEqual(['Plain']));
    expect(screen.queryByRole('group', { name: 'Filter by label' })).toBeNull();
  });
});

describe('/labels/{name}', () => {
  it('lists every item with the label, ignoring case, open ones first', async () => {
    await seed();
    const done = await client.items.create({ title: 'Post the parcel', type: 'todo', labels: ['ERRAND'] });
    await client.items.setStatus(done.id, 'completed');
    renderWithApp(<LabelPage />, { route: '/labels/errand', path: '/labels/:name' });
    expect(await screen.findByText('Label · 3 items, 2 open')).toBeTruthy();
    const titles = [...document.querySelectorAll('[data-item-id]')].map(
      (row) => row.querySelector('[aria-label^="Mark as"], button')?.getAttribute('aria-label') ?? '',
    );
    expect(titles).toHaveLength(3);
    expect(titles[2]).toContain('Post the parcel');
  });

  it('says so when nothing carries the label', async () => {
    renderWithApp(<LabelPage />, { route: '/labels/on%20hold', path: '/labels/:name' });
    expect(await screen.findByText('Nothing is labelled “on hold”')).toBeTruthy();
  });
});
