// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import SearchDialog, { resultCountText, searchHints, searchTarget } from './SearchDialog';
import { startTypeahead } from './typeahead';

let client: OutpostClient;

beforeEach(async () => {
  client = makeTestClient();
  const campaign = await client.items.create({ title: 'Garden launch', type: 'campaign' });
  const task = await client.items.create({ title: 'Garden beds', type: 'task', parent_id: campaign.id });
  await client.items.create({ title: 'Garden gloves', type: 'todo', parent_id: task.id });
  await client.items.create({ title: 'Garden hose', type: 'todo' });
});

afterEach(() => {
  cleanup();
  client.close();
});

function input() {
  return screen.getByRole('combobox', { name: 'Search items' });
}

async function typeQuery(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  await waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(0), { timeout: 5000 });
}

function location() {
  return screen.getByTestId('location').textContent;
}

function selectedTitle() {
  return screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;
}

describe('SearchDialog', () => {
  it('invites typing, then shows Searching... and results with parent and status', async () => {
    renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
    expect(screen.getByText('Start typing to search across all your items')).toBeTruthy();
    expect(screen.getByPlaceholderText('Search items...')).toBeTruthy();
    fireEvent.change(input(), { target: { value: 'g' } });
    expect(screen.getByText('Start typing to search across all your items')).toBeTruthy();
    fireEvent.change(input(), { target: { value: 'gloves' } });
    expect(screen.getByText('Searching...')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1), { timeout: 5000 });
    const option = screen.getByRole('option');
    expect(option.textContent).toContain('Garden gloves');
    expect(option.textContent).toContain('in Garden beds');
    expect(option.textContent).toContain('Pending');
    // jsdom names no platform: a keyboard that is not Apple's.
    expect(screen.getByText('Press Ctrl+K to open search anywhere')).toBeTruthy();
  });

  it('finds an item by a word in its comment and shows the words under the title', async () => {
    const hose = (await client.db.items.toArray()).find((i) => i.title === 'Garden hose')!;
    await client.send('comments.add', { itemId: hose.id, body: 'Leaks near the tap again', mentions: [] });
    renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
    await typeQuery('leaks');
    const option = screen.getByRole('option');
    expect(option.textContent).toContain('Garden hose');
    expect(option.textContent).toContain('Comment: Leaks near the tap again');
  });

  it('says when nothing matches', async () => {
    renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
    fireEvent.change(input(), { target: { value: 'zebra' } });
    await waitFor(() => expect(screen.getByText('No items found for "zebra"')).toBeTruthy(), {
      timeout: 5000,
    });
  });

  it('moves the selection with the arrow keys, wrapping around', async () => {
    renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
    await typeQuery('garden');
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(4);
    const first = selectedTitle();
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(selectedTitle()).toBe(options[1]?.textContent);
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    expect(selectedTitle()).toBe(options[3]?.textContent);
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(selectedTitle()).toBe(first);
    expect(input().getAttribute('aria-activedescendant')).toBe(options[0]?.id);
  });

  it('opens a campaign, a task, and a todo’s parent on Enter, and closes', async () => {
    const onOpenChange = vi.fn();
    renderWithApp(<SearchDialog open onOpenChange={onOpenChange} />);
    const [campaign] = (await client.db.items.toArray()).filter((i) => i.type === 'campaign');
    const [task] = (await client.db.items.toArray()).filter((i) => i.type === 'task');

    await typeQuery('launch');
    await act(async () => fireEvent.keyDown(input(), { key: 'Enter' }));
    expect(location()).toBe(`/campaigns/${campaign?.id}`);
    expect(onOpenChange).toHaveBeenLastCalledWith(false);

    await typeQuery('beds');
    await act(async () => fireEvent.keyDown(input(), { key: 'Enter' }));
    expect(location()).toBe(`/tasks/${task?.id}`);

    await typeQuery('gloves');
    await act(async () => fireEvent.keyDown(input(), { key: 'Enter' }));
    expect(location()).toBe(`/tasks/${task?.id}`);
  });

  it('does nothing on Enter for a todo without a parent', async () => {
    const onOpenChange = vi.fn();
    renderWithApp(<SearchDialog open onOpenChange={onOpenChange} />, { route: '/queue' });
    await typeQuery('hose');
    await act(async () => fireEvent.keyDown(input(), { key: 'Enter' }));
    expect(location()).toBe('/queue');
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('closes on Escape', () => {
    const onOpenChange = vi.fn();
    renderWithApp(<SearchDialog open onOpenChange={onOpenChange} />);
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('routes a todo under a campaign to the campaign', () => {
    const hit = {
      id: 9,
      type: 'todo',
      title: 't',
      status: 'pending',
      parent_id: 3,
      parentTitle: 'C',
      parentType: 'campaign',
      comment: null,
    } as const;
    expect(searchTarget(hit)).toBe('/campaigns/3');
    expect(searchTarget({ ...hit, parentType: 'task' })).toBe('/tasks/3');
    expect(searchTarget({ ...hit, parent_id: null })).toBeNull();
  });

  it('puts what was typed while its code loaded into the input', async () => {
    startTypeahead();
    for (const key of ['g', 'l', 'o', 'x', 'Backspace']) fireEvent.keyDown(document.body, { key });
    renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
    await waitFor(() => expect((input() as HTMLInputElement).value).toBe('glo'));
    await waitFor(() => expect(screen.getByRole('option').textContent).toContain('Garden gloves'), {
      timeout: 5000,
    });
  });

  it('ranks an exact title first and says how many more there are', async () => {
    for (let i = 0; i < 12; i++)
      await client.items.create({ title: `Weekly garden chore ${i}`, type: 'todo' });
    await client.items.create({ title: 'Garden', type: 'campaign' });
    renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
    await typeQuery('garden');
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(10);
    expect(options[0]?.textContent).toContain('Garden');
    expect(options[0]?.textContent).not.toContain('Garden ');
    expect(options[1]?.textContent).toContain('Garden hose');
    expect(screen.getByText('Showing 10 of 17 results')).toBeTruthy();
  });

  it('words the count', () => {
    expect(resultCountText(1, 1)).toBe('1 result');
    expect(resultCountText(4, 4)).toBe('4 results');
    expect(resultCountText(10, 11)).toBe('Showing 10 of 11 results');
    expect(resultCountText(10, 20)).toBe('Showing 10 of 20+ results');
  });

  it("names the platform's search key in its footer, and no key at all on a touch screen", () => {
    expect(searchHints('apple')).toContain('Press Cmd+K to open search anywhere');
    expect(searchHints('other')).toContain('Press Ctrl+K to open search anywhere');
    expect(searchHints('touch')).toEqual(['Tap a result to open it']);
  });

  it('shows a phone no keys to press', () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query === '(pointer: coarse)',
      media: query,
    })) as unknown as typeof window.matchMedia;
    try {
      renderWithApp(<SearchDialog open onOpenChange={() => {}} />);
      const dialog = screen.getByRole('dialog');
      expect(dialog.textContent).toContain('Tap a result to open it');
      expect(dialog.textContent).not.toMatch(/Cmd|Ctrl|Esc|Enter|↑/);
    } finally {
      window.matchMedia = original;
    }
  });
});
