import { describe, expect, it } from 'vitest';
import { sortForList } from './sort';

const at = (id: number, created: string, updated?: string, completed?: string) => ({
  id,
  created_at: `2024-01-${created}T00:00:00.000Z`,
  updated_at: updated ? `2024-02-${updated}T00:00:00.000Z` : null,
  completed_at: completed ? `2024-03-${completed}T00:00:00.000Z` : null,
});

describe('list sort orders', () => {
  it('puts the newest created first in the queue order', () => {
    const out = sortForList([at(1, '01'), at(2, '03'), at(3, '02')], 'queue');
    expect(out.map((i) => i.id)).toEqual([2, 3, 1]);
  });

  it('orders active items by updated_at and falls back to created_at', () => {
    const items = [at(1, '01', '05'), at(2, '20'), at(3, '01', '01')];
    // Item 2 has no updated_at: its January creation is older than both February updates.
    expect(sortForList(items, 'active').map((i) => i.id)).toEqual([1, 3, 2]);
  });

  it('orders completed items by completed_at and falls back to updated_at', () => {
    const items = [at(1, '01', '05', '02'), at(2, '01', '09'), at(3, '01', '01', '09')];
    expect(sortForList(items, 'completed').map((i) => i.id)).toEqual([3, 1, 2]);
  });

  it('breaks ties by id so every tab shows the same order', () => {
    expect(sortForList([at(1, '01'), at(5, '01'), at(3, '01')], 'queue').map((i) => i.id)).toEqual([5, 3, 1]);
  });
});
