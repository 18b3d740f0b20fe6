import { describe, expect, it } from 'vitest';
import { parseImport } from './importExport';
import { planUpdate } from './itemUpdate';
import { changedFields, mergeEdits } from './merge';
import { labelProblem, repeatedLabel, sameFieldValue, textArrayLiteral } from './planning';
import { itemCreateSchema, itemPatchSchema } from './schemas';
import { isFractionalKey } from './sortKey';

describe('planning fields', () => {
  it('checks labels: 1–40 characters, no #, @ or comma, no two alike ignoring case', () => {
    expect(labelProblem('Errand')).toBeNull();
    expect(labelProblem('a b')).toBeNull();
    expect(labelProblem('')).toMatch(/empty/);
    expect(labelProblem('x'.repeat(41))).toMatch(/40/);
    for (const bad of ['#a', 'a@b', 'a,b']) expect(labelProblem(bad)).toMatch(/#, @ or a comma/);
    expect(repeatedLabel(['Work', 'home', 'WORK'])).toBe('WORK');
    expect(repeatedLabel(['Work', 'home'])).toBeNull();
  });

  it('trims labels and keeps their case and order; a create may leave its place to the server', () => {
    const parsed = itemCreateSchema.parse({
      title: 'T',
      type: 'todo',
      labels: [' Home ', 'errand'],
      sort_key: null,
    });
    expect(parsed).toMatchObject({ labels: ['Home', 'errand'], sort_key: null });
    expect(itemPatchSchema.safeParse({ sort_key: null }).success).toBe(false);
    expect(itemPatchSchema.safeParse({ priority: 1, labels: [] }).success).toBe(true);
  });

  it('takes only sort keys a fractional index can follow', () => {
    for (const key of ['a0', 'a0V', 'b00', 'Zzz', `a0${'V'.repeat(62)}`])
      expect(isFractionalKey(key), key).toBe(true);
    for (const key of ['a00', 'x', '0']) expect(isFractionalKey(key), key).toBe(false);
  });

  it('writes labels as a PostgreSQL array literal that quotes what needs quoting', () => {
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['a b', 'q"x', 'b\\s', '{c}'])).toBe('{"a b","q\\"x","b\\\\s","{c}"}');
  });

  it('sees the same labels as no change, and a row without the fields as the defaults', () => {
    expect(sameFieldValue(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameFieldValue(['a', 'b'], ['b', 'a'])).toBe(false);
    const stored = {
      id: 1,
      type: 'todo' as const,
      parent_id: null,
      status: 'pending' as const,
      completed_at: null,
      due_date: null,
      labels: ['a'],
    };
    expect(planUpdate(stored, { labels: ['a'] }).fields).toEqual([]);
    expect(planUpdate(stored, { labels: ['A'], priority: 2 }).fields).toEqual(['labels', 'priority']);
    expect(changedFields({ version: 1 }, { version: 2, priority: 4, labels: [] })).toEqual([]);
    expect(changedFields({ version: 1, labels: ['x'] }, { version: 2, labels: ['x'], priority: 1 })).toEqual([
      'priority',
    ]);
  });

  it('merges a remote priority change with a local title change, and conflicts on labels changed both ways', () => {
    const base = { version: 1, title: 'Plan', priority: 4, labels: [] as string[] };
    const remote = { version: 2, title: 'Plan', priority: 1, labels: ['x'] };
    const kept = mergeEdits({ base, local: { ...base, title: 'Plan B' }, remote, dirty: ['title'] });
    expect(kept).toEqual({
      conflicts: [],
      merged: { version: 2, title: 'Plan B', priority: 1, labels: ['x'] },
    });
    const clash = mergeEdits({ base, local: { ...base, labels: ['y'] }, remote, dirty: ['labels'] });
    expect(clash.conflicts).toEqual(['labels']);
    const agree = mergeEdits({ base, local: { ...base, labels: ['x'] }, remote, dirty: ['labels'] });
    expect(agree.conflicts).toEqual([]);
  });

  it('imports what it can of the planning fields and lists what it leaves out', () => {
    const file = JSON.stringify({
      format: 'outpost',
      version: 1,
      exported_at: '2030-01-01T00:00:00.000Z',
      user: null,
      items: [
        {
          uuid: '6f1c2b9e-7a55-4d0e-9a3c-5b8e2f6d1a47',
          type: 'todo',
          title: 'Odd',
          status: 'pending',
          priority: 9,
          labels: ['ok', 'OK', '#no', 'x'.repeat(41)],
          sort_key: 'a-1',
        },
      ],
    });
    const plan = parseImport(file, { fileName: 'x.json', userId: 0 });
    expect(plan.items[0]).toMatchObject({ priority: 4, labels: ['ok'], sort_key: null });
    expect(plan.warnings.map((w) => w.reason)).toEqual([
      'Its priority “9” is not 1, 2, 3 or 4: imported as 4',
      'Its label “#no” cannot be used (A label cannot contain #, @ or a comma.): left out',
      `Its label “${'x'.repeat(41)}” cannot be used (A label must be 40 characters or less.): left out`,
      'Its place “a-1” is not a sort key: placed last',
    ]);
  });
});
