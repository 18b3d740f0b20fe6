import { describe, expect, it } from 'vitest';
import {
  HIDDEN_TEXT,
  historyChanges,
  isRevertible,
  planRevert,
  redactedChanges,
  redactedMetadata,
  revertableMetadata,
  updateFeedEntries,
} from './history';

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

describe('K22: what a reader may not read', () => {
  const move = {
    parent_id: { old: 7, new: 9 },
    parent: { old: 'Secret plans', new: 'Shared trip' },
    title: { old: 'Fire Bob', new: 'Team outing' },
    description: { old: null, new: 'Private notes' },
  };

  it('K22: hides a parent the reader does not see, and the text of entries up to the horizon, keeping none as none', () => {
    const none = { hiddenParents: new Set<number>(), horizon: null };
    expect(redactedChanges(5, move, none)).toEqual(historyChanges(move));
    expect(redactedChanges(5, move, { hiddenParents: new Set([7]), horizon: 5 })).toEqual({
      parent: { from: HIDDEN_TEXT, to: 'Shared trip' },
      title: { from: HIDDEN_TEXT, to: HIDDEN_TEXT },
      description: { from: null, to: HIDDEN_TEXT },
    });
    // After the horizon the text is the reader's; a move recorded without ids hides both titles.
    expect(redactedChanges(6, move, { hiddenParents: new Set(), horizon: 5 }).title).toEqual({
      from: 'Fire Bob',
      to: 'Team outing',
    });
    const { parent_id: _, ...noIds } = move;
    expect(redactedChanges(6, noIds, none).parent).toEqual({ from: HIDDEN_TEXT, to: HIDDEN_TEXT });
  });

  it('K22: a feed entry names by title only the parents the reader sees', () => {
    expect(redactedMetadata(move, new Set([7])).parent).toEqual({ old: HIDDEN_TEXT, new: 'Shared trip' });
    expect(redactedMetadata(move, new Set())).toEqual(move);
    expect(redactedMetadata({ title: move.title }, new Set([7]))).toEqual({ title: move.title });
  });

  it('K22: a restore by that reader skips what they may not read, by name', () => {
    const { metadata, hidden } = revertableMetadata(5, move, { hiddenParents: new Set([7]), horizon: 5 });
    expect(hidden).toEqual(['title', 'description', 'parent']);
    expect(metadata).toEqual({});
    expect(revertableMetadata(6, move, { hiddenParents: new Set([9]), horizon: 5 })).toEqual({
      metadata: move,
      hidden: [],
    });
  });
});
