// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { HistoryEntry } from '../../shared/history';
import { fieldsWith, ITEM_FIELDS } from '../../shared/itemFields';
import type { OutpostClient } from '../data/client';
import { HistoryRow, Timeline } from './Timeline';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

describe('a guest’s timeline (SYNC.md K19)', () => {
  it('K19: shows the device’s history rows in words, oldest first, and Restore sets the old title back', async () => {
    const todo = await client.items.create({ title: 'Draft', type: 'todo' });
    const edited = await client.items.update(todo.id, { title: 'Final' });
    renderWithApp(<Timeline item={edited} ownerId={null} />);
    const timeline = await screen.findByRole('list', { name: 'Timeline of Final' });
    await waitFor(() => expect(within(timeline).getAllByRole('listitem').length).toBeGreaterThanOrEqual(2));
    const rows = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.textContent ?? '');
    expect(rows[0]).toMatch(/^You created this/);
    expect(rows[1]).toMatch(/^You changed · .*Draft.*Final/);
    expect(
      screen.getByText(
        'Your comments and changes stay on this device. Sign in to share them and to mention people.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(timeline).getByRole('button', { name: /^Restore: / }));
    await waitFor(async () => expect((await client.db.items.get(todo.id))?.title).toBe('Draft'));
    // The restore is a change of its own: a third row, Final → Draft.
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(3));
    expect(within(timeline).getAllByRole('listitem')[2]!.textContent).toMatch(/Final.*Draft/);
  });
});

describe('a history entry’s Restore', () => {
  it('is offered for every field a restore sets back, as the field registry declares them', () => {
    const names = fieldsWith('history').map((field) => ITEM_FIELDS[field].history as string);
    expect(names).toEqual(expect.arrayContaining(['start_date', 'estimate_minutes', 'title', 'assignee']));
    for (const name of names) {
      const entry: HistoryEntry = {
        id: 1,
        user: { id: 1, name: 'Ana' },
        at: '2026-11-20T10:00:00.000Z',
        action: 'updated',
        changes: { [name]: { from: null, to: null } },
      };
      const view = render(
        <ul>
          <HistoryRow entry={entry} canRestore onRestore={() => undefined} />
        </ul>,
      );
      expect(view.queryByRole('button', { name: /^Restore/ }), name).not.toBeNull();
      view.unmount();
    }
  });
});
