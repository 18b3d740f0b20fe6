// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('the agenda (the list, phones’ default) starts today and runs forward', () => {
  // Sunday 29 November 2026, noon on this device: only Date is faked, the data's timers run.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 29, 12));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const headings = () => screen.queryAllByRole('heading', { level: 3 }).map((h) => h.textContent);

  it('on 29 November it lists the items due in the next week, not "Nothing due this month"', async () => {
    for (const [title, due_date] of [
      ['Order chairs', '2026-12-01'],
      ['Book the hall', '2026-12-03'],
      ['Print flyers', '2026-12-05'],
      ['Last month', '2026-11-20'],
      ['After Christmas', '2026-12-28'],
    ] as const)
      await client.items.create({ title, type: 'todo', due_date });
    // A phone: the list is the view the page opens on.
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query }));
    renderWithApp(<CalendarPage />, { route: '/calendar' });
    await waitFor(() => expect(screen.getByText('Order chairs')).toBeTruthy());
    expect(screen.getByRole('heading', { name: '29 Nov – 26 Dec 2026' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
    expect(headings()).toEqual(['Tue 1 Dec', 'Thu 3 Dec', 'Sat 5 Dec']);
    expect(screen.queryByText('Last month')).toBeNull();
    expect(screen.queryByText('After Christmas')).toBeNull();
    expect(screen.queryByText(/Nothing due/)).toBeNull();

    // The next four weeks, then four with nothing in them, then back to today.
    fireEvent.click(screen.getByRole('button', { name: 'Next 4 weeks' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: '27 Dec – 23 Jan 2027' })).toBeTruthy());
    await waitFor(() => expect(headings()).toEqual(['Mon 28 Dec']));
    fireEvent.click(screen.getByRole('button', { name: 'Next 4 weeks' }));
    await waitFor(() => expect(screen.getByText('Nothing due from 24 Jan to 20 Feb')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Today' }));
    await waitFor(() => expect(headings()).toEqual(['Tue 1 Dec', 'Thu 3 Dec', 'Sat 5 Dec']));
    fireEvent.click(screen.getByRole('button', { name: 'Previous 4 weeks' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: '1 Nov – 28 Nov 2026' })).toBeTruthy());
    await waitFor(() => expect(headings()).toEqual(['Fri 20 Nov']));
  });

  it('a span begun before today shows on today; nothing ahead says so for the next 4 weeks', async () => {
    const span = await client.items.create({
      title: 'Paint the fence',
      type: 'todo',
      start_date: '2026-11-26',
      due_date: '2026-11-30',
    });
    renderWithApp(<CalendarPage />, { route: '/calendar?view=list' });
    await waitFor(() => expect(chip(span.id)).not.toBeNull());
    expect(headings()).toEqual(['Today']);
    await client.items.update(span.id, { status: 'completed' });
    await waitFor(() => expect(screen.getByText('Nothing due in the next 4 weeks')).toBeTruthy());
  });
});

describe('a drag on the calendar', () => {
  it('is announced in the page’s own words only: the drag library’s live region stays silent', async () => {
    const item = await client.items.create({
      title: 'Call the plumber',
      type: 'todo',
      due_date: '2026-12-03',
    });
    renderWithApp(<CalendarPage />, { route: '/calendar?view=month&date=2026-12-01' });
    await waitFor(() => expect(chip(item.id)).not.toBeNull());
    const dayCell = (day: string) => document.querySelector<HTMLElement>(`[data-day="${day}"]`);
    // jsdom lays nothing out: the pointer is over the 4th whatever the coordinates say.
    const restore = document.elementsFromPoint;
    document.elementsFromPoint = () => [dayCell('2026-12-04')!];
    try {
      const el = chip(item.id)!;
      fireEvent.mouseDown(el, { button: 0, clientX: 10, clientY: 10 });
      fireEvent.mouseMove(document, { clientX: 40, clientY: 12 });
      fireEvent.mouseMove(document, { clientX: 80, clientY: 14 });
      fireEvent.mouseUp(document, { clientX: 80, clientY: 14 });
    } finally {
      document.elementsFromPoint = restore;
    }
    const region = document.querySelector('[id^="DndLiveRegion"]');
    expect(region).not.toBeNull();
    // A lift and a drop happened (the library's region is there and the drag ended), and it said nothing.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(region?.textContent).toBe('');
  });
});
