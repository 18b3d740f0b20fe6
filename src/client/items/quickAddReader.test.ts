import { describe, expect, it } from 'vitest';
import {
  findParent,
  findPerson,
  type ParentCandidate,
  readTitle,
  shownValues,
  withReading,
} from './quickAddReader';
import { NEW_ITEM_FORM } from './useItemForm';

const parents: ParentCandidate[] = [
  { id: 1, type: 'campaign', title: 'Home renovation', status: 'pending' },
  { id: 2, type: 'task', title: 'Home', status: 'completed' },
  { id: 3, type: 'task', title: 'Homework club', status: 'pending' },
  { id: 4, type: 'campaign', title: 'Spring launch', status: 'in_progress' },
];
const people = [
  { id: 7, name: 'Ana Silva (you)' },
  { id: 8, name: 'Sam Rivera' },
  { id: 9, name: 'Jordan Samuels' },
];

// Wednesday 25 November 2026, 10:00 in New York.
const ctx = {
  type: 'todo' as const,
  dateField: 'due_date' as const,
  assignee: true,
  parents,
  people,
  now: new Date('2026-11-25T15:00:00Z'),
  timeZone: 'America/New_York',
};

describe('findParent', () => {
  it('prefers the exact title, then open items, then the shorter title', () => {
    expect(findParent('home', 'todo', parents)?.id).toBe(2);
    expect(findParent('homew', 'todo', parents)?.id).toBe(3);
    // A task can only go under a campaign.
    expect(findParent('home', 'task', parents)?.id).toBe(1);
    expect(findParent('spring_launch', 'todo', parents)?.id).toBe(4);
    expect(findParent('home', 'campaign', parents)).toBeNull();
    expect(findParent('nowhere', 'todo', parents)).toBeNull();
    expect(findParent('!!', 'todo', parents)).toBeNull();
  });
});

describe('findPerson', () => {
  it('finds @me, a name, or a later word of a name', () => {
    expect(findPerson('me', people)?.id).toBe(7);
    expect(findPerson('sam', people)?.id).toBe(8);
    expect(findPerson('samuels', people)?.id).toBe(9);
    expect(findPerson('riv', people)?.id).toBe(8);
    expect(findPerson('zed', people)).toBeNull();
  });
});

describe('readTitle', () => {
  it('reads every part and finds the parent and the person', () => {
    const read = readTitle('Call mom tomorrow 5pm p2 #spring @sam +family', new Set(), ctx);
    expect(read).toMatchObject({
      title: 'Call mom',
      date: '2026-11-26',
      remind_at: '2026-11-26T22:00:00.000Z',
      parent_id: 4,
      assigned_to: 8,
      priority: 2,
      labels: ['family'],
    });
    expect(read.chips.map((c) => [c.label, `Remove ${c.noun} ${c.text}`])).toEqual([
      ['Tomorrow, 17:00', 'Remove due date and reminder tomorrow 5pm'],
      ['Priority 2', 'Remove priority p2'],
      ['Spring launch', 'Remove parent #spring'],
      ['Sam Rivera', 'Remove assignee @sam'],
      ['family', 'Remove label +family'],
    ]);
  });

  it('leaves in the title what the form cannot save', () => {
    // A campaign neither repeats nor has a parent; this form has no assignee; nobody is @zed.
    const read = readTitle('Launch every week #home @sam', new Set(), {
      ...ctx,
      type: 'campaign',
      assignee: false,
    });
    expect(read.title).toBe('Launch every week #home @sam');
    expect(read.chips).toEqual([]);
    expect(readTitle('Ask @zed', new Set(), ctx).title).toBe('Ask @zed');
  });

  it('keeps the words of a removed chip, and reads a later #name when the first finds nothing', () => {
    const read = readTitle('Pay rent tomorrow', new Set(['date:tomorrow']), ctx);
    expect(read).toMatchObject({ title: 'Pay rent tomorrow', date: null, chips: [] });
    expect(readTitle('Fix #nowhere #homew', new Set(), ctx)).toMatchObject({
      title: 'Fix #nowhere',
      parent_id: 3,
    });
  });

  it('offers an unsure part as an off chip that sets nothing, and reads it once turned on (issue 48)', () => {
    const off = readTitle('Workshop 2h', new Set(), ctx);
    expect(off).toMatchObject({ title: 'Workshop 2h', date: null, remind_at: null, spans: [] });
    expect(off.chips).toEqual([
      {
        key: 'date:2h',
        kind: 'date',
        text: '2h',
        label: 'Today, 12:00',
        noun: 'due date and reminder',
        off: true,
      },
    ]);
    const on = readTitle('Workshop 2h', new Set(), ctx, new Set(['date:2h']));
    expect(on).toMatchObject({ title: 'Workshop', remind_at: '2026-11-25T17:00:00.000Z', spans: [[9, 11]] });
    expect(on.chips[0]?.off).toBeUndefined();
    // '#42' is offered only where a campaign or task starts with it; none does here.
    expect(readTitle('Fix bug #42', new Set(), ctx)).toMatchObject({ title: 'Fix bug #42', chips: [] });
    const withIssue = readTitle('Fix bug #42', new Set(), {
      ...ctx,
      parents: [...parents, { id: 5, type: 'campaign', title: '42 Wallaby Way', status: 'pending' }],
    });
    expect(withIssue.chips).toMatchObject([{ text: '#42', off: true }]);
    expect(withIssue.title).toBe('Fix bug #42');
  });

  it("names an end date for the Create dialog's campaign", () => {
    const read = readTitle('Launch dec 24', new Set(), { ...ctx, type: 'campaign', dateField: 'end_date' });
    expect(read.chips[0]).toMatchObject({ label: 'Thu 24 Dec', noun: 'end date' });
    expect(shownValues(NEW_ITEM_FORM, read, 'end_date', ctx.timeZone)).toMatchObject({
      endDate: '2026-12-24',
      dueDate: '',
    });
  });

  it('shows the reminder in the fields as local date-time text, the rule and the assignee', () => {
    const read = readTitle('Standup every weekday at 9am @sam', new Set(), ctx);
    expect(shownValues(NEW_ITEM_FORM, read, 'due_date', ctx.timeZone)).toMatchObject({
      dueDate: '2026-11-26',
      remindAt: '2026-11-26T09:00',
      repeat: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      assignee: '8',
    });
  });

  it('applies priority and labels, and leaves labels past the limit in the title', () => {
    const many = Array.from({ length: 12 }, (_, i) => `+l${i + 1}`).join(' ');
    const read = readTitle(`Sort ${many} p3`, new Set(), ctx);
    expect(read.labels).toHaveLength(10);
    expect(read.title).toBe('Sort +l11 +l12');
    expect(withReading({ title: 'x', type: 'todo' }, read)).toMatchObject({
      title: 'Sort +l11 +l12',
      priority: 3,
      labels: ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8', 'l9', 'l10'],
    });
  });

  it('D10: a span and an estimate in the words become the start, the due date and the estimate, each a chip', () => {
    const read = readTitle('Paint the fence from mon to fri ~2h', new Set(), ctx);
    expect(read.chips.map((c) => [c.kind, c.label, c.noun])).toEqual([
      ['date', 'Mon 30 Nov → Fri 4 Dec', 'start and due date'],
      ['estimate', 'Estimate 2 h', 'estimate'],
    ]);
    expect(withReading({ title: 'x', type: 'task' }, read)).toMatchObject({
      title: 'Paint the fence',
      start_date: '2026-11-30',
      due_date: '2026-12-04',
      estimate_minutes: 120,
    });
  });
});
