import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityDetails } from './activity';
import { planRevert } from './history';
import { PATCHABLE_FIELDS } from './item';
import { fieldsWith, ITEM_FIELD_NAMES, ITEM_FIELDS } from './itemFields';
import { MERGE_FIELDS, MOVE_FIELDS } from './merge';
import { DEFAULT_PRIORITY, PLANNING_DEFAULTS } from './planning';
import { itemCreateSchema, itemPatchSchema } from './schemas';
import { DEFAULT_TIME_ZONE } from './timeZone';
import { inverseSteps, UNDO_FIELDS, type UndoFields, undoFieldsOf } from './undo';

/** A value of each schema key that its zod schema keeps as it is, and a second, different one. */
const SAMPLES = {
  title: ['Buy tape', 'Buy glue'],
  description: ['Some notes', null],
  status: ['pending', 'in_progress'],
  ref: [null, 7],
  date: ['2030-05-05', null],
  instant: ['2030-05-05T07:30:00.000Z', null],
  recurrence: ['FREQ=DAILY', null],
  seriesUuid: ['0b7e5a3c-1f8d-4c1b-9a3e-2d6f8c4b7a10', null],
  timeZone: ['Europe/Berlin', 'UTC'],
  priority: [1, 4],
  labels: [['Errand'], []],
  sortKey: ['a0', 'a1'],
  shortText: ['teal', null],
} as const;

describe('item fields, declared once', () => {
  it('D1: the patchable, merge and move lists are the descriptors flagged so, in declaration order', () => {
    expect(PATCHABLE_FIELDS).toEqual(ITEM_FIELD_NAMES.filter((f) => ITEM_FIELDS[f].patch));
    expect(MERGE_FIELDS).toEqual(fieldsWith('merge'));
    expect([...MOVE_FIELDS].sort()).toEqual(
      ITEM_FIELD_NAMES.filter((f) => ITEM_FIELDS[f].merge === 'later wins').sort(),
    );
    // Every field both sides may edit is compared by the merge.
    expect(MERGE_FIELDS).toEqual(PATCHABLE_FIELDS);
  });

  it('D1: a PATCH takes exactly the patchable fields and a create every declared one (only the title required)', () => {
    expect(Object.keys(itemPatchSchema.shape).sort()).toEqual([...PATCHABLE_FIELDS].sort());
    const createKeys = Object.keys(itemCreateSchema.shape);
    for (const f of ITEM_FIELD_NAMES) expect(createKeys).toContain(f);
    const bare = itemCreateSchema.safeParse({ type: 'todo' });
    expect(bare.success).toBe(false);
    expect(bare.error?.issues.map((i) => i.path[0])).toEqual(['title']);
  });

  it('D1: each declared field’s schema keeps a sample value as it is, in a create and (when patchable) a PATCH', () => {
    for (const f of ITEM_FIELD_NAMES) {
      for (const value of SAMPLES[ITEM_FIELDS[f].schema]) {
        const created = itemCreateSchema.parse({ title: 'x', type: 'task', [f]: value });
        expect(created[f], f).toEqual(value);
        if (ITEM_FIELDS[f].patch)
          expect((itemPatchSchema.parse({ [f]: value }) as Record<string, unknown>)[f], f).toEqual(value);
      }
    }
  });

  it('D1: the defaults are those the rest of the code reads a missing value as', () => {
    expect(ITEM_FIELDS.time_zone.default).toBe(DEFAULT_TIME_ZONE);
    expect(ITEM_FIELDS.priority.default).toBe(DEFAULT_PRIORITY);
    expect(ITEM_FIELDS.labels.default).toEqual(PLANNING_DEFAULTS.labels);
    expect(ITEM_FIELDS.sort_key.default).toBe(PLANNING_DEFAULTS.sort_key);
  });

  it('D2: every undo field a change moves is put back by the undo, a new field included', () => {
    const undoable = fieldsWith('undo').filter((f) => f !== 'parent_id');
    fc.assert(
      fc.property(fc.constantFrom(...undoable), fc.boolean(), (field, flip) => {
        const [a, b] = SAMPLES[ITEM_FIELDS[field].schema];
        const [was, now] = flip ? [b, a] : [a, b];
        const row = (value: unknown) =>
          undoFieldsOf({ title: 'x', status: 'pending', [field]: value }, null) as UndoFields;
        const steps = inverseSteps(new Map([['u1', row(was)]]), new Map([['u1', row(now)]]));
        const patch = steps.find((s) => s.kind === 'patch');
        // A blank place ('') is no value an undo puts back.
        if ((was as unknown) === '' && ITEM_FIELDS[field].optional) return;
        expect(patch?.kind === 'patch' && patch.fields[field as keyof UndoFields]).toEqual(was);
      }),
    );
    expect(UNDO_FIELDS).toEqual(fieldsWith('undo').map((f) => (f === 'parent_id' ? 'parent_uuid' : f)));
  });

  it('D3: every field with a label reads by it on an activity line, and a restore sets back every field it records', () => {
    for (const f of fieldsWith('label')) {
      const [a, b] = SAMPLES[ITEM_FIELDS[f].schema];
      const lines = activityDetails({ action: 'updated', metadata: { [f]: { old: a, new: b } } });
      if (f === 'assigned_to') continue; // ids are never shown: the assignee reads by name in the headline
      expect(lines[0], f).toMatch(new RegExp(`^${ITEM_FIELDS[f].label}: `));
    }
    for (const f of fieldsWith('history')) {
      const [a, b] = SAMPLES[ITEM_FIELDS[f].schema];
      const plan = planRevert({ [f]: { old: a, new: b } }, { [f]: b });
      expect(plan.patch, f).toHaveProperty(f);
      const moved = planRevert({ [f]: { old: a, new: b } }, { [f]: 'something else' });
      expect(moved.skipped, f).toEqual([ITEM_FIELDS[f].history]);
    }
  });
});
