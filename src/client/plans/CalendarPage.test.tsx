// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import CalendarPage from './CalendarPage';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

const due = async (id: number) => (await client.db.items.get(id))?.due_date?.slice(0, 10);
const announced = () => screen.getByTestId('calendar-announcement').textContent;
/** The chip of the item's own dates (not a next occurrence). */
const chip = (id: number) => document.querySelector<HTMLElement>(`[data-item-id="${id}"][data-own="true"]`);
/** Which column of its week row a chip sits in (1 Monday … 7 Sunday). */
const column = (el: HTMLElement | null) => el?.parentElement?.style.gridColumn;

describe('the calendar by keyboard', () => {
  it('→ on a focused item moves it to the next day: stored, announced, shown there, focus kept', async () => {
    const item = await client.items.create({
      title: 'Call the plumber',
      type: 'todo',
      due_date: '2026-12-03',
    });
    renderWithApp(<CalendarPage />, { route: '/calendar?view=month&date=2026-12-01' });
    await waitFor(() =>
      expect(chip(item.id)?.getAttribute('aria-label')).toBe('Call the plumber, todo, Thu 3 Dec'),
    );
    expect(column(chip(item.id))).toBe('4 / 5');
    act(() => chip(item.id)?.focus());

    fireEvent.keyDown(chip(item.id) as HTMLElement, { key: 'ArrowRight' });
    await waitFor(async () => expect(await due(item.id)).toBe('2026-12-04'));
    await waitFor(() =>
      expect(chip(item.id)?.getAttribute('aria-label')).toBe('Call the plumber, todo, Fri 4 Dec'),
    );
    expect(announced()).toBe('Call the plumber: Moved to Fri 4 Dec.');
    expect(column(chip(item.id))).toBe('5 / 6');
    await waitFor(() => expect(document.activeElement).toBe(chip(item.id)));

    // ↓ a week, from where the focus now is.
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowDown' });
    await waitFor(async () => expect(await due(item.id)).toBe('2026-12-11'));
    await waitFor(() => expect(announced()).toBe('Call the plumber: Moved to Fri 11 Dec.'));
  });

  it('counts every key of a held arrow, though the keys come faster than the writes', async () => {
    const item = await client.items.create({
      title: 'Call the plumber',
      type: 'todo',
      due_date: '2026-12-01',
    });
    renderWithApp(<CalendarPage />, { route: '/calendar?view=month&date=2026-12-01' });
    await waitFor(() => expect(chip(item.id)).not.toBeNull());
    act(() => chip(item.id)?.focus());
    for (let i = 0; i < 4; i++)
      fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowRight', repeat: i > 0 });
    await waitFor(async () => expect(await due(item.id)).toBe('2026-12-05'));
    await waitFor(() => expect(announced()).toBe('Call the plumber: Moved to Sat 5 Dec.'));
    await waitFor(() => expect(document.activeElement).toBe(chip(item.id)));
    // Settled, the next key builds on the stored day again.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowLeft' });
    await waitFor(async () => expect(await due(item.id)).toBe('2026-12-04'));
  });

  it('a move past the month’s end takes the view to the next month, and the focus with it', async () => {
    const item = await client.items.create({ title: 'Pay rent', type: 'todo', due_date: '2026-11-30' });
    renderWithApp(<CalendarPage />, { route: '/calendar?view=month&date=2026-11-10' });
    await waitFor(() => expect(chip(item.id)).not.toBeNull());
    expect(screen.getByRole('heading', { name: 'November 2026' })).toBeTruthy();
    act(() => chip(item.id)?.focus());
    // A week on is 7 Dec, past November: the page turns to December so the focus can follow.
    fireEvent.keyDown(chip(item.id) as HTMLElement, { key: 'ArrowDown' });
    await waitFor(async () => expect(await due(item.id)).toBe('2026-12-07'));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'December 2026' })).toBeTruthy());
    await waitFor(() => expect(document.activeElement).toBe(chip(item.id)));
  });

  it('a next occurrence of a repeating item takes no keys: only the item’s own dates move', async () => {
    const item = await client.items.create({
      title: 'Water plants',
      type: 'todo',
      due_date: '2026-12-01',
      recurrence: 'FREQ=WEEKLY',
    });
    renderWithApp(<CalendarPage />, { route: '/calendar?view=month&date=2026-12-01' });
    const next = await waitFor(() => {
      const el = document.querySelector<HTMLElement>(`[data-item-id="${item.id}"][data-own="false"]`);
      expect(el).not.toBeNull();
      return el as HTMLElement;
    });
    expect(next.getAttribute('aria-label')).toBe('Water plants, todo, Tue 8 Dec, next occurrence');
    fireEvent.keyDown(next, { key: 'ArrowRight' });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(await due(item.id)).toBe('2026-12-01');
    expect(announced()).toBe('');
  });
});
