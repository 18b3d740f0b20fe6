// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { NotificationEntry } from '../../shared/notifications';
import type { OutpostClient } from '../data/client';
import NotificationsPage from './NotificationsPage';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

const user = { id: 7, name: 'Blair', phone: '+15550000007', created_at: '', updated_at: '' };
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const entries: NotificationEntry[] = [
  {
    id: 2,
    kind: 'assigned',
    text: 'Alex assigned you task “Pack tents”',
    item: { id: 41, type: 'task', title: 'Pack tents' },
    actor: { id: 3, name: 'Alex' },
    created_at: minutesAgo(2),
    read_at: null,
  },
  {
    id: 1,
    kind: 'completed',
    text: 'Alex completed task “Old thing”',
    item: null,
    actor: { id: 3, name: 'Alex' },
    created_at: minutesAgo(90),
    read_at: minutesAgo(30),
  },
];

function signInAs() {
  client.auth.setState({ user, isAuthenticated: true, isAnonymous: false });
  client.notificationState.setState({ userId: user.id, entries, unread: 1, fromCache: true });
}

describe('NotificationsPage', () => {
  it("keeps the spec's heading and empty text for a guest", () => {
    renderWithApp(<NotificationsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Recent Notifications' })).toBeTruthy();
    expect(screen.getByText('No notifications yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('lists entries newest first with their time, makes unread ones stand out and marks all read', async () => {
    signInAs();
    renderWithApp(<NotificationsPage />);
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const rows = list.querySelectorAll('li');
    expect([...rows].map((r) => r.textContent)).toEqual([
      expect.stringContaining('Alex assigned you task “Pack tents”'),
      expect.stringContaining('Alex completed task “Old thing”'),
    ]);
    expect(rows[0]?.textContent).toContain('2 minutes ago');
    expect(rows[0]?.textContent).toContain('Unread');
    expect(rows[1]?.textContent).not.toContain('Unread');
    expect(rows[1]?.textContent).toContain('no longer available');
    expect(screen.getByText(/Showing what was last fetched/)).toBeTruthy();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    });
    await waitFor(() => expect(client.notificationState.getState().unread).toBe(0));
    expect(list.textContent).not.toContain('Unread');
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('opens the item of an entry and marks the entry read', async () => {
    signInAs();
    renderWithApp(<NotificationsPage />);
    const link = await screen.findByRole('link', { name: /Alex assigned you task “Pack tents”/ });
    await act(async () => {
      fireEvent.click(link);
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tasks/41'));
    expect(client.notificationState.getState().entries?.[0]?.read_at).not.toBeNull();
  });
});
