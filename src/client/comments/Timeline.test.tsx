// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { Timeline } from './Timeline';

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
