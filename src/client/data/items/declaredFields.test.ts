import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../../../testkit/client/devices';
import { createSynced, settled, signIn, stored } from '../../../../testkit/client/harness';
import { freshPhone } from '../../../../testkit/client/server';
import type { ExportDocument } from '../../../shared/importExport';
import type { Item } from '../../../shared/item';
import {
  type FieldSchemaKey,
  fieldsWith,
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  type ItemFieldName,
  storedValueOf,
} from '../../../shared/itemFields';
import { itemCreateSchema } from '../../../shared/schemas';

const { device, guest } = testDevices();

/**
 * Values each schema key's contract keeps as they are, drawn per field: a new field of a known kind
 * is drawn, sent, stored, exported and imported here without a line of this file changing. The
 * references are the exceptions: an item's parent and an assignee must exist (see `refs`).
 */
const VALUES: { [K in FieldSchemaKey]: readonly unknown[] } = {
  title: ['Buy tape', 'Fix the gate', 'Call the plumber'],
  description: [null, 'Some notes', 'Two\nlines'],
  status: ['pending', 'in_progress'],
  ref: [null],
  date: ['2030-05-05', '2030-06-01', '2031-01-31'],
  instant: [null, '2030-05-05T07:30:00.000Z', '2030-06-01T18:05:00.000Z'],
  recurrence: [null, 'FREQ=DAILY', 'FREQ=WEEKLY;INTERVAL=2'],
  seriesUuid: [null, '0b7e5a3c-1f8d-4c1b-9a3e-2d6f8c4b7a10'],
  timeZone: ['Europe/Berlin', 'America/New_York', 'UTC'],
  priority: [1, 2, 3, 4],
  labels: [[], ['Errand'], ['Home', 'Work']],
  // Made unique per round (`placeOf`): a key a sibling already holds is not kept on a move.
  sortKey: ['a0V', 'a5', 'aV'],
  shortText: [null, 'teal', 'forest green'],
  minutes: [null, 0, 90, 100_000],
};

/** Starts on or before every due date above (D10: a start after the due date is refused). */
const START_DATES = [null, '2030-01-01', '2030-05-05'];

/** A picked file as the browser hands it over. */
const fileOf = (name: string, text: string) => {
  const blob = new Blob([text]);
  return { name, size: blob.size, text: async () => text, slice: (a: number, b: number) => blob.slice(a, b) };
};

type Values = Partial<Record<ItemFieldName, unknown>>;

/** `values` with each place made this round's own (a key no sibling holds), as a device would pick one. */
const placeOf = (values: Values, round: number, mark: string): Values =>
  Object.fromEntries(
    Object.entries(values).map(([f, v]) => [
      f,
      ITEM_FIELDS[f as ItemFieldName].schema === 'sortKey' ? `${String(v)}${mark}${'V'.repeat(round)}` : v,
    ]),
  );

/** Each declared field's value on a row, a field it lacks as its default (shared/itemFields.ts). */
const declared = (row: object, fields: readonly ItemFieldName[] = ITEM_FIELD_NAMES) =>
  Object.fromEntries(fields.map((f) => [f, storedValueOf(row as Values, f)]));

/** A value for every declared field `fields` a person can set, the references among `refs`. */
const valuesOf = (fields: readonly ItemFieldName[], refs: Record<'parent_id' | 'assigned_to', unknown[]>) =>
  fc.record(
    Object.fromEntries(
      fields.map((f) => [
        f,
        fc.constantFrom(
          ...(f === 'parent_id' || f === 'assigned_to'
            ? refs[f]
            : f === 'start_date'
              ? START_DATES
              : VALUES[ITEM_FIELDS[f].schema]),
        ),
      ]),
    ) as Record<string, fc.Arbitrary<unknown>>,
  );

describe('every declared field, all the way', () => {
  it('D4: every declared field survives create → PATCH → pull → export → import → undo', async () => {
    const phone = freshPhone();
    const a = device();
    const b = device();
    await signIn(a, phone, 'Fields');
    await signIn(b, phone, 'Fields');
    const campaign = await createSynced(a, { title: 'House', type: 'campaign' });
    // Sample user 2 is anyone's to assign (ARCHITECTURE §5 'Assignees'), a guest's import too.
    const refs = { parent_id: [null, campaign.id], assigned_to: [null, 2] };
    const patchable = fieldsWith('patch');
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        valuesOf(ITEM_FIELD_NAMES, refs),
        valuesOf(patchable, refs),
        async (drawn, drawnChanges) => {
          round += 1;
          const given = placeOf(drawn, round, 'C');
          const changes = placeOf(drawnChanges, round, 'P');
          // A rule needs a due date, which every date value here is.
          const create = itemCreateSchema.parse({ ...given, type: 'task' });
          const made = await createSynced(a, {
            ...(given as object),
            title: `${given.title} ${round}`,
            type: 'task',
          } as never);
          const expected: Values = { ...declared(create), title: `${given.title} ${round}` };
          expect(declared(made), 'created on the device').toEqual(expected);
          const server = async () => (await a.client.api.get<Item>(`/items/${made.id}`)).data;
          expect(declared(await server()), 'created on the server').toEqual(expected);

          // PATCH: every patchable field at once, through the device's write and its queued PATCH.
          const patch = itemCreateSchema.partial().parse(changes);
          const beforePatch = { ...expected };
          await a.client.items.update(made.id, changes as never);
          await settled(a);
          const patched: Values = { ...expected, ...declared(patch, patchable) };
          expect(declared((await stored(a, made))!), 'patched on the device').toEqual(patched);
          expect(declared(await server()), 'patched on the server').toEqual(patched);

          // Pull: another device of the account.
          await b.client.engine.sync();
          expect(declared((await stored(b, made))!), 'pulled').toEqual(patched);

          // Export from that device, then import into guests (a guest's own file: nothing renamed).
          const transfer = await b.client.transfer();
          const json = await transfer.exportFile('json');
          const doc = JSON.parse(json.text) as ExportDocument;
          const csv = await transfer.exportFile('csv');
          for (const file of [
            { name: 'o.json', text: JSON.stringify({ ...doc, user: null }) },
            { name: 'o.csv', text: csv.text },
          ]) {
            const g = guest();
            const gt = await g.client.transfer();
            const preview = await gt.planImport(fileOf(file.name, file.text));
            expect(preview.error, file.name).toBeNull();
            expect((await gt.runImport(preview)).failed, file.name).toEqual([]);
            const imported = await g.client.db.items.where('uuid').equals(made.uuid!).first();
            const parent =
              imported?.parent_id == null ? null : await g.client.db.items.get(imported.parent_id);
            expect(
              { ...declared(imported!), parent_id: parent ? parent.uuid : null },
              `imported from ${file.name}`,
            ).toEqual({ ...patched, parent_id: patched.parent_id === null ? null : campaign.uuid });
          }

          // Undo the PATCH on the device that made it: every undoable field goes back, on the server too.
          const undo = await a.client.undo();
          expect(await undo.undo()).not.toBeNull();
          await settled(a);
          const undone: Values = { ...patched };
          for (const f of fieldsWith('undo')) undone[f] = beforePatch[f];
          expect(declared((await stored(a, made))!), 'undone on the device').toEqual(undone);
          expect(declared(await server()), 'undone on the server').toEqual(undone);
        },
      ),
      { numRuns: 6, endOnFailure: true },
    );
  }, 600_000);
});
