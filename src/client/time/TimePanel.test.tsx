// @vitest-environment jsdom
/**
 * An item page's time panel on the real local data layer (a guest device on fake-indexeddb), with the
 * header's timer feed mounted as every screen has it: the total at the top and the entries under it
 * come from the same minutes (issue 62: a campaign showed 'Time 1 h 16 m' above 'No time tracked').
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { TimePanel } from './TimePanel';
import { TimerFeed } from './TimerFeed';
import { timerStore } from './timerStore';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

// The store outlives a test (one per page, as in the app): the next test starts with nothing spent.
afterEach(() => timerStore.setState({ running: null, spent: new Map() }));

/** Yesterday at `hour`:`minute`, local time: a span the entry form's rule (X12) accepts. */
const yesterdayAt = (hour: number, minute = 0) => {
  const d = new Date();
  d.setDate(d.getDate() - 1);
  d.setHours(hour, minute, 0, 0);
  return d.toISOString();
};

type PanelItem = Parameters<typeof TimePanel>[0]['item'];

/** The panel of `item` under the header's feed, as an item page shows it. */
function renderPanel(item: PanelItem) {
  renderWithApp(
    <>
      <TimerFeed />
      <TimePanel item={item} readOnly={false} />
    </>,
  );
  return screen.getByRole('region', { name: 'Time' });
}

const spentShown = (panel: HTMLElement) => panel.querySelector('[data-page-spent]')?.textContent;
const entryRows = (panel: HTMLElement) => [...panel.querySelectorAll<HTMLElement>('[data-time-entry]')];

describe('the time panel on an item page', () => {
  it('X11: a campaign whose time is all on its task and todo shows the total and every entry it sums, never the empty text', async () => {
    const campaign = await client.items.create({ title: 'Spring fair', type: 'campaign' });
    const task = await client.items.create({ title: 'Book the hall', type: 'task', parent_id: campaign.id });
    const todo = await client.items.create({ title: 'Call the caretaker', type: 'todo', parent_id: task.id });
    await client.send('time.addManual', {
      itemId: task.id,
      startedAt: yesterdayAt(9),
      endedAt: yesterdayAt(9, 45),
    });
    await client.send('time.addManual', {
      itemId: todo.id,
      startedAt: yesterdayAt(14),
      endedAt: yesterdayAt(14, 31),
    });

    const panel = renderPanel(campaign);
    await waitFor(() => expect(entryRows(panel)).toHaveLength(2));
    await waitFor(() => expect(spentShown(panel)).toBe('Spent 1 h 16 m'));
    // Newest first, each naming the child it sits on, with its own minutes.
    const [first, second] = entryRows(panel);
    expect(first?.textContent).toContain('31 m');
    expect(within(first as HTMLElement).getByText('Call the caretaker', { exact: false })).toBeTruthy();
    expect(second?.textContent).toContain('45 m');
    expect(within(second as HTMLElement).getByText('Book the hall', { exact: false })).toBeTruthy();
    expect(panel.textContent).not.toMatch(/No time tracked/);
  });

  it('an item with no time says so, with nothing spent above it and no entry rows', async () => {
    const campaign = await client.items.create({ title: 'Autumn fair', type: 'campaign' });
    const todo = await client.items.create({ title: 'Print posters', type: 'todo', parent_id: campaign.id });
    // Time elsewhere on the device (on its parent) is not this todo's.
    await client.send('time.addManual', {
      itemId: campaign.id,
      startedAt: yesterdayAt(10),
      endedAt: yesterdayAt(11),
    });

    const panel = renderPanel(todo);
    expect(await within(panel).findByText('No time tracked yet.')).toBeTruthy();
    // Let the feed's spent read land: it must not put the parent's hour on this todo.
    await waitFor(() => expect(timerStore.getState().spent.get(campaign.id)).toBe(60));
    expect(spentShown(panel)).toBe('Spent 0 m');
    expect(entryRows(panel)).toEqual([]);
  });
});
