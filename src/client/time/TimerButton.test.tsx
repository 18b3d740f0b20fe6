// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import type { LocalItem } from '../data/store/types';
import { ItemRow } from '../items/ItemRow';
import { TimerButton } from './TimerButton';
import { TimerFeed } from './TimerFeed';
import { TimeWatch } from './TimeWatch';
import { timerStore } from './timerStore';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

// The store outlives a test (one per page, as in the app): the next test starts with no timer seen.
afterEach(() => timerStore.setState({ running: null, spent: new Map() }));

/** The header's feed and watch, as every screen has them, and a timer button for each of `items`. */
function Screen({ items, showLabel }: { items: { id: number; title: string }[]; showLabel?: boolean }) {
  return (
    <>
      <TimerFeed />
      <TimeWatch />
      {items.map((item) => (
        <TimerButton key={item.id} item={item} showLabel={showLabel} />
      ))}
    </>
  );
}

const entries = () => client.db.timeEntries.toArray();
const running = async () => (await entries()).filter((e) => e.ended_at === null);
const watch = () => document.querySelector<HTMLElement>('[data-running-timer]');

describe('the timer button', () => {
  it('starts a timer on its item, says Stop then, and the header shows it; Stop ends it', async () => {
    const task = await client.items.create({ title: 'Dig the beds', type: 'task' });
    renderWithApp(<Screen items={[task]} />);
    const start = await screen.findByRole('button', { name: 'Start timer on Dig the beds' });
    expect(start.dataset.timerButton).toBe('idle');
    expect(watch()).toBeNull();

    fireEvent.click(start);
    await waitFor(() => expect(start.getAttribute('aria-label')).toBe('Stop timer on Dig the beds'));
    expect(start.dataset.timerButton).toBe('running');
    expect((await running()).map((e) => e.item_id)).toEqual([task.id]);
    // The header: the item, its elapsed time and a way there.
    const header = within(watch() as HTMLElement);
    expect(header.getByRole('link').getAttribute('aria-label')).toMatch(
      /^Timer running on Dig the beds: 0:00:0\d\. Open it$/,
    );
    expect(header.getByRole('link').getAttribute('href')).toBe(`/tasks/${task.id}`);

    fireEvent.click(start);
    await waitFor(() => expect(start.getAttribute('aria-label')).toBe('Start timer on Dig the beds'));
    expect(start.dataset.timerButton).toBe('idle');
    await waitFor(() => expect(watch()).toBeNull());
    expect(await running()).toEqual([]);
    const [ended] = await entries();
    expect(ended?.item_id).toBe(task.id);
    expect(ended?.ended_at).not.toBeNull();
  });

  it('starting on a second item ends the first at that instant: only one shows Stop', async () => {
    const dig = await client.items.create({ title: 'Dig', type: 'task' });
    const sow = await client.items.create({ title: 'Sow', type: 'todo' });
    renderWithApp(<Screen items={[dig, sow]} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Start timer on Dig' }));
    await waitFor(() => expect(watch()).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Start timer on Sow' }));

    await screen.findByRole('button', { name: 'Start timer on Dig' });
    expect(document.querySelector(`[data-timer-button="running"]`)?.getAttribute('aria-label')).toBe(
      'Stop timer on Sow',
    );
    expect(
      within(watch() as HTMLElement)
        .getByRole('link')
        .getAttribute('aria-label'),
    ).toMatch(/^Timer running on Sow:/);
    expect((await running()).map((e) => e.item_id)).toEqual([sow.id]);
    const first = (await entries()).find((e) => e.item_id === dig.id);
    const second = (await entries()).find((e) => e.item_id === sow.id);
    expect(first?.ended_at).toBe(second?.started_at);
  });

  it('the header’s Stop ends the timer the button started, and the button says Start again', async () => {
    const task = await client.items.create({ title: 'Dig', type: 'task' });
    renderWithApp(<Screen items={[task]} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Start timer on Dig' }));
    await waitFor(() => expect(watch()).not.toBeNull());
    // Two buttons stop it now: the item's and the header's.
    expect(screen.getAllByRole('button', { name: 'Stop timer on Dig' })).toHaveLength(2);
    fireEvent.click(within(watch() as HTMLElement).getByRole('button', { name: 'Stop timer on Dig' }));
    await screen.findByRole('button', { name: 'Start timer on Dig' });
    expect(watch()).toBeNull();
    expect(await running()).toEqual([]);
  });

  it('with its words shown, they are its name and they change with it', async () => {
    const task = await client.items.create({ title: 'Dig', type: 'task' });
    renderWithApp(<Screen items={[task]} showLabel />);
    const button = await screen.findByRole('button', { name: 'Start timer' });
    expect(button.getAttribute('aria-label')).toBeNull();
    fireEvent.click(button);
    await screen.findByRole('button', { name: 'Stop timer' });
    expect((await running()).map((e) => e.item_id)).toEqual([task.id]);
  });
});

describe('a row’s timer key', () => {
  const rowOf = async (id: number) => (await client.db.items.get(id)) as LocalItem;

  it('T on a focused row starts its timer and T again stops it', async () => {
    const task = await client.items.create({ title: 'Dig', type: 'task' });
    renderWithApp(
      <>
        <TimerFeed />
        <TimeWatch />
        <ItemRow item={await rowOf(task.id)} tabStop />
      </>,
    );
    const row = await screen.findByRole('group', { name: 'Task: Dig' });
    act(() => row.focus());
    fireEvent.keyDown(row, { key: 't' });
    await waitFor(() => expect(watch()).not.toBeNull());
    expect((await running()).map((e) => e.item_id)).toEqual([task.id]);
    expect(within(row).getByRole('button', { name: 'Stop timer on Dig', hidden: true })).toBeTruthy();

    fireEvent.keyDown(row, { key: 't' });
    await waitFor(() => expect(watch()).toBeNull());
    expect(await running()).toEqual([]);
    expect(within(row).getByRole('button', { name: 'Start timer on Dig', hidden: true })).toBeTruthy();
  });

  it('a row the person only views has no timer button, and T starts nothing', async () => {
    const task = await client.items.create({ title: 'Dig', type: 'task' });
    renderWithApp(
      <>
        <TimerFeed />
        <TimeWatch />
        <ItemRow item={{ ...(await rowOf(task.id)), my_role: 'viewer' }} tabStop />
      </>,
    );
    const row = await screen.findByRole('group', { name: 'Task: Dig' });
    expect(within(row).queryByRole('button', { name: /timer/, hidden: true })).toBeNull();
    act(() => row.focus());
    fireEvent.keyDown(row, { key: 't' });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(await entries()).toEqual([]);
    expect(watch()).toBeNull();
  });
});
