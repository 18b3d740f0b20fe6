import { describe, expect, it } from 'vitest';
import {
  assignedManyText,
  BURST_MS,
  itemRoute,
  joinsBurst,
  localReminders,
  notificationText,
  recipientsOf,
  reminderKey,
  reminderRecipients,
} from './notifications';

const ALEX = 1;
const BLAIR = 2;
const CASEY = 3;

describe('recipientsOf', () => {
  it('tells the creator and the assignee of a change by someone else, each once', () => {
    for (const action of ['updated', 'completed', 'reopened', 'deleted', 'restored'] as const) {
      const kind = action;
      expect(recipientsOf({ action, actorId: CASEY, creatorId: ALEX, assigneeId: BLAIR })).toEqual([
        { userId: ALEX, kind },
        { userId: BLAIR, kind },
      ]);
    }
    expect(recipientsOf({ action: 'updated', actorId: CASEY, creatorId: ALEX, assigneeId: ALEX })).toEqual([
      { userId: ALEX, kind: 'updated' },
    ]);
  });

  it('never tells the person who made the change', () => {
    expect(recipientsOf({ action: 'completed', actorId: ALEX, creatorId: ALEX, assigneeId: null })).toEqual(
      [],
    );
    expect(recipientsOf({ action: 'completed', actorId: BLAIR, creatorId: ALEX, assigneeId: BLAIR })).toEqual(
      [{ userId: ALEX, kind: 'completed' }],
    );
  });

  it('tells only the new assignee of an assignment and the old one of an unassignment', () => {
    expect(
      recipientsOf({
        action: 'assigned',
        actorId: ALEX,
        creatorId: ALEX,
        assigneeId: BLAIR,
        previousAssigneeId: null,
      }),
    ).toEqual([{ userId: BLAIR, kind: 'assigned' }]);
    expect(
      recipientsOf({
        action: 'assigned',
        actorId: ALEX,
        creatorId: ALEX,
        assigneeId: null,
        previousAssigneeId: BLAIR,
      }),
    ).toEqual([{ userId: BLAIR, kind: 'unassigned' }]);
    expect(
      recipientsOf({
        action: 'assigned',
        actorId: ALEX,
        creatorId: ALEX,
        assigneeId: CASEY,
        previousAssigneeId: BLAIR,
      }),
    ).toEqual([
      { userId: BLAIR, kind: 'unassigned' },
      { userId: CASEY, kind: 'assigned' },
    ]);
    expect(recipientsOf({ action: 'created', actorId: ALEX, creatorId: ALEX, assigneeId: BLAIR })).toEqual([
      { userId: BLAIR, kind: 'assigned' },
    ]);
    expect(recipientsOf({ action: 'created', actorId: ALEX, creatorId: ALEX, assigneeId: null })).toEqual([]);
  });

  it('ignores roll-up consequences and actions it does not know', () => {
    expect(
      recipientsOf({
        action: 'completed',
        actorId: CASEY,
        creatorId: ALEX,
        assigneeId: null,
        rolledUp: true,
      }),
    ).toEqual([]);
    expect(recipientsOf({ action: 'archived', actorId: CASEY, creatorId: ALEX, assigneeId: null })).toEqual(
      [],
    );
  });
});

describe('joinsBurst', () => {
  const first = { kind: 'updated', actorId: BLAIR, itemId: 7, createdAt: new Date(0), read: false };
  const edit = { kind: 'updated', actorId: BLAIR, itemId: 7, at: new Date(30_000) };

  it('joins edits by the same person to the same item within a minute of the first', () => {
    expect(joinsBurst(first, edit)).toBe(true);
    expect(joinsBurst(first, { ...edit, at: new Date(BURST_MS) })).toBe(false);
  });

  it('starts a new entry for another person, another item, another kind or a read entry', () => {
    expect(joinsBurst(first, { ...edit, actorId: CASEY })).toBe(false);
    expect(joinsBurst(first, { ...edit, itemId: 8 })).toBe(false);
    expect(joinsBurst(first, { ...edit, kind: 'completed' })).toBe(false);
    expect(joinsBurst({ ...first, read: true }, edit)).toBe(false);
  });

  it('folds a toggle into its own undoing: assigned with unassigned, completed with reopened (F3)', () => {
    for (const [a, b] of [
      ['assigned', 'unassigned'],
      ['unassigned', 'assigned'],
      ['completed', 'reopened'],
      ['reopened', 'completed'],
    ] as const) {
      expect(joinsBurst({ ...first, kind: a }, { ...edit, kind: b })).toBe(true);
      expect(joinsBurst({ ...first, kind: a }, { ...edit, kind: 'updated' })).toBe(false);
    }
    expect(joinsBurst({ ...first, kind: 'assigned' }, { ...edit, kind: 'completed' })).toBe(false);
    expect(joinsBurst({ ...first, kind: 'due' }, { ...edit, kind: 'due' })).toBe(false);
  });
});

describe('notification texts and reminder recipients', () => {
  it('reads as a sentence naming the actor and the item', () => {
    expect(notificationText('assigned', 'Alex', 'task', 'Pack')).toBe('Alex assigned you task “Pack”');
    expect(notificationText('unassigned', 'Alex', 'todo', 'Pack')).toBe(
      'Alex unassigned you from todo “Pack”',
    );
    expect(notificationText('due', null, 'todo', 'Pack')).toBe('Reminder: todo “Pack”');
  });

  it('P8: names how many items a run of assignments stands for, and the first of them', () => {
    expect(assignedManyText('Alex', 1000, 'todo', 'Pack')).toBe(
      'Alex assigned you 1,000 items: todo “Pack” and 999 more',
    );
    expect(assignedManyText('Alex', 2, 'task', 'Pack')).toBe(
      'Alex assigned you 2 items: task “Pack” and 1 more',
    );
    expect(assignedManyText('Alex', 1, 'task', 'Pack')).toBe(
      notificationText('assigned', 'Alex', 'task', 'Pack'),
    );
  });

  it('reminds the creator and a different assignee', () => {
    expect(reminderRecipients(ALEX, null)).toEqual([ALEX]);
    expect(reminderRecipients(ALEX, ALEX)).toEqual([ALEX]);
    expect(reminderRecipients(ALEX, BLAIR)).toEqual([ALEX, BLAIR]);
  });
});

describe('localReminders', () => {
  const item = (
    key: string,
    remind_at: string | null,
    extra: Partial<{ status: string; deleted: boolean }> = {},
  ) => ({
    key,
    remind_at,
    status: 'pending',
    deleted: false,
    ...extra,
  });
  const now = Date.parse('2030-01-01T10:00:00Z');

  it('answers the reminders due now and the time of the next one', () => {
    const { due, next } = localReminders(
      [
        item('a', '2030-01-01T09:59:00Z'),
        item('b', '2030-01-01T10:05:00Z'),
        item('c', '2030-01-01T10:01:00Z'),
        item('d', null),
      ],
      new Set(),
      now,
    );
    expect(due.map((d) => d.key)).toEqual(['a']);
    expect(next).toBe(Date.parse('2030-01-01T10:01:00Z'));
  });

  it('skips reminders already shown, too late, or on completed and deleted items', () => {
    const { due, next } = localReminders(
      [
        item('a', '2030-01-01T09:59:00Z'),
        item('b', '2030-01-01T09:00:00Z'),
        item('c', '2030-01-01T09:59:30Z', { status: 'completed' }),
        item('d', '2030-01-01T09:59:30Z', { deleted: true }),
      ],
      new Set([reminderKey('a', '2030-01-01T09:59:00Z')]),
      now,
    );
    expect(due).toEqual([]);
    expect(next).toBeNull();
  });
});

describe('itemRoute', () => {
  it('opens every item on its own page, a todo on its todo page (where its timeline is)', () => {
    expect(itemRoute({ id: 1, type: 'campaign' }, null)).toBe('/campaigns/1');
    expect(itemRoute({ id: 2, type: 'task' }, { id: 1, type: 'campaign' })).toBe('/tasks/2');
    expect(itemRoute({ id: 3, type: 'todo' }, { id: 2, type: 'task' })).toBe('/todos/3');
    expect(itemRoute({ id: 4, type: 'todo' }, { id: 1, type: 'campaign' })).toBe('/todos/4');
    expect(itemRoute({ id: 5, type: 'todo' }, null)).toBe('/todos/5');
  });
});
