import { describe, expect, it } from 'vitest';
import type { ItemStatus, ItemType } from './item';
import {
  isAssignedTo,
  isCreatedBy,
  isMineOrAssigned,
  isOrphan,
  matchesFilterText,
  onScreen,
} from './visibility';

const item = (
  over: Partial<{
    id: number;
    type: ItemType;
    status: ItemStatus;
    user_id: number;
    assigned_to: number | null;
    parent_id: number | null;
  }> = {},
) => ({
  id: 1,
  type: 'todo' as ItemType,
  status: 'pending' as ItemStatus,
  user_id: 7,
  assigned_to: null,
  parent_id: null,
  ...over,
});

describe('visibility filters', () => {
  it('shows items created by or assigned to the user in Queue and Active', () => {
    expect(isMineOrAssigned(item({ user_id: 7 }), 7)).toBe(true);
    expect(isMineOrAssigned(item({ user_id: 2, assigned_to: 7 }), 7)).toBe(true);
    expect(isMineOrAssigned(item({ user_id: 2, assigned_to: 3 }), 7)).toBe(false);
  });

  it('shows only items the user created in My List', () => {
    expect(isCreatedBy(item({ user_id: 2, assigned_to: 7 }), 7)).toBe(false);
    expect(isCreatedBy(item({ user_id: 7 }), 7)).toBe(true);
  });

  it('treats 0 and null as unassigned', () => {
    expect(isAssignedTo(item({ assigned_to: 0 }), 0)).toBe(false);
    expect(isAssignedTo(item({ assigned_to: 4 }), 4)).toBe(true);
  });

  it('calls an item an orphan when its parent is top level or unknown', () => {
    const known = new Set([10]);
    expect(isOrphan(item({ parent_id: null }), known)).toBe(true);
    expect(isOrphan(item({ parent_id: 0 }), known)).toBe(true);
    expect(isOrphan(item({ parent_id: 11 }), known)).toBe(true);
    expect(isOrphan(item({ parent_id: 10 }), known)).toBe(false);
  });

  it('puts an item on the screen matching its status, orphans only on All', () => {
    const known = new Set([10]);
    const child = item({ parent_id: 10, status: 'in_progress' });
    expect(onScreen(child, { screen: 'active', userId: 7, tab: 'all' }, known)).toBe(false);
    expect(onScreen(child, { screen: 'active', userId: 7, tab: 'todo' }, known)).toBe(true);
    expect(onScreen(child, { screen: 'queue', userId: 7, tab: 'todo' }, known)).toBe(false);
    expect(onScreen(child, { screen: 'active', userId: 8, tab: 'todo' }, known)).toBe(false);
  });

  it('filters a list by title or description text', () => {
    expect(matchesFilterText({ title: 'Buy Tape', description: null }, ' tape ')).toBe(true);
    expect(matchesFilterText({ title: 'x', description: 'Paint the fence' }, 'FENCE')).toBe(true);
    expect(matchesFilterText({ title: 'x', description: null }, 'y')).toBe(false);
    expect(matchesFilterText({ title: 'x' }, '  ')).toBe(true);
  });
});
