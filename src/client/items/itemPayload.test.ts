import { describe, expect, it } from 'vitest';
import {
  canSubmitTitle,
  dialogPayload,
  dialogTypeEnabled,
  quickAddFields,
  quickAddPayload,
  titleState,
} from './itemPayload';

const base = { title: '  Ship it  ', description: '  Why  ', dueDate: '2026-12-01', assignee: '3' };

describe('quick-add payload', () => {
  it('sends description and due date for a campaign, but no assignee', () => {
    expect(quickAddPayload({ ...base, type: 'campaign' })).toEqual({
      title: 'Ship it',
      type: 'campaign',
      status: 'pending',
      parent_id: null,
      description: 'Why',
      due_date: '2026-12-01',
    });
  });

  it('sends description, due date and assignee for a task', () => {
    expect(quickAddPayload({ ...base, type: 'task', parentId: 7 })).toEqual({
      title: 'Ship it',
      type: 'task',
      status: 'pending',
      parent_id: 7,
      description: 'Why',
      due_date: '2026-12-01',
      assigned_to: 3,
    });
  });

  it('sends only the assignee for a todo: no description, no due date', () => {
    expect(quickAddPayload({ ...base, type: 'todo' })).toEqual({
      title: 'Ship it',
      type: 'todo',
      status: 'pending',
      parent_id: null,
      assigned_to: 3,
    });
  });

  it('leaves out empty optional fields and an unassigned picker', () => {
    const payload = quickAddPayload({
      type: 'task',
      title: 'x',
      description: ' ',
      dueDate: '',
      assignee: '0',
    });
    expect(payload).toEqual({ title: 'x', type: 'task', status: 'pending', parent_id: null });
  });

  it('offers fields per type', () => {
    expect(quickAddFields('campaign')).toEqual({ description: true, dueDate: true, assignee: false });
    expect(quickAddFields('task')).toEqual({ description: true, dueDate: true, assignee: true });
    expect(quickAddFields('todo')).toEqual({ description: false, dueDate: false, assignee: true });
  });
});

describe('title limits', () => {
  it('disables submit while the trimmed title is empty', () => {
    expect(canSubmitTitle('')).toBe(false);
    expect(canSubmitTitle('   ')).toBe(false);
    expect(canSubmitTitle(' a ')).toBe(true);
  });

  it('disables submit for a title of only invisible characters, as the server refuses it', () => {
    for (const title of ['\u200b', ' \u200c\u200d ', '\u2060', '\ufeff'])
      expect(canSubmitTitle(title)).toBe(false);
    expect(canSubmitTitle('\u200ba')).toBe(true);
  });

  it('shows the counter only above 200 characters', () => {
    expect(titleState('a'.repeat(200)).showCounter).toBe(false);
    expect(titleState('a'.repeat(201)).showCounter).toBe(true);
  });

  it('flags more than 255 characters with the spec text', () => {
    expect(titleState('a'.repeat(255))).toMatchObject({ tooLong: false, error: null });
    expect(titleState('a'.repeat(256))).toMatchObject({
      tooLong: true,
      error: 'Title too long: Title must be 255 characters or less.',
    });
    expect(canSubmitTitle('a'.repeat(256))).toBe(false);
  });
});

describe('create dialog payload', () => {
  const values = { ...base, endDate: '2027-01-01' };

  it('sends end_date and no due_date for a campaign, assignee as a number', () => {
    expect(dialogPayload({ ...values, type: 'campaign' })).toEqual({
      title: 'Ship it',
      type: 'campaign',
      status: 'pending',
      parent_id: null,
      description: 'Why',
      assigned_to: 3,
      end_date: '2027-01-01',
    });
  });

  it('sends due_date and no end_date for a task and a todo', () => {
    for (const type of ['task', 'todo'] as const) {
      const payload = dialogPayload({ ...values, type, parentId: 4 });
      expect(payload.due_date).toBe('2026-12-01');
      expect(payload.end_date).toBeUndefined();
      expect(payload.parent_id).toBe(4);
    }
  });

  it('disables the campaign tab when a parent is given', () => {
    expect(dialogTypeEnabled('campaign', 5)).toBe(false);
    expect(dialogTypeEnabled('campaign', null)).toBe(true);
    expect(dialogTypeEnabled('todo', 5)).toBe(true);
  });
});

describe('the reminder field in the create payloads', () => {
  it('sends the local date and time as an instant, and nothing when empty', () => {
    const local = '2031-05-01T09:05';
    const expected = new Date(2031, 4, 1, 9, 5).toISOString();
    expect(
      quickAddPayload({
        type: 'todo',
        title: 'Call',
        description: '',
        dueDate: '',
        assignee: '',
        remindAt: local,
      }).remind_at,
    ).toBe(expected);
    expect(
      dialogPayload({
        type: 'task',
        title: 'Call',
        description: '',
        assignee: '',
        dueDate: '',
        endDate: '',
        remindAt: local,
      }).remind_at,
    ).toBe(expected);
    expect(
      quickAddPayload({
        type: 'todo',
        title: 'Call',
        description: '',
        dueDate: '',
        assignee: '',
        remindAt: '',
      }),
    ).not.toHaveProperty('remind_at');
  });
});

describe('repeat in the create payloads', () => {
  const base = { title: 'Water', description: '', dueDate: '', assignee: '', endDate: '' };

  it('sends the rule with the due date, today when none was picked (a quick-add todo has no date field)', () => {
    expect(
      quickAddPayload({ ...base, type: 'todo', recurrence: 'FREQ=DAILY', today: '2031-05-02' }),
    ).toMatchObject({ recurrence: 'FREQ=DAILY', due_date: '2031-05-02' });
    expect(
      dialogPayload({
        ...base,
        type: 'task',
        dueDate: '2031-06-01',
        recurrence: 'FREQ=YEARLY',
        today: '2031-05-02',
      }),
    ).toMatchObject({ recurrence: 'FREQ=YEARLY', due_date: '2031-06-01' });
  });

  it('sends no rule for a campaign or when none is chosen', () => {
    expect(quickAddPayload({ ...base, type: 'campaign', recurrence: 'FREQ=DAILY' })).not.toHaveProperty(
      'recurrence',
    );
    expect(dialogPayload({ ...base, type: 'todo', recurrence: null })).not.toHaveProperty('recurrence');
    expect(dialogPayload({ ...base, type: 'todo', recurrence: null })).not.toHaveProperty('due_date');
  });
});
