// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { addDays, dayKey } from '../../shared/agenda';
import type { OutpostClient } from '../data/client';
import { ITEM_ROW_HEIGHT } from '../items/ItemRow';
import { shareRows } from './firstDraw';
import TodayPage from './TodayPage';

describe('shareRows', () => {
  it('gives each group the rows left in order, a heading line to an empty one, and none after the screenful', () => {
    expect(shareRows([8, 0, 8, 8], 12)).toEqual([8, 0, 3, null]);
    expect(shareRows([20, 5], 12)).toEqual([12, null]);
    expect(shareRows([3, 4], Infinity)).toEqual([3, 4]);
    expect(shareRows([], 12)).toEqual([]);
  });
});

describe('Today, first draw', () => {
  let client: OutpostClient;
  beforeEach(() => {
    client = makeTestClient();
  });
  afterEach(() => {
    cleanup();
    client.close();
  });

  it('draws a screenful of rows first and the rest after, without drawing the first ones again', async () => {
    const today = dayKey(new Date());
    const screenful = Math.ceil(window.innerHeight / ITEM_ROW_HEIGHT) + 1;
    const count = screenful + 6;
    for (let i = 0; i < count; i++)
      await client.items.create({ title: `Late ${i}`, type: 'todo', due_date: addDays(today, -1 - i) });
    renderWithApp(<TodayPage />);
    const overdue = await waitFor(() => screen.getByRole('list', { name: 'Overdue' }));
    const first = overdue.querySelector('[data-item-id]');
    const drawnFirst = overdue.querySelectorAll('[data-item-id]').length;
    expect(drawnFirst).toBeGreaterThan(0);
    expect(drawnFirst).toBeLessThanOrEqual(screenful);
    await waitFor(() => expect(overdue.querySelectorAll('[data-item-id]')).toHaveLength(count));
    // The same element: the first rows were not drawn again (an open menu in one would stay open).
    expect(overdue.querySelector('[data-item-id]')).toBe(first);
    expect(first?.isConnected).toBe(true);
  });
});
