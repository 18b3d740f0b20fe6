import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedFields, deleteConflicts, MERGE_FIELDS, type MergeField, mergeEdits, rebase } from './merge';

type Rec = { version: number; title: string; status: string; assigned_to: number | null };

const base: Rec = { version: 3, title: 'Paint', status: 'pending', assigned_to: null };

describe('three-way merge by version', () => {
  it('merges edits to different fields silently', () => {
    const local = { ...base, title: 'Paint the fence' };
    const remote = { ...base, version: 4, status: 'completed' };
    const out = mergeEdits({ base, local, remote, dirty: ['title'] });
    expect(out.conflicts).toEqual([]);
    expect(out.merged).toMatchObject({ version: 4, title: 'Paint the fence', status: 'completed' });
  });

  it('reports a conflict when both sides changed the same field differently', () => {
    const out = mergeEdits({
      base,
      local: { ...base, title: 'A' },
      remote: { ...base, version: 5, title: 'B' },
      dirty: ['title'],
    });
    expect(out.conflicts).toEqual(['title']);
  });

  it('sees no conflict when both sides made the same change', () => {
    const out = mergeEdits({
      base,
      local: { ...base, title: 'A' },
      remote: { ...base, version: 5, title: 'A' },
      dirty: ['title'],
    });
    expect(out.conflicts).toEqual([]);
  });

  it('sees no conflict when the server is not newer than the base', () => {
    const out = mergeEdits({
      base,
      local: { ...base, title: 'A' },
      remote: { ...base, title: 'B' },
      dirty: ['title'],
    });
    expect(out.conflicts).toEqual([]);
    expect(out.merged.title).toBe('A');
  });

  it('treats a delete as conflicting only when the server changed the item after its base', () => {
    expect(deleteConflicts(3, 3)).toBe(false);
    expect(deleteConflicts(3, 4)).toBe(true);
    expect(deleteConflicts(null, 4)).toBe(false);
  });

  const field = fc.constantFrom<MergeField>('title', 'status', 'assigned_to');
  const value = (f: MergeField) =>
    f === 'assigned_to' ? fc.option(fc.integer({ min: 1, max: 4 })) : fc.constantFrom('a', 'b', 'c');
  const edits = fc.array(
    field.chain((f) => value(f).map((v) => [f, v] as const)),
    { maxLength: 4 },
  );
  const apply = (rec: Rec, list: readonly (readonly [MergeField, unknown])[]) => {
    const out: Record<string, unknown> = { ...rec };
    for (const [f, v] of list) out[f] = v;
    return out as Rec;
  };

  it('finds a conflict exactly when the same field changed on both sides', () => {
    fc.assert(
      fc.property(edits, edits, (mine, theirs) => {
        const local = apply(base, mine);
        const remote = { ...apply(base, theirs), version: base.version + 1 };
        const dirty = changedFields(base, local);
        const { conflicts } = mergeEdits({ base, local, remote, dirty });
        const remoteChanged = new Set(changedFields(base, remote));
        const l: Record<string, unknown> = local;
        const r: Record<string, unknown> = remote;
        const expected = dirty.filter((f) => remoteChanged.has(f) && l[f] !== r[f]);
        expect(conflicts).toEqual(expected);
      }),
    );
  });

  it('changes nothing when merging twice', () => {
    fc.assert(
      fc.property(edits, edits, (mine, theirs) => {
        const local = apply(base, mine);
        const remote = { ...apply(base, theirs), version: base.version + 1 };
        const dirty = changedFields(base, local);
        const once = mergeEdits({ base, local, remote, dirty }).merged;
        const twice = mergeEdits({ base, local: once, remote, dirty }).merged;
        expect(twice).toEqual(once);
        // And merging the result against itself as the new base is a no-op.
        expect(mergeEdits({ base: once, local: once, remote: once, dirty }).merged).toEqual(once);
      }),
    );
  });

  it('lists only merge fields as changed', () => {
    expect(changedFields(base, { ...base, version: 9 })).toEqual([]);
    expect(MERGE_FIELDS).toContain('title');
  });
});

describe('rebase: local edits onto a newer server copy (C3, Q9)', () => {
  type Full = Rec & { completed_at: string | null };
  const start: Full = { ...base, completed_at: null };
  const field = fc.constantFrom<MergeField>('title', 'status', 'assigned_to');
  const value = (f: MergeField) =>
    f === 'status'
      ? fc.constantFrom('pending', 'in_progress', 'completed')
      : f === 'assigned_to'
        ? fc.option(fc.integer({ min: 1, max: 4 }))
        : fc.constantFrom('a', 'b', 'c');
  const edits = fc.array(
    field.chain((f) => value(f).map((v) => [f, v] as const)),
    { maxLength: 4 },
  );
  const edited = (list: readonly (readonly [MergeField, unknown])[], stamp: string) => {
    const out: Record<string, unknown> = { ...start };
    for (const [f, v] of list) out[f] = v;
    out.completed_at = out.status === 'completed' ? stamp : null;
    return out as Full;
  };
  const sides = fc.tuple(edits, edits, fc.integer({ min: 1, max: 3 }));

  it('C3: rebasing twice changes nothing: the merged copy is current against the same server copy', () => {
    fc.assert(
      fc.property(sides, ([mine, theirs, ahead]) => {
        const item = edited(mine, 'local');
        const remote = { ...edited(theirs, 'remote'), version: start.version + ahead };
        const dirty = changedFields(start, item);
        const once = rebase({ item, base: start, dirty, deleted: false }, remote);
        if (once.kind !== 'merged') return;
        const twice = rebase({ item: once.item, base: once.base, dirty, deleted: false }, remote);
        expect(twice).toEqual({ kind: 'current' });
      }),
    );
  });

  it('C3: keeps every local edit and takes every other field from the server, completed_at with status', () => {
    fc.assert(
      fc.property(sides, ([mine, theirs, ahead]) => {
        const item = edited(mine, 'local');
        const remote = { ...edited(theirs, 'remote'), version: start.version + ahead };
        const dirty = changedFields(start, item);
        const out = rebase({ item, base: start, dirty, deleted: false }, remote);
        const both = dirty.filter(
          (f) =>
            changedFields(start, remote).includes(f) && item[f as keyof Full] !== remote[f as keyof Full],
        );
        if (both.length > 0) {
          expect(out).toEqual({ kind: 'conflict', type: 'update' });
          return;
        }
        expect(out.kind).toBe('merged');
        if (out.kind !== 'merged') return;
        expect(out.base).toBe(remote);
        expect(out.item.version).toBe(remote.version);
        for (const f of MERGE_FIELDS) {
          const key = f as keyof Full;
          if (!(key in start)) continue;
          expect(out.item[key]).toEqual(dirty.includes(f) ? item[key] : remote[key]);
        }
        expect(out.item.completed_at).toBe(
          dirty.includes('status') ? item.completed_at : remote.completed_at,
        );
      }),
    );
  });

  it('C3: is current when the server copy is not newer than the base', () => {
    const item = { ...start, title: 'mine' };
    expect(rebase({ item, base: start, dirty: ['title'], deleted: false }, { ...start, title: 'x' })).toEqual(
      {
        kind: 'current',
      },
    );
  });

  it('C2: a local delete conflicts only with a server change after its base', () => {
    const remote = { ...start, version: start.version + 1 };
    expect(rebase({ item: start, base: start, dirty: [], deleted: true }, remote)).toEqual({
      kind: 'conflict',
      type: 'delete',
    });
    expect(rebase({ item: start, base: null, dirty: [], deleted: true }, remote)).toEqual({
      kind: 'current',
    });
  });
});
