import { describe, expect, it } from 'vitest';
import {
  activityDetails,
  assigneeOf,
  COMMENT_NOT_SHOWN,
  describeActivity,
  localHistory,
  membershipPhrase,
  readableDay,
  rollUpReason,
} from './activity';
import { updateFeedEntries } from './history';
import { type FieldSchemaKey, fieldsWith, ITEM_FIELDS } from './itemFields';

describe('activity descriptions', () => {
  it('describes an assignment by name, and an unassignment', () => {
    expect(describeActivity('Alex', 'assigned', 'todo', 'Buy tape', 'Sam')).toBe(
      'Alex assigned todo "Buy tape" to Sam',
    );
    expect(describeActivity('Alex', 'assigned', 'todo', 'Buy tape', null)).toBe(
      'Alex unassigned todo "Buy tape"',
    );
  });

  it('reads days as "5 May 2030"', () => {
    expect(readableDay('2030-05-05')).toBe('5 May 2030');
    expect(readableDay('2030-12-31T00:00:00.000Z')).toBe('31 Dec 2030');
    expect(readableDay('soon')).toBe('soon');
  });

  it('reads field changes in words, never ids or jargon', () => {
    expect(
      activityDetails({
        action: 'updated',
        metadata: {
          due_date: { old: null, new: '2030-05-05' },
          status: { old: 'pending', new: 'in_progress' },
          title: { old: 'Tape', new: 'Buy tape' },
        },
      }),
    ).toEqual(['Due date: none → 5 May 2030', 'Status: Pending → In progress', 'Title: Tape → Buy tape']);
    const rolled = activityDetails({
      action: 'completed',
      metadata: { status: { old: 'in_progress', new: 'completed' }, rolled_up: true },
    });
    expect(rolled).toEqual([]);
    expect(
      activityDetails({
        action: 'updated',
        metadata: { status: { old: 'pending', new: 'in_progress' }, rolled_up: true },
      }),
    ).toEqual([]);
    expect(
      activityDetails({ action: 'assigned', metadata: { assigned_to: { old: 2, new: 7 } } }).join(' '),
    ).not.toMatch(/\d/);
  });

  it('reads a new priority and new labels as quick add writes them', () => {
    expect(
      activityDetails({
        action: 'updated',
        metadata: {
          priority: { old: 4, new: 1 },
          labels: { old: [], new: ['Errand', 'home'] },
        },
      }),
    ).toEqual(['Priority: p4 → p1', 'Labels: none → Errand, home']);
  });

  it('reads a move by the parents titles, and an old move without them', () => {
    expect(
      activityDetails({
        action: 'updated',
        metadata: { parent_id: { old: 3, new: 9 }, parent: { old: 'Garden', new: 'Move house' } },
      }),
    ).toEqual(['Moved: Garden → Move house']);
    expect(activityDetails({ action: 'updated', metadata: { parent_id: { old: 3, new: 9 } } })).toEqual([
      'Moved to another place',
    ]);
  });

  it('names the assignee of a create', () => {
    expect(activityDetails({ action: 'created', metadata: { assigned_to: 'Sam Rivera' } })).toEqual([
      'Assignee: Sam Rivera',
    ]);
  });

  it('explains roll-ups', () => {
    expect(
      rollUpReason({ metadata: { status: { old: 'in_progress', new: 'completed' }, rolled_up: true } }),
    ).toBe('because all its items are done');
    expect(
      rollUpReason({ metadata: { status: { old: 'pending', new: 'in_progress' }, rolled_up: true } }),
    ).toBe('because work started on an item inside');
    expect(
      rollUpReason({ metadata: { status: { old: 'completed', new: 'in_progress' }, rolled_up: true } }),
    ).toBe('because an item inside was added or reopened');
    expect(rollUpReason({ metadata: { status: { old: 'pending', new: 'completed' } } })).toBeNull();
  });

  it("says a todo completed with its task was completed because its task was (issue 50), not 'all its items are done'", () => {
    const completed = { status: { old: 'pending', new: 'completed' }, rolled_up: true };
    expect(rollUpReason({ item: { type: 'todo' }, metadata: { ...completed, with_parent: 'task' } })).toBe(
      'because its task was completed',
    );
    expect(
      rollUpReason({ item: { type: 'task' }, metadata: { ...completed, with_parent: 'campaign' } }),
    ).toBe('because its campaign was completed');
    // Entries written before with_parent: a todo has no items, so its parent did it.
    expect(rollUpReason({ item: { type: 'todo' }, metadata: completed })).toBe(
      'because the item it is in was completed',
    );
    expect(activityDetails({ action: 'completed', metadata: { ...completed, with_parent: 'task' } })).toEqual(
      [],
    );
  });

  it('finds the assignee by name: recorded names first, old entries from their description', () => {
    expect(
      assigneeOf({
        description: '',
        metadata: { assigned_to: { old: 2, new: 7 }, assignee: { old: 'Sam', new: 'Kim' } },
      }),
    ).toBe('Kim');
    expect(
      assigneeOf({
        description: 'Alex assigned todo "T" to Sam Rivera',
        metadata: { assigned_to: { old: null, new: 2 } },
      }),
    ).toBe('Sam Rivera');
    expect(
      assigneeOf({
        description: 'Alex unassigned todo "T"',
        metadata: { assigned_to: { old: 2, new: null } },
      }),
    ).toBeNull();
  });

  it('tells a guest campaign history from created_at and completed_at, newest first', () => {
    const history = localHistory(
      [
        {
          id: 1,
          type: 'campaign',
          title: 'Trip',
          status: 'pending',
          created_at: '2030-01-01T10:00:00Z',
          completed_at: null,
        },
        {
          id: 2,
          type: 'todo',
          title: 'Pack',
          status: 'completed',
          created_at: '2030-01-01T11:00:00Z',
          completed_at: '2030-01-02T09:00:00Z',
        },
      ],
      { id: 0, name: 'You' },
    );
    expect(history.map((e) => `${e.action} ${e.item.title}`)).toEqual([
      'completed Pack',
      'created Pack',
      'created Trip',
    ]);
    expect(new Set(history.map((e) => e.id)).size).toBe(3);
    expect(localHistory([], { id: 0, name: 'You' })).toEqual([]);
  });
});

describe('membership entries in words (issue 50)', () => {
  it('names whom and the role, never the key or the metadata', () => {
    const member = { id: 7, name: 'Bob' };
    expect(membershipPhrase('role_changed', { member, role: { old: 'viewer', new: 'editor' } })).toBe(
      'made Bob an editor',
    );
    expect(membershipPhrase('member_added', { member, role: 'viewer', via: 'added' })).toBe(
      'added Bob as a viewer',
    );
    expect(membershipPhrase('member_added', { member, role: 'editor', via: 'invite' })).toBe(
      'joined as an editor',
    );
    expect(membershipPhrase('member_removed', { member, role: 'editor', left: false })).toBe('removed Bob');
    expect(membershipPhrase('member_removed', { member, role: 'editor', left: true })).toBe('left');
    expect(membershipPhrase('updated', { title: { old: 'a', new: 'b' } })).toBeNull();
    expect(
      activityDetails({
        action: 'role_changed',
        metadata: { member, role: { old: 'viewer', new: 'editor' } },
      }),
    ).toEqual([]);
  });
});

describe('a comment in the feed', () => {
  const commented = { action: 'commented' as const, metadata: { comment_id: 3 } };

  it('reads as its first words in quotes, never its id', () => {
    expect(activityDetails({ ...commented, comment: 'Bring the ladder' })).toEqual(['“Bring the ladder”']);
    expect(activityDetails({ ...commented, comment: 'Bring the ladder' }).join()).not.toMatch(/id|3/i);
  });

  it('says one neutral thing when the comment is gone or out of sight, and nothing for an older server', () => {
    expect(activityDetails({ ...commented, comment: null })).toEqual([COMMENT_NOT_SHOWN]);
    expect(activityDetails(commented)).toEqual([]);
  });
});

describe('a history entry read by each field’s kind', () => {
  /**
   * Two values of each kind and how a change between them reads, or 'id' for a kind never shown.
   * Typed by every kind, so a new kind has to say here how it reads.
   */
  const READS: Record<FieldSchemaKey, readonly [unknown, unknown, string] | 'id'> = {
    title: ['Tape', 'Buy tape', 'Tape → Buy tape'],
    description: [null, 'Some notes', 'none → Some notes'],
    shortText: ['teal', null, 'teal → none'],
    timeZone: ['UTC', 'Europe/Berlin', 'UTC → Europe/Berlin'],
    status: ['pending', 'in_progress', 'Pending → In progress'],
    date: ['2030-05-05', null, '5 May 2030 → none'],
    instant: [null, '2030-05-05T07:30:00.000Z', 'none → 5 May 2030'],
    recurrence: ['FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=MO', 'Every day → Every week on Mon'],
    priority: [4, 1, 'p4 → p1'],
    minutes: [null, 90, 'none → 1 h 30 m'],
    labels: [[], ['Errand', 'home'], 'none → Errand, home'],
    ref: 'id',
    seriesUuid: 'id',
    sortKey: 'id',
  };

  it('reads every field a change records by its label and its kind, none as its raw value', () => {
    // The fields a change records: what a PATCH may change, as the shared rule writes its entries.
    for (const field of fieldsWith('patch')) {
      const { schema, label } = ITEM_FIELDS[field];
      const reads = READS[schema];
      const [old, next] = reads === 'id' ? [3, 9] : reads;
      const entries = updateFeedEntries({ [field]: { old, new: next } });
      const lines = entries.flatMap((e) => activityDetails({ action: 'updated', metadata: e.metadata }));
      if (reads === 'id') {
        expect(lines.join(' '), field).not.toMatch(/\d/);
        continue;
      }
      expect(entries, field).not.toEqual([]);
      expect(label, `${field} has a label`).not.toBeNull();
      expect(lines, field).toEqual([`${label}: ${reads[2]}`]);
    }
  });

  it('reads a value recorded alone (a next occurrence’s) by its kind too', () => {
    expect(
      activityDetails({ action: 'created', metadata: { recurrence: 'FREQ=DAILY', due_date: '2030-05-06' } }),
    ).toEqual(['Repeats: Every day', 'Due date: 6 May 2030']);
  });
});
