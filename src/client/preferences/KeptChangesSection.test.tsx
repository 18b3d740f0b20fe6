// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { REJECTED_KEY, type RejectedChange } from '../data/store/keptChanges';
import { KeptChangesSection } from './KeptChangesSection';

let client: OutpostClient;
eachTestClient((made) => {
  client = made;
});

const change = (id: string, over: Partial<RejectedChange>): RejectedChange => ({
  id,
  kind: 'update',
  method: 'PATCH',
  url: '/api/items/2',
  data: { title: 'Book the big hall' },
  queued_at: '2026-11-27T10:00:00.000Z',
  rejected_at: '2026-11-27T10:05:00.000Z',
  item: { id: 2, uuid: 'u2', type: 'task', title: 'Book the big hall', parent_id: 1 },
  announced: true,
  cause: 'removed',
  campaign: { id: 1, title: 'Spring fair', removed: true, by: 'Alice' },
  ...over,
});

describe('Preferences › Data: changes that could not be applied', () => {
  it('Q23: lists the kept changes with why, until Dismiss (after a warning) empties them from the device', async () => {
    await client.db.meta.put({
      key: REJECTED_KEY,
      value: [
        change('e1', {}),
        change('e2', {
          kind: 'comment_create',
          method: 'POST',
          data: { body: 'The hall is free on Friday', uuid: 'c1' },
        }),
      ],
    });
    renderWithApp(<KeptChangesSection />);
    const list = await screen.findByRole('list', { name: 'Changes that could not be applied' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Comment on “Book the big hall”: “The hall is free on Friday”'),
      expect.stringContaining('Change of “Book the big hall”'),
    ]);
    expect(rows[0]?.textContent).toContain('You were removed from “Spring fair” by Alice');
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Dismiss 2 changes?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Changes that could not be applied' })).toBeNull(),
    );
    expect(await client.db.meta.get(REJECTED_KEY)).toBeUndefined();
  });

  it('Q23: shows nothing while nothing is kept', async () => {
    renderWithApp(<KeptChangesSection />);
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByText('Changes that could not be applied')).toBeNull();
  });
});
