import { describe, expect, it } from 'vitest';
import { assigneeName, assigneeOptions, isShared } from './assignees';

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
    // Everyone else removed: the campaign is its owner's alone again, so contacts are offered (M16), but
    // not the one who was removed.
    const options = assigneeOptions(
      { id: 10, name: 'Olga' },
      [
        { id: 11, name: 'Bob' },
        { id: 12, name: 'Cy' },
      ],
      [],
      { members: [{ id: 10, name: 'Olga' }], departed: [11] },
    );
    expect(options.map((o) => o.name)).toEqual(['Olga (you)', 'Cy']);
    const shared = assigneeOptions({ id: 10, name: 'Olga' }, [{ id: 11, name: 'Bob' }], [], {
      members: [
        { id: 10, name: 'Olga' },
        { id: 13, name: 'Dee' },
      ],
      departed: [11],
    });
    expect(shared.map((o) => o.name)).toEqual(['Olga (you)', 'Dee']);
  });
});

describe('assignee options inside a shared campaign', () => {
  const me = { id: 10, name: 'Olga' };
  const mutuals = [
    { id: 11, name: 'Bob' },
    { id: 12, name: 'Cy' },
  ];
  const samples = [{ id: 1, name: 'Alex Morgan' }];

  it('M16: offers its members only: no mutual contact outside it, no sample user', () => {
    const roster = {
      members: [
        { id: 10, name: 'Olga' },
        { id: 11, name: 'Bob' },
      ],
      departed: [],
    };
    expect(assigneeOptions(me, mutuals, samples, roster).map((o) => o.name)).toEqual(['Olga (you)', 'Bob']);
  });

  it('M16: known shared before its roster is read (offline), offers yourself alone', () => {
    expect(assigneeOptions(me, mutuals, samples, null, true).map((o) => o.name)).toEqual(['Olga (you)']);
  });

  it('M16: a campaign of its owner alone offers contacts and samples as before', () => {
    const roster = { members: [{ id: 10, name: 'Olga' }], departed: [] };
    expect(assigneeOptions(me, mutuals, samples, roster).map((o) => o.name)).toEqual([
      'Olga (you)',
      'Bob',
      'Cy',
      'Alex Morgan',
    ]);
  });

  it('M16: a campaign is shared when it has members besides its owner, or the reader is one', () => {
    expect(isShared(null)).toBe(false);
    expect(isShared({ my_role: 'owner', members_count: 1 })).toBe(false);
    expect(isShared({ my_role: 'owner', members_count: 2 })).toBe(true);
    expect(isShared({ my_role: 'viewer' })).toBe(true);
    expect(isShared({ my_role: null, members_count: undefined })).toBe(false);
  });
});
