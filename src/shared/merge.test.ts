import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changedFields,
  deleteConflicts,
  MERGE_FIELDS,
  type MergeField,
  mergeEdits,
  replayQueue,
} from './merge';

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

describe('queue replay', () => {
  const entry = fc.record({
    key: fc.constantFrom('k1', 'k2', 'k3', 'k4', 'k5'),
    id: fc.integer({ min: 1, max: 3 }),
    patch: fc.option(fc.record({ title: fc.constantFrom('x', 'y', 'z') }), { nil: null }),
  });

  it('gives one result when the whole queue is replayed twice', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const start = new Map([1, 2, 3].map((id) => [id, { id, title: 'start' }]));
        const once = replayQueue(start, entries);
        const twice = replayQueue(once.state, entries, once.seen);
        expect([...twice.state.entries()]).toEqual([...once.state.entries()]);
      }),
    );
  });

  it('ignores a delivered-twice entry in the middle of the queue', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 8 }), fc.nat(), (entries, at) => {
        const i = at % entries.length;
        const doubled = [...entries.slice(0, i + 1), entries[i]!, ...entries.slice(i + 1)];
        const start = new Map([1, 2, 3].map((id) => [id, { id, title: 'start' }]));
        expect([...replayQueue(start, doubled).state]).toEqual([...replayQueue(start, entries).state]);
      }),
    );
  });
});
