// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { TIMELINE_SCALES } from '../../shared/calendar';
import type { OutpostClient } from '../data/client';
import TimelinePage from './TimelinePage';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

// jsdom has no pointer capture; the bar takes the pointer on its press, as a browser lets it.
beforeEach(() => {
  HTMLElement.prototype.setPointerCapture = vi.fn();
  HTMLElement.prototype.releasePointerCapture = vi.fn();
});
afterEach(() => {
  Reflect.deleteProperty(HTMLElement.prototype, 'setPointerCapture');
  Reflect.deleteProperty(HTMLElement.prototype, 'releasePointerCapture');
});

/** The page opens on the week scale: a day is this many pixels wide. */
const DAY = TIMELINE_SCALES.week;

/** A campaign with one task from Tue 1 Dec to Thu 3 Dec 2026; `role` is the person's on the campaign. */
async function seed(role?: 'viewer') {
  const campaign = await client.items.create({ title: 'Harbour', type: 'campaign' });
  const task = await client.items.create({
    title: 'Pour the slab',
    type: 'task',
    parent_id: campaign.id,
    start_date: '2026-12-01',
    due_date: '2026-12-03',
  });
  if (role) await client.db.items.update(campaign.id, { my_role: role });
  return task;
}

const bar = () => screen.getByRole('button', { name: /^Pour the slab,/ });
const stored = async (id: number) => {
  const row = await client.db.items.get(id);
  return { start: row?.start_date?.slice(0, 10), due: row?.due_date?.slice(0, 10) };
};
const announced = () => screen.getByTestId('timeline-announcement').textContent;

describe('a timeline bar', () => {
  it('moves a day on each arrow, both its dates, and says where it went', async () => {
    const task = await seed();
    renderWithApp(<TimelinePage />);
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Tue 1 Dec to Thu 3 Dec'),
    );
    act(() => bar().focus());

    fireEvent.keyDown(bar(), { key: 'ArrowRight' });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-12-02', due: '2026-12-04' }),
    );
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Wed 2 Dec to Fri 4 Dec'),
    );
    expect(announced()).toBe('Pour the slab: Moved to Wed 2 Dec to Fri 4 Dec.');

    fireEvent.keyDown(bar(), { key: 'ArrowLeft' });
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Tue 1 Dec to Thu 3 Dec'),
    );
    fireEvent.keyDown(bar(), { key: 'ArrowLeft' });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-11-30', due: '2026-12-02' }),
    );
    await waitFor(() => expect(announced()).toBe('Pour the slab: Moved to Mon 30 Nov to Wed 2 Dec.'));
  });

  it('moves a day for every key of a held arrow, though the keys come faster than the writes', async () => {
    const task = await seed();
    renderWithApp(<TimelinePage />);
    await waitFor(() => bar());
    for (let i = 0; i < 4; i++) fireEvent.keyDown(bar(), { key: 'ArrowRight', repeat: i > 0 });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-12-05', due: '2026-12-07' }),
    );
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Sat 5 Dec to Mon 7 Dec'),
    );
    expect(announced()).toBe('Pour the slab: Moved to Sat 5 Dec to Mon 7 Dec.');
    // Then Shift+← three times at once: the end comes back three days from there, not from the stored one.
    for (let i = 0; i < 3; i++) fireEvent.keyDown(bar(), { key: 'ArrowLeft', shiftKey: true });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-12-05', due: '2026-12-05' }),
    );
  });

  it('moves only its end on Shift+arrow and only its start on Alt+Shift+arrow', async () => {
    const task = await seed();
    renderWithApp(<TimelinePage />);
    await waitFor(() => bar());

    fireEvent.keyDown(bar(), { key: 'ArrowRight', shiftKey: true });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-12-01', due: '2026-12-04' }),
    );
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Tue 1 Dec to Fri 4 Dec'),
    );
    expect(announced()).toBe('Pour the slab: Now Tue 1 Dec to Fri 4 Dec.');

    fireEvent.keyDown(bar(), { key: 'ArrowLeft', shiftKey: true, altKey: true });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-11-30', due: '2026-12-04' }),
    );
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Mon 30 Nov to Fri 4 Dec'),
    );
    expect(announced()).toBe('Pour the slab: Now Mon 30 Nov to Fri 4 Dec.');
  });

  it('keeps its end from passing its start: Shift+← on the last day left is refused, nothing written', async () => {
    const task = await client.items.create({ title: 'Pour the slab', type: 'task', due_date: '2026-12-03' });
    renderWithApp(<TimelinePage />);
    await waitFor(() => expect(bar().getAttribute('aria-label')).toBe('Pour the slab, due Thu 3 Dec'));
    const event = fireEvent.keyDown(bar(), { key: 'ArrowLeft', shiftKey: true });
    // Taken (the page does not scroll) but no change: the bar is one day already.
    expect(event).toBe(false);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(await stored(task.id)).toEqual({ start: undefined, due: '2026-12-03' });
    expect(announced()).toBe('');
  });

  it('follows a pointer dragged by three day-widths: both dates move three days on the drop', async () => {
    const task = await seed();
    renderWithApp(<TimelinePage />);
    await waitFor(() => bar());
    const box = bar().parentElement as HTMLElement;

    fireEvent.pointerDown(bar(), { button: 0, pointerId: 1, clientX: 200 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 200 + DAY });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 200 + 3 * DAY + 2 });
    // While it moves only the bar's own style changes, and its tip shows the dates it would take.
    expect(box.style.transform).toBe(`translateX(${3 * DAY}px)`);
    expect(box.lastElementChild?.textContent).toBe('Fri 4 Dec to Sun 6 Dec');
    fireEvent.pointerUp(bar(), { pointerId: 1, clientX: 200 + 3 * DAY + 2 });

    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-12-04', due: '2026-12-06' }),
    );
    await waitFor(() =>
      expect(bar().getAttribute('aria-label')).toBe('Pour the slab, Fri 4 Dec to Sun 6 Dec'),
    );
    expect(announced()).toBe('Pour the slab: Moved to Fri 4 Dec to Sun 6 Dec.');
    expect(box.style.transform).toBe('');
    // The drop is no click: the page stays where it is.
    fireEvent.click(bar());
    expect(screen.getByTestId('location').textContent).toBe('/');
  });

  it('follows a pointer dragged back by two day-widths', async () => {
    const task = await seed();
    renderWithApp(<TimelinePage />);
    await waitFor(() => bar());
    fireEvent.pointerDown(bar(), { button: 0, pointerId: 1, clientX: 300 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 300 - 2 * DAY });
    fireEvent.pointerUp(bar(), { pointerId: 1, clientX: 300 - 2 * DAY });
    await waitFor(async () =>
      expect(await stored(task.id)).toEqual({ start: '2026-11-29', due: '2026-12-01' }),
    );
  });

  it('stays put when the pointer goes less than half a day, and a cancelled drag writes nothing', async () => {
    const task = await seed();
    renderWithApp(<TimelinePage />);
    await waitFor(() => bar());
    const box = bar().parentElement as HTMLElement;
    fireEvent.pointerDown(bar(), { button: 0, pointerId: 1, clientX: 200 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 200 + DAY / 2 - 1 });
    fireEvent.pointerUp(bar(), { pointerId: 1, clientX: 200 + DAY / 2 - 1 });

    fireEvent.pointerDown(bar(), { button: 0, pointerId: 2, clientX: 200 });
    fireEvent.pointerMove(bar(), { pointerId: 2, clientX: 200 + 4 * DAY });
    expect(box.style.transform).toBe(`translateX(${4 * DAY}px)`);
    fireEvent.pointerCancel(bar(), { pointerId: 2 });
    expect(box.style.transform).toBe('');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(await stored(task.id)).toEqual({ start: '2026-12-01', due: '2026-12-03' });
  });

  it('on a campaign the person only views: no key or drag moves it, and it says it is no movable bar', async () => {
    const task = await seed('viewer');
    renderWithApp(<TimelinePage />);
    await waitFor(() => bar());
    expect(bar().getAttribute('aria-roledescription')).toBeNull();
    expect(document.querySelector('[data-handle]')).toBeNull();

    const key = fireEvent.keyDown(bar(), { key: 'ArrowRight' });
    expect(key).toBe(true);
    fireEvent.keyDown(bar(), { key: 'ArrowRight', shiftKey: true });
    fireEvent.pointerDown(bar(), { button: 0, pointerId: 1, clientX: 200 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 200 + 3 * DAY });
    fireEvent.pointerUp(bar(), { pointerId: 1, clientX: 200 + 3 * DAY });
    expect((bar().parentElement as HTMLElement).style.transform).toBe('');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(await stored(task.id)).toEqual({ start: '2026-12-01', due: '2026-12-03' });
    expect(announced()).toBe('');
    // It still opens the task.
    fireEvent.click(bar());
    expect(screen.getByTestId('location').textContent).toBe(`/tasks/${task.id}`);
  });
});
