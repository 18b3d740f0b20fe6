// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { addDays, dayKey } from '../../shared/agenda';
import type { OutpostClient } from '../data/client';
import { toastStore } from '../stores/toastStore';
import TodayPage from './TodayPage';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
});

afterEach(() => {
  cleanup();
  client.close();
  toastStore.getState().clear();
});

/** The titles of a list's rows, in order. */
const titles = (list: HTMLElement) =>
  [...list.querySelectorAll('[data-item-id] button[aria-label^="Mark as done: "]')].map((b) =>
    b.getAttribute('aria-label')?.slice('Mark as done: '.length),
  );

describe('Today', () => {
  it('O6: Alt+↑ from a row puts it among the p1s: one write of its key and priority, said and undoable; overdue has no grips', async () => {
    const today = dayKey(new Date());
    await client.items.create({ title: 'Late', type: 'todo', due_date: addDays(today, -2) });
    const urgent = await client.items.create({ title: 'Urgent', type: 'todo', due_date: today, priority: 1 });
    const later = await client.items.create({ title: 'Later', type: 'todo', due_date: today });
    await client.items.create({ title: 'Last', type: 'todo', due_date: today });
    renderWithApp(<TodayPage />);
    const list = await waitFor(() => screen.getByRole('list', { name: 'Due today' }));
    const grip = await waitFor(() => screen.getByRole('button', { name: 'Move “Later”' }));
    expect(titles(list)).toEqual(['Urgent', 'Later', 'Last']);
    expect(screen.getByRole('list', { name: 'Overdue' }).querySelector('[data-drag-handle]')).toBeNull();

    grip.focus();
    await act(async () => {
      fireEvent.keyDown(grip, { key: 'ArrowUp', altKey: true });
    });
    await waitFor(() => expect(titles(list)).toEqual(['Later', 'Urgent', 'Last']));
    const stored = await client.db.items.get(later.id);
    expect(stored?.priority).toBe(1);
    expect((stored?.sort_key ?? '') < ((await client.db.items.get(urgent.id))?.sort_key ?? '')).toBe(true);
    expect(screen.getByText('“Later” moved to 1 of 3, now p1.')).toBeTruthy();
    const toast = await waitFor(() => {
      const found = toastStore.getState().queue.find((t) => t.title === 'Moved, now p1');
      expect(found?.action?.label).toBe('Undo');
      return found;
    });
    expect(toast?.description).toBe('“Later” is now 1 of 3.');
    // The key and the priority were one change: one Undo takes both back.
    await act(async () => toast?.action?.onClick());
    await waitFor(async () => expect((await client.db.items.get(later.id))?.priority).toBe(4));
    await waitFor(() => expect(titles(list)).toEqual(['Urgent', 'Later', 'Last']));
  });
});
