// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { localItem, serverItem } from '../../../testkit/client/items';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { dropFirstRows, firstRowsStored, showFirstRows } from '../data/store/firstRows';
import { fromServer } from '../data/store/localItems';
import { ItemList } from '../items/ItemList';
import TodoDetailPage from './TodoDetailPage';

let client: OutpostClient;

/** The account whose device is pulling its first page. */
const signedIn = {
  id: 1,
  name: 'Me',
  phone: '+15555550100',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

eachTestClient((made) => {
  client = made;
});

describe('TodoDetailPage', () => {
  it("shows a todo's facts, a link back to its task and the timeline (a guest's comments stay on the device)", async () => {
    const task = await client.items.create({ title: 'Paint the shed', type: 'task' });
    const todo = await client.items.create({
      title: 'Buy brushes',
      type: 'todo',
      parent_id: task.id,
      due_date: '2026-12-20',
    });
    renderWithApp(<TodoDetailPage />, { route: `/todos/${todo.id}`, path: '/todos/:id' });
    await waitFor(() => expect(screen.getByRole('heading', { name: /Buy brushes/ })).toBeTruthy());
    expect(screen.getByText('Created by:')).toBeTruthy();
    expect(screen.getByText('Due:')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /Paint the shed/ }).length).toBeGreaterThan(0);
    expect(await screen.findByRole('heading', { name: 'Timeline' })).toBeTruthy();
    expect(
      screen.getByText(
        'Your comments and changes stay on this device. Sign in to share them and to mention people.',
      ),
    ).toBeTruthy();
  });

  it('says when the todo does not exist, or the id names a task', async () => {
    const task = await client.items.create({ title: 'Paint the shed', type: 'task' });
    renderWithApp(<TodoDetailPage />, { route: `/todos/${task.id}`, path: '/todos/:id' });
    await waitFor(() => expect(screen.getByText('Todo not found')).toBeTruthy());
    cleanup();
    renderWithApp(<TodoDetailPage />, { route: '/todos/999', path: '/todos/:id' });
    await waitFor(() => expect(screen.getByText('Todo not found')).toBeTruthy());
  });

  it('L17: one opened from Home while its first page is shown from memory loads until stored, then shows', async () => {
    const todo = serverItem(41, 'Pulled a moment ago');
    client.auth.setState({ user: signedIn, isAuthenticated: true, isAnonymous: false, restored: true });
    act(() => showFirstRows(client.db, [todo]));
    renderWithApp(<TodoDetailPage />, { route: '/todos/41', path: '/todos/:id' });
    await waitFor(() => expect(screen.getByText('Loading todo...')).toBeTruthy());
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Todo not found')).toBeNull();
    await client.db.items.put(fromServer(todo));
    act(() => {
      firstRowsStored(client.db);
      dropFirstRows(client.db);
    });
    await waitFor(() => expect(screen.getByRole('heading', { name: /Pulled a moment ago/ })).toBeTruthy());
  });

  it('L17: one whose first page was never stored is not found once the rows go', async () => {
    client.auth.setState({ user: signedIn, isAuthenticated: true, isAnonymous: false, restored: true });
    act(() => showFirstRows(client.db, [serverItem(42, 'Never stored')]));
    renderWithApp(<TodoDetailPage />, { route: '/todos/42', path: '/todos/:id' });
    await waitFor(() => expect(screen.getByText('Loading todo...')).toBeTruthy());
    act(() => dropFirstRows(client.db));
    await waitFor(() => expect(screen.getByText('Todo not found')).toBeTruthy());
  });
});

describe("a row's comment count", () => {
  it('shows a speech bubble with the number, named "3 comments", linking to the timeline; nothing at 0', () => {
    const items = [
      localItem(1, 'Talked about', { comments_count: 3 }),
      localItem(2, 'Once', { comments_count: 1 }),
      localItem(3, 'Quiet', { comments_count: 0 }),
      localItem(4, 'From before the count'),
    ];
    renderWithApp(<ItemList items={items} label="Todos" />);
    const row = (title: string) => screen.getByRole('group', { name: `Todo: ${title}` });
    const three = within(row('Talked about')).getByRole('link', { name: '3 comments' });
    expect(three.getAttribute('href')).toBe('/todos/1#timeline');
    expect(within(row('Once')).getByRole('link', { name: '1 comment' })).toBeTruthy();
    for (const quiet of ['Quiet', 'From before the count'])
      expect(within(row(quiet)).queryByRole('link', { name: /comments?$/ })).toBeNull();
    // A todo's title still renames in place; its page is one 'Open' away.
    expect(within(row('Quiet')).getByRole('button', { name: 'Edit title: Quiet' })).toBeTruthy();
    expect(within(row('Quiet')).getByRole('link', { name: 'Open Quiet' }).getAttribute('href')).toBe(
      '/todos/3',
    );
  });
});
