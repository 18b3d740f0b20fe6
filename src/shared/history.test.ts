import { describe, expect, it } from 'vitest';
import { historyChanges, isRevertible, planRevert, updateFeedEntries } from './history';

describe('an entry read as history', () => {
  it('names the assignee and the parent, never their ids, and leaves out a roll-up’s flag', () => {
    expect(
      historyChanges({
        assigned_to: { old: null, new: 7 },
        assignee: { old: null, new: 'Sam' },
        parent_id: { old: 1, new: 2 },
        parent: { old: 'Camp', new: 'Trip' },
        status: { old: 'pending', new: 'completed' },
        rolled_up: true,
      }),
    ).toEqual({
      assignee: { from: null, to: 'Sam' },
      parent: { from: 'Camp', to: 'Trip' },
      status: { from: 'pending', to: 'completed' },
    });
  });
});

describe('K3: restoring one change', () => {
  it('K3: sets each field back where the item still holds the entry’s value', () => {
    const plan = planRevert(
      { title: { old: 'Old', new: 'New' }, labels: { old: ['a'], new: ['a', 'b'] } },
      { title: 'New', labels: ['a', 'b'] },
    );
    expect(plan).toEqual({ patch: { title: 'Old', labels: ['a'] }, skipped: [] });
  });

  it('K3: leaves a field changed since alone and names it', () => {
    const plan = planRevert(
      {
        title: { old: 'Old', new: 'New' },
        due_date: { old: null, new: '2030-05-05' },
        assigned_to: { old: 3, new: 4 },
      },
      { title: 'Newer', due_date: '2030-05-05', assigned_to: 5 },
    );
    expect(plan).toEqual({ patch: { due_date: null }, skipped: ['title', 'assignee'] });
  });

  it('K3: reads a reminder by its instant and an empty description as none', () => {
    const plan = planRevert(
      {
        remind_at: { old: null, new: '2030-01-01T09:00:00Z' },
        description: { old: 'Text', new: null },
      },
      { remind_at: '2030-01-01T09:00:00.000Z', description: '' },
    );
    expect(plan).toEqual({ patch: { remind_at: null, description: 'Text' }, skipped: [] });
  });

  it('K3: restores a move by the parent’s id, named `parent` when skipped', () => {
    expect(planRevert({ parent_id: { old: 1, new: 2 } }, { parent_id: 2 }).patch).toEqual({ parent_id: 1 });
    expect(planRevert({ parent_id: { old: 1, new: 2 } }, { parent_id: 9 }).skipped).toEqual(['parent']);
  });

  it('K3: finds nothing to restore in a create or a delete', () => {
    expect(isRevertible({})).toBe(false);
    expect(isRevertible({ assigned_to: 'Sam' })).toBe(false);
    expect(isRevertible({ status: { old: 'pending', new: 'completed' } })).toBe(true);
  });
});

describe('the feed entries an update makes (server and guest device alike)', () => {
  it('splits fields, a status and an assignee into their entries, parents and people by name, a drag as none', () => {
    expect(
      updateFeedEntries(
        {
          title: { old: 'A', new: 'B' },
          parent_id: { old: 1, new: 2 },
          status: { old: 'completed', new: 'pending' },
          assigned_to: { old: null, new: 7 },
          sort_key: { old: 'a', new: 'b' },
        },
        { parent: { old: 'Home', new: 'Garden' }, assignee: { old: null, new: 'Sam' } },
      ),
    ).toEqual([
      {
        action: 'updated',
        metadata: {
          title: { old: 'A', new: 'B' },
          parent_id: { old: 1, new: 2 },
          parent: { old: 'Home', new: 'Garden' },
        },
      },
      { action: 'reopened', metadata: { status: { old: 'completed', new: 'pending' } } },
      {
        action: 'assigned',
        metadata: { assigned_to: { old: null, new: 7 }, assignee: { old: null, new: 'Sam' } },
      },
    ]);
    expect(updateFeedEntries({ sort_key: { old: 'a', new: 'b' } })).toEqual([]);
    expect(updateFeedEntries({ status: { old: 'pending', new: 'completed' } })[0]?.action).toBe('completed');
  });
});
