// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pressKey } from '../../../testkit/client/keyboardDrag';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { TABLES } from '../data/sync/context';
import { swapTempId } from '../data/sync/tempIds';
import { toastStore } from '../stores/toastStore';
import CampaignBoard from './CampaignBoard';

let client: OutpostClient;

const COLUMN_LEFT = { pending: 0, in_progress: 300, completed: 600 } as const;

/**
 * jsdom lays nothing out, and the keyboard drag picks its target by position: the columns side by
 * side (280 px wide, 300 apart), each card 50 px tall under its column's heading. Anything else (the
 * lifted card's overlay, which the keyboard moves from) sits where Queue's first card is.
 */
function layOut(): void {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const column = this.closest<HTMLElement>('[data-column]');
    const left = column ? COLUMN_LEFT[column.dataset.column as keyof typeof COLUMN_LEFT] : 0;
    if (this.dataset.column) return new DOMRect(left, 0, 280, 600);
    const card = this.closest<HTMLElement>('[data-card-id]');
    if (card) {
      const index = [...(card.parentElement?.children ?? [])].indexOf(card);
      return new DOMRect(left + 8, 40 + index * 60, 264, 50);
    }
    return new DOMRect(8, 40, 264, 50);
  });
}

/** What the drag's live region says now (dnd-kit's announcements). */
const spoken = () =>
  [...document.querySelectorAll('[aria-live]')].map((region) => region.textContent ?? '').join(' ');

/** The titles of a column's cards, top to bottom. */
const titlesIn = (status: string) =>
  [...document.querySelectorAll(`[data-column="${status}"] [data-card-id]`)].map(
    (card) => card.querySelector('a, span.truncate')?.textContent ?? '',
  );
const queueTitles = () => titlesIn('pending');

beforeEach(() => {
  client = makeTestClient();
  layOut();
});

afterEach(() => {
  cleanup();
  client.close();
  vi.restoreAllMocks();
});

describe('CampaignBoard', () => {
  it('says what an empty column is and that a card can be dropped there; a viewer gets no drop hint', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    const view = renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    await waitFor(() => expect(screen.getByText('Dig')).toBeTruthy());
    expect(screen.getByText('Nothing in progress. Drop a card here to start it.')).toBeTruthy();
    expect(screen.getByText('Nothing done yet. Drop a card here to complete it.')).toBeTruthy();
    // Queue has its card, so no empty text.
    expect(screen.queryByText(/Nothing queued/)).toBeNull();
    view.unmount();

    renderWithApp(<CampaignBoard campaignId={campaign.id} readOnly />);
    await waitFor(() => expect(screen.getByText('Nothing in progress.')).toBeTruthy());
    expect(screen.getByText('Nothing done yet.')).toBeTruthy();
    expect(screen.queryByText(/Drop a card/)).toBeNull();
  });

  it('takes a card dropped in an empty column (keyboard: Space, →, Space): the card starts', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    const todo = await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handle = await waitFor(() => screen.getByRole('button', { name: /Dig/ }));
    expect(document.querySelector('[data-column="in_progress"] [data-card-id]')).toBeNull();

    // The keyboard sensor listens for the next keys from a timer after a lift: each key waits a tick.
    const _press = async (code: string, key: string) => {
      fireEvent.keyDown(handle, { code, key });
      await act(() => new Promise((r) => setTimeout(r, 20)));
    };
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowRight', 'ArrowRight');
    await pressKey('Space', ' ');

    await waitFor(async () => expect((await client.db.items.get(todo.id))?.status).toBe('in_progress'));
    await waitFor(() =>
      expect(document.querySelector(`[data-column="in_progress"] [data-card-id="${todo.id}"]`)).toBeTruthy(),
    );
    // Queue is empty now, and says so.
    expect(screen.getByText('Nothing queued. Drop a card here.')).toBeTruthy();
  });

  it('O2: a card lifted by keyboard whose create the server answers (new id) still drops where the arrows took it, focus kept', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    const dig = await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    await client.items.create({ title: 'Sow', type: 'todo', parent_id: campaign.id });
    await client.items.create({ title: 'Water', type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handleOf = () => screen.getByRole('button', { name: 'Move “Dig”' });
    const handle = await waitFor(handleOf);
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowDown', 'ArrowDown');
    await pressKey('ArrowDown', 'ArrowDown');

    // The server's answer to the create, as push and pull apply it: the card's id becomes another.
    const serverId = 9001;
    await act(() => client.db.transaction('rw', [...TABLES], () => swapTempId(client.db, dig.id, serverId)));
    await waitFor(() => expect(document.querySelector(`[data-card-id="${serverId}"]`)).toBeTruthy());
    expect(document.querySelector(`[data-card-id="${serverId}"]`)?.className).toContain('opacity-40');
    expect(document.activeElement).toBe(handleOf());

    await pressKey('Space', ' ');
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('[data-column="pending"] [data-card-id]')].map((c) => c.textContent),
      ).toEqual([
        expect.stringContaining('Sow'),
        expect.stringContaining('Water'),
        expect.stringContaining('Dig'),
      ]),
    );
    expect((await client.db.items.get(serverId))?.status).toBe('pending');
    expect(document.activeElement).toBe(handleOf());
  });

  it('O2: moves a card down its column by keyboard, with a line where it will go and each place said', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    for (const title of ['Dig', 'Sow', 'Water'])
      await client.items.create({ title, type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handle = await waitFor(() => screen.getByRole('button', { name: 'Move “Dig”' }));
    handle.focus();
    await pressKey('Space', ' ');
    await waitFor(() => expect(spoken()).toContain('Picked up “Dig” in Queue, place 1 of 3.'));
    expect(handle.getAttribute('aria-pressed')).toBe('true');
    await pressKey('ArrowDown', 'ArrowDown');

    // Place 2: after Sow, so the line sits in the gap under Sow (one card's pitch, 64 px, less 6).
    const line = () => document.querySelector<HTMLElement>('[data-column="pending"] [data-drop-line]');
    await waitFor(() => expect(line()?.style.transform).toBe(`translateY(${2 * 64 - 6}px)`));
    expect(spoken()).toContain('“Dig” is over Queue, place 2 of 3.');
    await pressKey('Space', ' ');

    await waitFor(() => expect(queueTitles()).toEqual(['Sow', 'Dig', 'Water']));
    expect(line()).toBeNull();
    expect(spoken()).toContain('“Dig” dropped in Queue, place 2 of 3.');
    expect(handle.getAttribute('aria-pressed')).toBeNull();
  });

  it('drops a card between two cards of another column (→, ↓), where it takes that status', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    const dig = await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    for (const title of ['Fence', 'Shed']) {
      const item = await client.items.create({ title, type: 'todo', parent_id: campaign.id });
      await client.items.update(item.id, { status: 'in_progress' });
    }
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handle = await waitFor(() => screen.getByRole('button', { name: 'Move “Dig”' }));
    await waitFor(() => expect(titlesIn('in_progress')).toEqual(['Fence', 'Shed']));
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowRight', 'ArrowRight');
    await waitFor(() => expect(spoken()).toContain('“Dig” is over Active, place 1 of 3.'));
    await pressKey('ArrowDown', 'ArrowDown');
    await waitFor(() => expect(spoken()).toContain('“Dig” is over Active, place 2 of 3.'));
    await pressKey('Space', ' ');

    await waitFor(() => expect(titlesIn('in_progress')).toEqual(['Fence', 'Dig', 'Shed']));
    expect((await client.db.items.get(dig.id))?.status).toBe('in_progress');
  });

  it('keeps focus on the moved card after a keyboard drop in another column (issue 50)', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    await client.items.create({ title: 'Sow', type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handleOf = () => screen.getByRole('button', { name: 'Move “Dig”' });
    (await waitFor(handleOf)).focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowRight', 'ArrowRight');
    await pressKey('Space', ' ');
    await waitFor(() => expect(titlesIn('in_progress')).toEqual(['Dig']));
    await waitFor(() => expect(document.activeElement).toBe(handleOf()));
  });

  it('asks before a task dropped on Done completes its open todos, and the toast counts them (issue 50)', async () => {
    const campaign = await client.items.create({ title: 'Fair', type: 'campaign' });
    const stalls = await client.items.create({ title: 'Stalls', type: 'task', parent_id: campaign.id });
    const tables = await client.items.create({ title: 'Tables', type: 'todo', parent_id: stalls.id });
    const chairs = await client.items.create({ title: 'Chairs', type: 'todo', parent_id: stalls.id });
    await client.items.create({ title: 'Posters', type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handleOf = () => screen.getByRole('button', { name: 'Move “Stalls”' });
    await waitFor(handleOf);
    const drop = async () => {
      handleOf().focus();
      await pressKey('Space', ' ');
      await pressKey('ArrowRight', 'ArrowRight');
      await pressKey('ArrowRight', 'ArrowRight');
      await pressKey('Space', ' ');
    };
    await drop();
    const dialog = await screen.findByRole('alertdialog', { name: 'Complete 2 open items too?' });
    // Cancel leaves the task and its todos as they were.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((await client.db.items.get(stalls.id))?.status).toBe('pending');
    expect((await client.db.items.get(tables.id))?.status).toBe('pending');

    await drop();
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Complete' }));
    await waitFor(async () => expect((await client.db.items.get(stalls.id))?.status).toBe('completed'));
    expect((await client.db.items.get(tables.id))?.status).toBe('completed');
    expect((await client.db.items.get(chairs.id))?.status).toBe('completed');
    await waitFor(() =>
      expect(toastStore.getState().queue.at(-1)).toMatchObject({
        title: 'Task moved to Done',
        description: '2 open items inside were completed too.',
      }),
    );
  });

  it("shows a card's priority flag, labels and assignee, strikes a done task through, and opens a todo's page (issue 50)", async () => {
    const campaign = await client.items.create({ title: 'Fair', type: 'campaign' });
    const todo = await client.items.create({
      title: 'Tables',
      type: 'todo',
      parent_id: campaign.id,
      priority: 1,
      labels: ['urgent', 'errand'],
      assigned_to: 2,
    });
    const task = await client.items.create({ title: 'Stalls', type: 'task', parent_id: campaign.id });
    await client.items.setStatus(task.id, 'completed');
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const tables = await screen.findByRole('link', { name: 'Tables' });
    expect(tables.getAttribute('href')).toBe(`/todos/${todo.id}`);
    const card = tables.closest('[data-card-id]') as HTMLElement;
    expect(card.textContent).toContain('Priority p1');
    expect(card.textContent).toContain('Labels:urgenterrand');
    expect(card.textContent).toMatch(/Assigned to \S/);
    const stalls = await screen.findByRole('link', { name: 'Stalls' });
    expect(stalls.getAttribute('href')).toBe(`/tasks/${task.id}`);
    expect(stalls.className).toContain('line-through');
    expect(tables.className).not.toContain('line-through');
  });

  it('puts a card back where it was on Escape, and says so', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    const dig = await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    await client.items.create({ title: 'Sow', type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    const handle = await waitFor(() => screen.getByRole('button', { name: 'Move “Dig”' }));
    const before = (await client.db.items.get(dig.id))?.sort_key;
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowRight', 'ArrowRight');
    await pressKey('Escape', 'Escape');

    await waitFor(() => expect(spoken()).toContain('Move cancelled. “Dig” is back in Queue, place 1 of 2.'));
    expect(queueTitles()).toEqual(['Dig', 'Sow']);
    const after = await client.db.items.get(dig.id);
    expect(after?.status).toBe('pending');
    expect(after?.sort_key).toBe(before);
  });

  it('renders only the cards near the viewport of a long column, and counts them all', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    for (let i = 1; i <= 70; i++)
      await client.items.create({ title: `Seed ${i}`, type: 'todo', parent_id: campaign.id });
    renderWithApp(<CampaignBoard campaignId={campaign.id} />);
    await waitFor(() => expect(screen.getByText('Seed 1')).toBeTruthy());
    const queue = document.querySelector('[data-column="pending"]')!;
    expect(queue.querySelector('h3')?.textContent).toBe('Queue70 cards');
    const rendered = queue.querySelectorAll('[data-card-id]').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(70);
    expect(screen.queryByText('Seed 70')).toBeNull();
  });
});
