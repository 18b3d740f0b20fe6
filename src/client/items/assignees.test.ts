import { describe, expect, it } from 'vitest';
import { assigneeName, assigneeOptions } from './assignees';

describe('who the assignee pickers offer', () => {
  it('offers a guest nobody, not even the sample people', () => {
    expect(assigneeOptions(null)).toEqual([]);
  });

  it('offers a signed-in user themself, their mutual contacts, then the sample users the server has, once each', () => {
    const options = assigneeOptions(
      { id: 9, name: 'Ana' },
      [
        { id: 12, name: 'Ben' },
        { id: 2, name: 'Sam Rivera' },
      ],
      [
        { id: 1, name: 'Alex Morgan' },
        { id: 2, name: 'Sam Rivera' },
      ],
    );
    expect(options.map((o) => o.name)).toEqual(['Ana (you)', 'Ben', 'Sam Rivera', 'Alex Morgan']);
  });

  it('offers no sample people on a server that seeds none', () => {
    expect(assigneeOptions({ id: 9, name: 'Ana' }, []).map((o) => o.name)).toEqual(['Ana (you)']);
  });

  it('still names a sample person an item already names', () => {
    expect(assigneeName(2, [])).toBe('Sam Rivera');
    expect(assigneeName(77, [])).toBe('User 77');
  });
});

describe('assignee options inside a campaign', () => {
  it('M15: offers the members and leaves out whoever left or was removed, even a mutual contact', () => {
    const options = assigneeOptions(
      { id: 10, name: 'Olga' },
      [
        { id: 11, name: 'Bob' },
        { id: 12, name: 'Cy' },
      ],
      [],
      {
        members: [
          { id: 10, name: 'Olga' },
          { id: 13, name: 'Dee' },
        ],
        departed: [11],
      },
    );
    expect(options.map((o) => o.name)).toEqual(['Olga (you)', 'Dee', 'Cy']);
  });
});
