import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityDetails } from './activity';
import { planRevert } from './history';
import { type ExportSource, exportCsv, exportDocument, parseImport } from './importExport';
import { PATCHABLE_FIELDS } from './item';
import {
  CARRY_FIELDS,
  type FieldSchemaKey,
  fieldsWith,
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  type ItemFieldName,
  NULL_IS_NONE,
} from './itemFields';
import { MERGE_FIELDS, MOVE_FIELDS } from './merge';
import { DEFAULT_PRIORITY, PLANNING_DEFAULTS } from './planning';
import { createPayload } from './protocol';
import { nextOccurrence } from './recurrence';
import { FIELD_SCHEMAS, itemCreateSchema, itemPatchSchema } from './schemas';
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
  minutes: [90, null],
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

  it('D5: every field an export writes comes back from the Outpost JSON and CSV imports as it was', () => {
    // A value each schema key's reader keeps as it is (none included), with a second one.
    const exported = fieldsWith('export').filter((f) => f !== 'parent_id' && f !== 'assigned_to');
    fc.assert(
      fc.property(
        fc.record(
          Object.fromEntries(exported.map((f) => [f, fc.constantFrom(...SAMPLES[ITEM_FIELDS[f].schema])])),
        ),
        fc.boolean(),
        (values, asCsv) => {
          const source = {
            ...values,
            // The reader judges a rule on the item as it is: a repeating task has a due date.
            due_date: values.recurrence ? '2030-05-05' : values.due_date,
            id: 1,
            uuid: '1d2c3b4a-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
            type: 'task',
            parent_id: null,
            assigned_to: null,
            created_at: '2030-01-01T00:00:00.000Z',
            updated_at: '2030-01-01T00:00:00.000Z',
            completed_at: null,
          } as unknown as ExportSource;
          const text = asCsv
            ? exportCsv([source])
            : JSON.stringify(exportDocument([source], { id: 5, name: 'Me' }, new Date()));
          const plan = parseImport(text, { fileName: 'f', userId: 5 });
          expect(plan.warnings).toEqual([]);
          const [read] = plan.items as unknown as Record<ItemFieldName, unknown>[];
          for (const f of exported) {
            const given = (source as unknown as Record<string, unknown>)[f];
            // A field none of whose values is none in the API (a zone, a place) reads back as none = not given.
            const expected = given === null && ITEM_FIELDS[f].default !== null ? null : given;
            expect(read?.[f], `${f} (${asCsv ? 'CSV' : 'JSON'})`).toEqual(expected);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('D6: a create sends every declared field, one the row lacks as none where its schema takes none and otherwise not at all', () => {
    for (const key of Object.keys(NULL_IS_NONE) as FieldSchemaKey[])
      expect(FIELD_SCHEMAS[key].safeParse(null).success, key).toBe(NULL_IS_NONE[key]);
    const bare = createPayload({ title: 'x', type: 'task', uuid: null });
    for (const f of ITEM_FIELD_NAMES.filter((f) => f !== 'title'))
      if (NULL_IS_NONE[ITEM_FIELDS[f].schema]) expect(bare[f], f).toBeNull();
      else expect(bare, f).not.toHaveProperty(f);
    const full = Object.fromEntries(ITEM_FIELD_NAMES.map((f) => [f, SAMPLES[ITEM_FIELDS[f].schema][0]]));
    const sent = createPayload({ ...full, title: 'Buy tape', type: 'task', uuid: null });
    for (const f of ITEM_FIELD_NAMES) expect(sent[f], f).toEqual(full[f]);
    // What it sends is a create the contract takes.
    expect(itemCreateSchema.safeParse({ ...sent, uuid: undefined }).success).toBe(true);
  });

  it('D7: a next occurrence carries exactly the fields declared to carry, a field the row lacks as its default', () => {
    const item = {
      ...Object.fromEntries(ITEM_FIELD_NAMES.map((f) => [f, SAMPLES[ITEM_FIELDS[f].schema][0]])),
      uuid: '1d2c3b4a-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
      type: 'task' as const,
      due_date: '2030-05-05',
      recurrence: 'FREQ=DAILY',
      series_uuid: null,
      parent_id: 7,
      assigned_to: 3,
    };
    const next = nextOccurrence(item as Parameters<typeof nextOccurrence>[0]) as unknown as Record<
      string,
      unknown
    >;
    expect(CARRY_FIELDS).toEqual(fieldsWith('carry'));
    for (const f of CARRY_FIELDS) expect(next[f], f).toEqual((item as Record<string, unknown>)[f]);
    // What is not carried is the occurrence's own: pending, due a day on, a new series member, no place.
    expect(next).toMatchObject({ status: 'pending', due_date: '2030-05-06', series_uuid: item.uuid });
    expect(next).not.toHaveProperty('sort_key');
    expect(next).not.toHaveProperty('end_date');
    const bare = nextOccurrence({
      ...item,
      time_zone: undefined,
      priority: undefined,
      labels: undefined,
    } as Parameters<typeof nextOccurrence>[0]) as unknown as Record<string, unknown>;
    expect(bare).toMatchObject({
      time_zone: ITEM_FIELDS.time_zone.default,
      priority: ITEM_FIELDS.priority.default,
      labels: [],
    });
  });
});
