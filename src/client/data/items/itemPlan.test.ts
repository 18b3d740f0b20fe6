import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localItem } from '../../../../testkit/client/items';
import type { ItemPatch } from '../../../shared/schemas';
import { chooseWriteRoute } from '../changes/writeRoute';
import type { LocalItem } from '../store/types';
import { type EditBasis, type EditInput, editRows, planEdit } from './itemPlan';

const AT = '2026-03-01T10:00:00.000Z';
const SIGNED_IN = { userId: 1, isGuest: false };
const GUEST = { userId: 0, isGuest: true };

/** A stored todo under task 7, as the device holds it (a guest's when `guest`). */
function row(extra: Partial<LocalItem> = {}, guest = false): LocalItem {
  return localItem(12, 'Stored', {
    uuid: 'uuid-12',
    parent_id: 7,
    ...(guest ? { _syncStatus: 'local' as const } : {}),
    ...extra,
  });
}

function input(patch: ItemPatch, extra: Partial<EditInput> = {}): EditInput {
  return { id: 12, patch, viewer: SIGNED_IN, at: AT, ...extra };
}

const read = (r: LocalItem | undefined, last = 4): EditBasis => ({ row: r, last, guessed: false });
const guessed = (r: LocalItem, last = 4): EditBasis => ({ row: r, last, guessed: true });

/** Patches of the fields a screen edits, values that may or may not be the stored ones. */
const patches: fc.Arbitrary<ItemPatch> = fc.record(
  {
    title: fc.constantFrom('Stored', 'Renamed', 'Other'),
    description: fc.constantFrom(null, 'Notes'),
    priority: fc.constantFrom(1, 2, 3, 4),
    labels: fc.constantFrom([], ['home'], ['home', 'work']),
    due_date: fc.constantFrom(null, '2026-04-01'),
    start_date: fc.constantFrom(null, '2026-03-20', '2026-05-01'),
    status: fc.constantFrom('pending', 'in_progress', 'completed'),
    parent_id: fc.constantFrom(null, 7, 8),
    assigned_to: fc.constantFrom(null, 1, 2),
    sort_key: fc.constantFrom('a0', 'b0'),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<ItemPatch>;

const rows = fc.record({
  guest: fc.boolean(),
  status: fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const),
  pending: fc.boolean(),
});
const stored = ({
  guest,
  status,
  pending,
}: {
  guest: boolean;
  status: LocalItem['status'];
  pending: boolean;
}) =>
  row(
    {
      status,
      completed_at: status === 'completed' ? '2026-02-01T00:00:00.000Z' : null,
      ...(pending && !guest ? { _syncStatus: 'pending' as const, _dirty: ['title' as const] } : {}),
    },
    guest,
  );

describe('planEdit: the pure plan of an item edit', () => {
  it('plans the same change twice from the same input, the same row and the same guess, and changes neither', () => {
    fc.assert(
      fc.property(patches, rows, fc.boolean(), (patch, shape, fromGuess) => {
        const current = stored(shape);
        const copy = structuredClone(current);
        const ask = input(patch, { viewer: shape.guest ? GUEST : SIGNED_IN });
        const basis = fromGuess ? guessed(current) : read(current);
        expect(planEdit(ask, basis)).toEqual(planEdit(ask, basis));
        expect(current).toEqual(copy);
        expect(patch).toEqual(structuredClone(patch));
      }),
    );
  });

  it('a patch of the values already stored plans no change: no row, no queue entry, no undo', () => {
    fc.assert(
      fc.property(patches, rows, (patch, shape) => {
        const current = stored(shape);
        const same = Object.fromEntries(
          Object.keys(patch).map((f) => [f, (current as unknown as Record<string, unknown>)[f] ?? null]),
        ) as ItemPatch;
        expect(planEdit(input(same), read(current))).toEqual({ kind: 'unchanged', row: current });
      }),
    );
  });

  it('every change bumps the local version once, queues exactly its changed fields (none for a guest), and goes from the guess only when it reads nothing else', () => {
    fc.assert(
      fc.property(patches, rows, fc.boolean(), (patch, shape, fromGuess) => {
        const current = stored(shape);
        const viewer = shape.guest ? GUEST : SIGNED_IN;
        const plan = planEdit(input(patch, { viewer }), fromGuess ? guessed(current) : read(current));
        if (plan.kind !== 'change') return;
        expect(plan.changed.length).toBeGreaterThan(0);
        expect(plan.row._localVersion).toBe(current._localVersion + 1);
        expect(plan.row.updated_at).toBe(AT);
        if (shape.guest) expect(plan.queue).toBeNull();
        else {
          expect(plan.queue?.after).toBe(4);
          expect(Object.keys(plan.queue?.entry.data ?? {}).sort()).toEqual([...plan.changed].sort());
          expect(plan.row._syncStatus).toBe('pending');
          expect(plan.row._dirty).toEqual(expect.arrayContaining([...plan.changed]));
        }
        const reads = plan.reads.parent || plan.reads.assignee || plan.reads.family;
        if (plan.facts.fromGuess) expect(fromGuess && !reads && plan.problem === null).toBe(true);
        expect(plan.facts).toMatchObject({ rows: 1, removed: 0, guestHistory: shape.guest });
        // An edit that rolls up records its undo once the family is known.
        if (plan.reads.family) expect(plan.undo).toBeNull();
      }),
    );
  });

  it('I12: a title edit from the guess is one row in place with its queue entry and undo, chosen for the raw route', () => {
    const current = row();
    const plan = planEdit(input({ title: 'Renamed' }), guessed(current, 9));
    expect(plan).toMatchObject({
      kind: 'change',
      changed: ['title'],
      queue: { entry: { kind: 'update', data: { title: 'Renamed' }, itemId: 12, baseVersion: 1 }, after: 9 },
      label: 'Todo updated',
      reads: { parent: false, assignee: false, family: false },
      problem: null,
      facts: { rows: 1, removed: 0, guestHistory: false, fromGuess: true },
      undo: { owner: 1, at: AT, steps: [{ kind: 'patch', uuid: 'uuid-12', fields: { title: 'Stored' } }] },
    });
    // The route chooser reads the plan's facts: before any transaction, this one goes by its own raw one.
    const where = { internals: true, transaction: 'none', inPlace: true } as const;
    if (plan.kind !== 'change') throw new Error('a change');
    expect(chooseWriteRoute({ ...plan.facts, ...where })).toBe('ownRawTransaction');
    const completing = planEdit(input({ status: 'completed' }), guessed(current, 9));
    if (completing.kind !== 'change') throw new Error('a change');
    expect(chooseWriteRoute({ ...completing.facts, ...where })).toBe('dexie');
    // The same edit read in its transaction, or of a temporary id, does not go from the guess.
    expect(planEdit(input({ title: 'Renamed' }), read(current))).toMatchObject({
      facts: { fromGuess: false },
    });
    expect(planEdit(input({ title: 'Renamed' }, { id: -3 }), guessed({ ...current, id: -3 }))).toMatchObject({
      facts: { fromGuess: false },
    });
  });

  it('a status change or a move reads its family, an assignment its assignee, and neither goes from the guess', () => {
    const current = row();
    expect(planEdit(input({ status: 'completed' }), guessed(current))).toMatchObject({
      label: 'Todo completed',
      reads: { family: true, parent: false },
      undo: null,
      facts: { fromGuess: false },
    });
    expect(planEdit(input({ parent_id: 8, sort_key: 'b0' }), guessed(current))).toMatchObject({
      label: 'Todo moved',
      reads: { family: true, parent: true },
      facts: { fromGuess: false },
    });
    expect(
      planEdit(
        input({ assigned_to: 2 }, { request: { kind: 'assign', data: { user_id: 2 } } }),
        guessed(current),
      ),
    ).toMatchObject({
      queue: { entry: { kind: 'assign', data: { user_id: 2 } } },
      reads: { assignee: true, family: false },
      facts: { fromGuess: false },
    });
  });

  it('a missing or deleted item plans nothing, and dates out of order are refused before anything is stored (D10)', () => {
    expect(planEdit(input({ title: 'x' }), read(undefined))).toEqual({ kind: 'missing' });
    expect(planEdit(input({ title: 'x' }), read(row({ _deleted: 1 })))).toEqual({ kind: 'missing' });
    const plan = planEdit(input({ start_date: '2026-05-01', due_date: '2026-04-01' }), read(row()));
    expect(plan).toMatchObject({ kind: 'change', problem: { start_date: [expect.any(String)] } });
  });

  it('records no undo for a write asked not to (undo’s own writes, imports), and a guest’s edit records its history', () => {
    expect(planEdit(input({ title: 'Renamed' }, { options: { record: false } }), read(row()))).toMatchObject({
      undo: null,
    });
    expect(planEdit(input({ title: 'Renamed' }, { viewer: GUEST }), read(row({}, true)))).toMatchObject({
      queue: null,
      undo: { owner: 0 },
      facts: { guestHistory: true },
    });
  });
});

describe('editRows: the rows a planned change stores once its reads are done', () => {
  it('keeps the plan’s own facts for the one row, and gives the roll-up’s rows after the item with their own facts', () => {
    const current = row();
    const plan = planEdit(input({ title: 'Renamed' }), guessed(current));
    if (plan.kind !== 'change') throw new Error('a change');
    expect(editRows(plan, {})).toEqual({ row: plan.row, rows: [plan.row], facts: plan.facts });

    const completing = planEdit(input({ status: 'completed' }), read(current));
    if (completing.kind !== 'change') throw new Error('a change');
    const parent = localItem(7, 'Task', { type: 'task', status: 'completed' });
    const done = { ...completing.row };
    const result = editRows(completing, {
      rolled: new Map([
        [12, done],
        [7, parent],
      ]),
    });
    expect(result.rows).toEqual([expect.objectContaining({ id: 12, status: 'completed' }), parent]);
    expect(result.facts).toEqual({ rows: 2, removed: 0, guestHistory: false, fromGuess: false });
  });

  it('puts the assignee’s summary on the row it stores', () => {
    const plan = planEdit(input({ assigned_to: 2 }), read(row()));
    if (plan.kind !== 'change') throw new Error('a change');
    const ann = { id: 2, name: 'Ann', phone: '+15550000002', created_at: AT, updated_at: AT };
    expect(editRows(plan, { assignedUser: ann }).row).toMatchObject({ assigned_to: 2, assignedUser: ann });
  });
});
