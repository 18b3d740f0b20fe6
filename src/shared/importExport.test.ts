import fc from 'fast-check';
import { v5 as uuidV5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  type ExportSource,
  exportCsv,
  exportDocument,
  IMPORT_NAMESPACE,
  importFileProblem,
  parseImport,
  readDate,
} from './importExport';
import { ITEM_STATUSES, type ItemType } from './item';

const at = '2030-01-01T00:00:00.000Z';
const source = (over: Partial<ExportSource> & Pick<ExportSource, 'id' | 'type' | 'title'>): ExportSource => ({
  uuid: uuidV5(`test:${over.id}`, IMPORT_NAMESPACE),
  parent_id: null,
  description: null,
  status: 'pending',
  assigned_to: null,
  due_date: null,
  end_date: null,
  remind_at: null,
  created_at: at,
  updated_at: at,
  completed_at: null,
  ...over,
});

/** Random trees of at most three levels that obey the hierarchy (campaign > task > todo). */
const trees = fc
  .array(
    fc.record({
      type: fc.constantFrom<ItemType>('campaign', 'task', 'todo'),
      title: fc.string({ minLength: 1, maxLength: 30 }).filter((t) => t.trim() !== ''),
      description: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
      status: fc.constantFrom(...ITEM_STATUSES),
      parentPick: fc.nat(),
      due: fc.option(fc.constantFrom('2030-05-01', '2031-12-31'), { nil: null }),
    }),
    { maxLength: 25 },
  )
  .map((rows) => {
    const out: ExportSource[] = [];
    rows.forEach((row, index) => {
      const allowed = out.filter((p) =>
        row.type === 'task' ? p.type === 'campaign' : row.type === 'todo' ? p.type !== 'todo' : false,
      );
      const parent =
        allowed.length > 0 && row.parentPick % 2 === 0 ? allowed[row.parentPick % allowed.length] : undefined;
      out.push(
        source({
          id: index + 1,
          type: row.type,
          title: row.title.trim(),
          description: row.description,
          status: row.status,
          due_date: row.due,
          parent_id: parent?.id ?? null,
        }),
      );
    });
    return out;
  });

/** The tree as (uuid → parent uuid, fields), independent of ids and order. */
const shapeOf = (
  items: readonly { uuid: string | null; title: string; type: string; status: string }[],
  parents: Map<string, string | null>,
) =>
  new Map(
    items.map((i) => [
      i.uuid,
      { title: i.title, type: i.type, status: i.status, parent: parents.get(i.uuid ?? '') ?? null },
    ]),
  );

describe('Outpost JSON', () => {
  it('round-trips: export then import into an empty device gives the same tree, parents first', () => {
    fc.assert(
      fc.property(trees, (items) => {
        const doc = exportDocument(items, { id: 7, name: 'Sam' }, new Date(at));
        const plan = parseImport(JSON.stringify(doc), { fileName: 'x.json', userId: 7 });
        expect(plan.problems).toEqual([]);
        if (items.length === 0) {
          expect(plan.error).toBe('This file holds no items.');
          return;
        }
        expect(plan.error).toBeNull();
        const byId = new Map(items.map((i) => [i.id, i]));
        const before = shapeOf(
          items,
          new Map(
            items.map((i) => [
              i.uuid ?? '',
              i.parent_id === null ? null : (byId.get(i.parent_id)?.uuid ?? null),
            ]),
          ),
        );
        const after = shapeOf(plan.items, new Map(plan.items.map((i) => [i.uuid, i.parent_uuid])));
        expect(after).toEqual(before);
        const position = new Map(plan.items.map((i, n) => [i.uuid, n]));
        for (const item of plan.items)
          if (item.parent_uuid)
            expect(position.get(item.parent_uuid)!).toBeLessThan(position.get(item.uuid)!);
      }),
    );
  });

  it("derives new uuids for another account's export, the same ones every time", () => {
    fc.assert(
      fc.property(
        trees.filter((t) => t.length > 0),
        (items) => {
          const text = JSON.stringify(exportDocument(items, { id: 7, name: 'Sam' }, new Date(at)));
          const first = parseImport(text, { fileName: 'x.json', userId: 8 });
          const second = parseImport(text, { fileName: 'other name.json', userId: 8 });
          expect(second.items).toEqual(first.items);
          const original = new Set(items.map((i) => i.uuid));
          for (const item of first.items) expect(original.has(item.uuid)).toBe(false);
          // Parents still point at the derived uuids of the same file.
          const derived = new Set(first.items.map((i) => i.uuid));
          for (const item of first.items)
            if (item.parent_uuid) expect(derived.has(item.parent_uuid)).toBe(true);
        },
      ),
    );
  });

  it('keeps the uuids of a guest export (anyone may import their own device)', () => {
    const items = [source({ id: 1, type: 'todo', title: 'a' })];
    const plan = parseImport(JSON.stringify(exportDocument(items, null, new Date(at))), {
      fileName: 'x.json',
      userId: 5,
    });
    expect(plan.items[0]?.uuid).toBe(items[0]?.uuid);
  });

  it('refuses JSON of the wrong shape or damaged JSON with a clear message', () => {
    expect(parseImport('{"items": []}', { fileName: 'a.json', userId: 0 }).error).toMatch(
      /not an Outpost export/,
    );
    expect(parseImport('[1,2]', { fileName: 'a.json', userId: 0 }).error).toMatch(/not an Outpost export/);
    expect(parseImport('{"format": "outpost", "items": [', { fileName: 'a.json', userId: 0 }).error).toMatch(
      /could not be read/,
    );
  });

  it('lists every item it cannot read and imports the rest', () => {
    const doc = {
      format: 'outpost',
      version: 1,
      user: null,
      items: [
        { uuid: uuidV5('1', IMPORT_NAMESPACE), type: 'todo', title: 'fine' },
        { uuid: uuidV5('2', IMPORT_NAMESPACE), type: 'goal', title: 'bad type' },
        { uuid: 'nope', type: 'todo', title: 'bad uuid' },
        { uuid: uuidV5('3', IMPORT_NAMESPACE), type: 'todo', title: '   ' },
        'junk',
      ],
    };
    const plan = parseImport(JSON.stringify(doc), { fileName: 'a.json', userId: 0 });
    expect(plan.items.map((i) => i.title)).toEqual(['fine']);
    expect(plan.problems.map((p) => [p.line, p.reason])).toEqual([
      [2, 'Unknown type “goal”'],
      [3, 'No uuid'],
      [4, 'No title'],
      [5, 'Not an item'],
    ]);
  });
});

describe('Outpost CSV', () => {
  it('round-trips the tree through export and import, and a second import derives the same uuids', () => {
    fc.assert(
      fc.property(
        trees.map((items) =>
          // Parents are found by title in the CSV, so titles are made unique here.
          items.map((i) => ({
            ...i,
            title: `${i.title} #${i.id}`,
            description: i.description?.trim() || null,
          })),
        ),
        (items) => {
          const csv = exportCsv(items);
          const plan = parseImport(csv, { fileName: 'mine.csv', userId: 1 });
          if (items.length === 0) return;
          expect(plan.problems).toEqual([]);
          const titles = new Map(items.map((i) => [i.id, i.title]));
          const want = items
            .map(
              (i) =>
                [i.type, i.title, i.status, i.parent_id === null ? null : titles.get(i.parent_id)] as const,
            )
            .sort();
          const planTitles = new Map(plan.items.map((i) => [i.uuid, i.title]));
          const got = plan.items
            .map(
              (i) =>
                [
                  i.type,
                  i.title,
                  i.status,
                  i.parent_uuid === null ? null : planTitles.get(i.parent_uuid),
                ] as const,
            )
            .sort();
          expect(got).toEqual(want);
          expect(parseImport(csv, { fileName: 'mine.csv', userId: 1 }).items).toEqual(plan.items);
        },
      ),
    );
  });

  it('says why each junk line was skipped, and that nothing could be read', () => {
    const plan = parseImport('type,title\nwidget,thing\n,\ntodo,\n', { fileName: 'j.csv', userId: 0 });
    expect(plan.items).toEqual([]);
    expect(plan.error).toBe('No line of this file could be read as an item.');
    expect(plan.problems.map((p) => [p.line, p.reason])).toEqual([
      [2, 'Unknown type “widget”'],
      [4, 'No title'],
    ]);
  });
});

describe('Todoist CSV', () => {
  // As Todoist writes it: a BOM, CRLF, sections, indents, notes, quoted commas and dates.
  const todoist = [
    '\uFEFFTYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT',
    'section,Kitchen,,,,,,,,,,',
    'task,"Buy plates, bowls",Cheap ones,4,1,Sam (123),,2030-05-01,en,Europe/London,,',
    'task,Blue ones,,4,2,Sam (123),,tomorrow,en,Europe/London,,',
    'note,"Ask Alex, maybe",,,,Sam (123),,,,,,',
    'task,Glasses,,1,3,Sam (123),,1 May 2030,en,Europe/London,,',
    '',
    'section,Garden,,,,,,,,,,',
    'task,Mow,,1,1,Sam (123),,every day,en,Europe/London,,',
    'event,Something odd,,,,,,,,,,',
    '',
  ].join('\r\n');

  it('makes a campaign named after the file with its tasks and todos', () => {
    const plan = parseImport(todoist, { fileName: 'Move house.csv', userId: 0 });
    expect(plan.source).toBe('todoist-csv');
    expect(plan.counts).toEqual({ campaign: 1, task: 4, todo: 2 });
    const byTitle = new Map(plan.items.map((i) => [i.title, i]));
    const campaign = byTitle.get('Move house')!;
    expect(campaign.type).toBe('campaign');
    expect(byTitle.get('Kitchen')).toMatchObject({ type: 'task', parent_uuid: campaign.uuid });
    const plates = byTitle.get('Buy plates, bowls')!;
    expect(plates).toMatchObject({
      type: 'task',
      parent_uuid: campaign.uuid,
      due_date: '2030-05-01',
      description: 'Cheap ones',
    });
    expect(byTitle.get('Blue ones')).toMatchObject({
      type: 'todo',
      parent_uuid: plates.uuid,
      due_date: null,
      description: 'Ask Alex, maybe',
    });
    expect(byTitle.get('Glasses')).toMatchObject({
      type: 'todo',
      parent_uuid: plates.uuid,
      due_date: '2030-05-01',
    });
    expect(byTitle.get('Mow')).toMatchObject({ type: 'task', due_date: null });
    expect(plan.problems).toEqual([
      { line: 10, text: 'event,Something odd,,,,,,,,,,', reason: 'Unknown TYPE “event”' },
    ]);
    expect(parseImport(todoist, { fileName: 'Move house.csv', userId: 0 }).items).toEqual(plan.items);
  });
});

describe('bad input', () => {
  it('refuses an empty, an unknown or a binary file with a clear message', () => {
    expect(parseImport('', { fileName: 'a.csv', userId: 0 }).error).toMatch(/empty/);
    expect(parseImport('hello,world\n1,2', { fileName: 'a.csv', userId: 0 }).error).toMatch(
      /not a file Outpost can import/,
    );
    const empty = { name: 'a.json', size: 0, bytes: new Uint8Array() };
    expect(importFileProblem(empty)).toMatch(/empty/);
    expect(
      importFileProblem({ name: 'big.json', size: 20 * 1024 * 1024, bytes: new Uint8Array(10) }),
    ).toMatch(/too large/);
    expect(
      importFileProblem({ name: 'x.png', size: 4, bytes: new Uint8Array([0x89, 0x50, 0, 0x47]) }),
    ).toMatch(/not a text file/);
  });

  it('reads dates only when they are dates', () => {
    expect(readDate('2030-02-29')).toBeNull();
    expect(readDate('2032-02-29')).toBe('2032-02-29');
    expect(readDate('May 3, 2030')).toBe('2030-05-03');
    expect(readDate('every monday')).toBeNull();
  });
});
