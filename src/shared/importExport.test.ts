import fc from 'fast-check';
import Papa from 'papaparse';
import { v5 as uuidV5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { escapeTypedTokens } from './comments';
import {
  csvCell,
  type ExportSource,
  exportCsv,
  exportDocument,
  IMPORT_NAMESPACE,
  importFileProblem,
  importTimeSummary,
  parseImport,
  readCsvCell,
  readDate,
} from './importExport';
import { ITEM_STATUSES, type ItemType } from './item';
import { fieldsWith, storedValueOf } from './itemFields';

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

  it('T3: the owner’s finished time entries come back, others’ and running timers are left out and said', () => {
    const entry = (n: number, author: string, from: string, to: string | null, note = '') => ({
      uuid: uuidV5(`entry:${n}`, IMPORT_NAMESPACE),
      author,
      started_at: from,
      ended_at: to,
      note,
    });
    const items = [
      source({
        id: 1,
        type: 'task',
        title: 'Budget',
        time_entries: [
          entry(2, 'Sam', '2026-11-02T11:00:00.000Z', '2026-11-02T11:45:00.000Z'),
          entry(1, 'Sam', '2026-11-02T09:00:00.000Z', '2026-11-02T10:30:00.000Z', 'Sums'),
          entry(3, 'Kit', '2026-11-02T09:00:00.000Z', '2026-11-02T10:00:00.000Z'),
          entry(4, 'Sam', '2026-11-02T12:00:00.000Z', null),
        ],
      }),
    ];
    const doc = exportDocument(items, { id: 7, name: 'Sam' }, new Date(at));
    // Oldest first, as the server lists them.
    expect(doc.items[0]?.time_entries.map((e) => e.note)).toEqual(['Sums', '', '', '']);
    const text = JSON.stringify(doc);
    const own = parseImport(text, { fileName: 'x.json', userId: 7 });
    expect(own.time_entries).toEqual([
      {
        uuid: uuidV5('entry:1', IMPORT_NAMESPACE),
        item_uuid: items[0]!.uuid,
        started_at: '2026-11-02T09:00:00.000Z',
        ended_at: '2026-11-02T10:30:00.000Z',
        note: 'Sums',
      },
      expect.objectContaining({ uuid: uuidV5('entry:2', IMPORT_NAMESPACE), note: '' }),
    ]);
    expect(importTimeSummary(own.time_entries)).toEqual({ count: 2, minutes: 135 });
    expect(own.warnings.map((w) => w.reason)).toEqual([
      '1 time entry by others left out (time is only ever its person’s)',
      '1 running timer left out: stop it and export again',
    ]);
    // Another account of Sam's: the same entries under derived uuids, the same each time, and said.
    const moved = parseImport(text, { fileName: 'x.json', userId: 8 });
    expect(moved.time_entries.map((e) => e.started_at)).toEqual(own.time_entries.map((e) => e.started_at));
    expect(moved.time_entries.map((e) => e.uuid)).not.toContain(own.time_entries[0]!.uuid);
    expect(parseImport(text, { fileName: 'y.json', userId: 8 }).time_entries).toEqual(moved.time_entries);
    expect(moved.warnings.map((w) => w.reason)).toContain('2 time entries by Sam restored as yours');
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

/** The people the importer may assign to, named as a spreadsheet would need care with. */
const PEOPLE = [
  { id: 1, name: 'Alex Morgan' },
  { id: 7, name: 'Sam' },
  { id: 77, name: '=Dana "D" Ortiz' },
  { id: 4812, name: 'Ünal, K.' },
] as const;

/** Any item set a person could make: every field set or not, text that needs care, a tree of any shape. */
const fullItems = fc
  .array(
    fc.record({
      type: fc.constantFrom<ItemType>('campaign', 'task', 'todo'),
      title: fc
        .tuple(
          fc.constantFrom('', '=', '+', '-', '@', "'=", 'Ünïcode ', '"quoted" '),
          fc.string({ maxLength: 30 }),
        )
        .map(([a, b]) => `${a}${b}`.trim())
        .filter((t) => t !== ''),
      description: fc.option(
        fc
          .tuple(
            fc.constantFrom('', ' ', '\t', '\r', '\n', '=', "'-", ','),
            fc.string({ maxLength: 40 }),
            fc.constantFrom('', ' ', '\n'),
          )
          .map(([a, b, c]) => `${a}${b}${c}`)
          .filter((d) => d.trim() !== ''),
        { nil: null },
      ),
      status: fc.constantFrom(...ITEM_STATUSES),
      parentPick: fc.nat(),
      due: fc.option(fc.constantFrom('2030-05-01', '2031-12-31', '2032-02-29'), { nil: null }),
      end: fc.option(fc.constantFrom('2030-06-01', '2033-01-15'), { nil: null }),
      remind: fc.option(
        fc
          .date({
            min: new Date('2000-01-01T00:00:00Z'),
            max: new Date('2199-12-31T00:00:00Z'),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString()),
        { nil: null },
      ),
      rule: fc.option(
        fc.constantFrom(
          'FREQ=DAILY',
          'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU',
          'FREQ=MONTHLY;BYDAY=-1FR',
          'FREQ=YEARLY;COUNT=3',
        ),
        { nil: null },
      ),
      assignee: fc.option(fc.constantFrom(...PEOPLE), { nil: null }),
      // The exporter's own comments (others' come back named in their body: tested on their own).
      comments: fc.array(
        fc.record({
          uuid: fc.uuid({ version: 4 }),
          body: fc
            .tuple(
              fc.constantFrom('', '@Alex ', '=', 'see @[3] '),
              fc.string({ minLength: 1, maxLength: 40 }),
            )
            .map(([a, b]) => `${a}${b}`)
            .filter((b) => b.trim() !== ''),
          minute: fc.nat(5000),
        }),
        { maxLength: 3 },
      ),
      series: fc.option(fc.uuid({ version: 4 }), { nil: null }),
      // Undefined: an item from before the field, which exports as UTC.
      zone: fc.constantFrom(undefined, 'UTC', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5'),
      // Undefined: a device's row from before the planning fields (p4, no labels, no place yet).
      priority: fc.constantFrom(undefined, 1, 2, 3, 4),
      labels: fc.option(
        fc.uniqueArray(
          fc
            .tuple(
              fc.constantFrom('', '=', '+', '-', "'", 'Ünï ', '"q" ', 'a b'),
              fc.string({ maxLength: 12 }).map((t) => t.replace(/[#@,]/g, '')),
            )
            .map(([a, b]) => `${a}${b}`.trim())
            .filter((t) => t !== '' && [...t].length <= 40),
          { maxLength: 10, selector: (l) => l.toLowerCase() },
        ),
        { nil: undefined },
      ),
      sortKey: fc.constantFrom(undefined, '', 'a0', 'a1V', 'Zzz', 'b00', `a0${'V'.repeat(40)}`),
      age: fc.integer({ min: 0, max: 100 }),
    }),
    { maxLength: 20 },
  )
  .map((rows) => {
    const out: ExportSource[] = [];
    rows.forEach((row, index) => {
      const allowed = out.filter((p) =>
        row.type === 'task' ? p.type === 'campaign' : row.type === 'todo' ? p.type !== 'todo' : false,
      );
      const parent =
        allowed.length > 0 && row.parentPick % 3 !== 0 ? allowed[row.parentPick % allowed.length] : undefined;
      const repeats = row.type !== 'campaign' && row.due !== null ? row.rule : null;
      out.push(
        source({
          id: index + 1,
          type: row.type,
          title: row.title,
          description: row.description,
          status: row.status,
          due_date: row.due,
          end_date: row.end,
          remind_at: row.remind,
          recurrence: repeats,
          series_uuid: repeats === null ? null : row.series,
          assigned_to: row.assignee?.id ?? null,
          assignee_name: row.assignee?.name ?? null,
          comments: row.comments.map((c) => ({
            uuid: c.uuid,
            author: 'Sam',
            body: c.body,
            created_at: new Date(Date.parse(at) + c.minute * 60_000).toISOString(),
          })),
          // Its owner alone: the exporter, who is the importer.
          ...(row.type === 'campaign'
            ? { members: [{ name: 'Sam', phone: '+15555550199', role: 'owner' }] }
            : {}),
          time_zone: row.zone,
          priority: row.priority,
          labels: row.labels,
          sort_key: row.sortKey,
          parent_id: parent?.id ?? null,
          // Made in any order, but never before the parent it was made under.
          created_at: new Date(Date.parse(at) + (index + row.age) * 60_000).toISOString(),
        }),
      );
    });
    return out;
  });

/** What an import of `items` should plan: each item as it was, in the order it was made, parents first. */
function expectedPlan(items: readonly ExportSource[]) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const made = new Map(items.map((i) => [i.id, i.created_at]));
  const placed = new Set<number>();
  const order: ExportSource[] = [];
  const remaining = [...items].sort((a, b) => made.get(a.id)!.localeCompare(made.get(b.id)!) || a.id - b.id);
  while (remaining.length > 0) {
    const index = remaining.findIndex((i) => i.parent_id === null || placed.has(i.parent_id));
    const [next] = remaining.splice(index, 1);
    placed.add(next!.id);
    order.push(next!);
  }
  return order.map((i) => ({
    uuid: i.uuid,
    parent_uuid: i.parent_id === null ? null : (byId.get(i.parent_id)?.uuid ?? null),
    type: i.type,
    // Every declared field as stored (a row's missing one as its default, a blank place as none); the
    // assignee is the person the name found.
    ...Object.fromEntries(
      fieldsWith('export')
        .filter((f) => f !== 'parent_id')
        .map((f) => [f, f === 'assigned_to' ? i.assigned_to : storedValueOf(i, f)]),
    ),
  }));
}

describe('export identity', () => {
  it('Outpost JSON: export then import gives back every item with every field, in order (export identity)', () => {
    fc.assert(
      fc.property(fullItems, (items) => {
        const doc = exportDocument(items, { id: 7, name: 'Sam' }, new Date(at));
        const plan = parseImport(JSON.stringify(doc), { fileName: 'x.json', userId: 7, people: PEOPLE });
        expect(plan.problems).toEqual([]);
        expect(plan.warnings).toEqual([]);
        expect(plan.items).toEqual(expectedPlan(items));
        // The exporter's own comments come back as theirs, as written, under their own uuids.
        const byUuid = new Map(items.map((i) => [i.uuid, i]));
        expect(plan.comments).toEqual(
          plan.items.flatMap((i) =>
            [...(byUuid.get(i.uuid)?.comments ?? [])]
              .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.uuid.localeCompare(b.uuid))
              .map((c) => ({ ...c, item_uuid: i.uuid, body: escapeTypedTokens(c.body) })),
          ),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('Outpost CSV: export then import gives back every item with every field, in order (export identity)', () => {
    fc.assert(
      fc.property(fullItems, (items) => {
        const plan = parseImport(exportCsv(items), { fileName: 'x.csv', userId: 7, people: PEOPLE });
        if (items.length === 0) return;
        expect(plan.problems).toEqual([]);
        expect(plan.warnings).toEqual([]);
        expect(plan.items).toEqual(expectedPlan(items));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the order items were made in, also for a child made before its parent (export identity)', () => {
    const made = (minute: number) => new Date(Date.parse(at) + minute * 60_000).toISOString();
    const items = [
      source({ id: 1, type: 'campaign', title: 'C', created_at: made(5) }),
      source({ id: 2, type: 'task', title: 'T early', parent_id: 1, created_at: made(1) }),
      source({ id: 3, type: 'todo', title: 'D', parent_id: 2, created_at: made(4) }),
      source({ id: 4, type: 'task', title: 'T later', parent_id: 1, created_at: made(3) }),
      source({ id: 5, type: 'todo', title: 'Loose', created_at: made(2) }),
    ];
    const want = ['Loose', 'C', 'T early', 'T later', 'D'];
    const json = parseImport(JSON.stringify(exportDocument(items, null, new Date(at))), {
      fileName: 'x.json',
      userId: 0,
    });
    expect(json.items.map((i) => i.title)).toEqual(want);
    expect(parseImport(exportCsv(items), { fileName: 'x.csv', userId: 0 }).items.map((i) => i.title)).toEqual(
      want,
    );
  });

  it('leaves out, and lists, a reminder or repeat rule it cannot use, importing the rest of the item (export identity)', () => {
    const doc = {
      format: 'outpost',
      version: 1,
      user: null,
      items: [
        { uuid: uuidV5('a', IMPORT_NAMESPACE), type: 'todo', title: 'a', remind_at: 'tomorrow at 9' },
        {
          uuid: uuidV5('b', IMPORT_NAMESPACE),
          type: 'todo',
          title: 'b',
          recurrence: 'FREQ=MONTHLY;BYDAY=53MO',
          due_date: '2030-01-01',
        },
        { uuid: uuidV5('c', IMPORT_NAMESPACE), type: 'todo', title: 'c', recurrence: 'FREQ=DAILY' },
      ],
    };
    const plan = parseImport(JSON.stringify(doc), { fileName: 'a.json', userId: 0 });
    expect(plan.items.map((i) => [i.title, i.remind_at, i.recurrence])).toEqual([
      ['a', null, null],
      ['b', null, null],
      ['c', null, null],
    ]);
    expect(plan.warnings.map((w) => [w.line, w.reason])).toEqual([
      [1, 'Its reminder “tomorrow at 9” is not a date and time: left out'],
      [2, expect.stringMatching(/^Its repeat rule cannot be used \(In a monthly rule/)],
      [3, 'Its repeat rule cannot be used (A repeating item needs a due date.): left out'],
    ]);
  });

  it('reads an item’s time zone, leaving out and listing one that is not an IANA name (export identity)', () => {
    const doc = {
      format: 'outpost',
      version: 1,
      user: null,
      items: [
        { uuid: uuidV5('z1', IMPORT_NAMESPACE), type: 'todo', title: 'z1', time_zone: 'Australia/Sydney' },
        { uuid: uuidV5('z2', IMPORT_NAMESPACE), type: 'todo', title: 'z2', time_zone: 'Mars/Olympus' },
        { uuid: uuidV5('z3', IMPORT_NAMESPACE), type: 'todo', title: 'z3' },
      ],
    };
    const plan = parseImport(JSON.stringify(doc), { fileName: 'z.json', userId: 0 });
    expect(plan.items.map((i) => [i.title, i.time_zone])).toEqual([
      ['z1', 'Australia/Sydney'],
      ['z2', null],
      ['z3', null],
    ]);
    expect(plan.warnings.map((w) => [w.line, w.reason])).toEqual([
      [2, 'Its time zone “Mars/Olympus” is not an IANA time zone: left out'],
    ]);
  });
});

describe('Outpost JSON: people and comments', () => {
  const ids = { campaign: uuidV5('p:1', IMPORT_NAMESPACE), task: uuidV5('p:2', IMPORT_NAMESPACE) };
  const mine = '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0c01';
  const theirs = '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0c02';
  const items = [
    source({
      id: 1,
      uuid: ids.campaign,
      type: 'campaign',
      title: 'Move',
      members: [
        { name: 'Sam', phone: '+15555550199', role: 'owner' },
        { name: 'Ann Lee', phone: '+15555550111', role: 'editor' },
        { name: 'Bo', phone: '', role: 'viewer' },
        { name: 'Cy', phone: null, role: 'viewer' },
      ],
    }),
    source({
      id: 2,
      uuid: ids.task,
      parent_id: 1,
      type: 'task',
      title: 'Pack',
      assigned_to: 12,
      assignee_name: 'Ann Lee',
      comments: [
        {
          uuid: theirs,
          author: 'Ann Lee',
          body: 'Boxes are in the shed',
          created_at: '2030-01-01T09:30:00.000Z',
        },
        { uuid: mine, author: 'Sam', body: 'Thanks @Ann Lee', created_at: '2030-01-01T09:00:00.000Z' },
      ],
    }),
    source({
      id: 3,
      parent_id: 2,
      type: 'todo',
      title: 'Tape',
      assigned_to: 1,
      assignee_name: 'Alex Morgan',
    }),
  ];
  const people = [
    { id: 1, name: 'Alex Morgan' },
    { id: 7, name: 'Sam' },
  ];
  const doc = exportDocument(items, { id: 7, name: 'Sam' }, new Date(at));

  it('T1: exports the assignee by name, each item’s comments oldest first and each campaign’s members', () => {
    expect(doc.items.map((i) => i.assigned_to)).toEqual([null, 'Ann Lee', 'Alex Morgan']);
    expect(doc.items[1]?.comments).toEqual([
      { uuid: mine, author: 'Sam', body: 'Thanks @Ann Lee', created_at: '2030-01-01T09:00:00.000Z' },
      {
        uuid: theirs,
        author: 'Ann Lee',
        body: 'Boxes are in the shed',
        created_at: '2030-01-01T09:30:00.000Z',
      },
    ]);
    expect(doc.items[0]?.members).toEqual([
      { name: 'Sam', phone: '+15555550199', role: 'owner' },
      { name: 'Ann Lee', phone: '+15555550111', role: 'editor' },
      { name: 'Bo', phone: null, role: 'viewer' },
      { name: 'Cy', phone: null, role: 'viewer' },
    ]);
    expect(doc.items[2]).not.toHaveProperty('members');
    expect(exportCsv(items).split('\r\n')[2]).toContain(',Ann Lee,');
  });

  it('T2: imports your own comments as written and others’ as yours naming who wrote them; lists members and assignees it cannot restore', () => {
    const plan = parseImport(JSON.stringify(doc), { fileName: 'x.json', userId: 7, people });
    expect(plan.items.map((i) => [i.title, i.assigned_to])).toEqual([
      ['Move', null],
      ['Pack', null],
      ['Tape', 1],
    ]);
    expect(plan.comments).toEqual([
      {
        uuid: mine,
        item_uuid: ids.task,
        author: 'Sam',
        body: 'Thanks @Ann Lee',
        created_at: '2030-01-01T09:00:00.000Z',
      },
      {
        uuid: expect.not.stringMatching(theirs),
        item_uuid: ids.task,
        author: 'Ann Lee',
        body: 'Ann Lee wrote on 2030-01-01 09:30 UTC:\nBoxes are in the shed',
        created_at: '2030-01-01T09:30:00.000Z',
      },
    ]);
    expect(plan.warnings.map((w) => `${w.line} ${w.text}: ${w.reason}`)).toEqual([
      '1 Move: 3 members not added: Ann Lee (editor), Bo (viewer), Cy (viewer) (share the campaign again)',
      '2 Pack: Its assignee “Ann Lee” is not someone you can assign here: imported unassigned',
      '2 Pack: 1 comment by others restored as yours, each beginning with who wrote it and when (Outpost writes a comment only as the person who adds it)',
    ]);
    // The same file read again plans the same comments: a second import writes none of them again.
    expect(parseImport(JSON.stringify(doc), { fileName: 'x.json', userId: 7, people }).comments).toEqual(
      plan.comments,
    );
  });

  it('imports another account’s export with every comment named and its owner among the members not added', () => {
    const plan = parseImport(JSON.stringify(doc), { fileName: 'x.json', userId: 8, people });
    expect(plan.comments.map((c) => c.body)).toEqual([
      'Sam wrote on 2030-01-01 09:00 UTC:\nThanks @Ann Lee',
      'Ann Lee wrote on 2030-01-01 09:30 UTC:\nBoxes are in the shed',
    ]);
    expect(plan.comments.map((c) => c.uuid)).not.toContain(mine);
    expect(plan.warnings[0]?.reason).toBe(
      '4 members not added: Sam (owner), Ann Lee (editor), Bo (viewer), Cy (viewer) (share the campaign again)',
    );
  });

  it('reads an older file’s assignee id, and lists a name that more than one person has', () => {
    const older = JSON.stringify({
      ...doc,
      items: doc.items.map((i) => ({ ...i, assigned_to: i.id === 3 ? 1 : null })),
    });
    expect(parseImport(older, { fileName: 'x.json', userId: 7 }).items[2]?.assigned_to).toBe(1);
    const twins = parseImport(JSON.stringify(doc), {
      fileName: 'x.json',
      userId: 7,
      people: [...people, { id: 9, name: 'alex morgan' }, { id: 10, name: 'Alex Morgan' }],
    });
    expect(twins.items[2]?.assigned_to).toBeNull();
    expect(twins.warnings.map((w) => w.reason)).toContain(
      'Its assignee “Alex Morgan” names more than one person you can assign: imported unassigned',
    );
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

  it('writes cells a spreadsheet would run as formulas with a leading quote, and reads them back without it (CSV injection)', () => {
    const risky = [
      '=HYPERLINK("http://x.example","y")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      "'=already quoted",
      "''+twice",
    ];
    const items = risky.map((title, n) =>
      source({
        id: n + 1,
        type: 'todo',
        title,
        description: ['\tcmd', '\rline', '=1+1', null, '-', '@'][n] ?? null,
      }),
    );
    const csv = exportCsv(items);
    const cells = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''))
      .data.slice(1)
      .flat();
    for (const cell of cells) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);
    expect(csv).toContain(`"'=HYPERLINK(""http://x.example"",""y"")"`);
    const plan = parseImport(csv, { fileName: 'risky.csv', userId: 1 });
    expect(plan.problems).toEqual([]);
    expect(plan.items.map((i) => [i.title, i.description])).toEqual(
      items.map((i) => [i.title, i.description]),
    );
    // A quote a person typed before an ordinary word is theirs, not ours: kept both ways.
    expect(parseImport("type,title\ntodo,'quoted\n", { fileName: 'q.csv', userId: 1 }).items[0]?.title).toBe(
      "'quoted",
    );
    expect(parseImport('type,title\ntodo,=raw\n', { fileName: 'q.csv', userId: 1 }).items[0]?.title).toBe(
      '=raw',
    );
  });

  it('reads back any text it writes into a cell, whatever it starts with (CSV injection)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', '=', '+', '-', '@', '\t', '\r', "'", "'=", "''-", ' '),
        fc.string(),
        (start, rest) => {
          const value = start + rest;
          expect(readCsvCell(csvCell(value))).toBe(value);
          expect(csvCell(value)).not.toMatch(/^[=+\-@\t\r]/);
        },
      ),
    );
  });

  it('keeps children under their own parent when two parents share a title (CSV round trip)', () => {
    const items = [
      source({ id: 1, type: 'campaign', title: 'Home', created_at: '2030-01-01T00:00:00.000Z' }),
      source({ id: 2, type: 'task', title: 'Paint', parent_id: 1, created_at: '2030-01-02T00:00:00.000Z' }),
      source({ id: 3, type: 'campaign', title: 'Home', created_at: '2030-01-03T00:00:00.000Z' }),
      source({ id: 4, type: 'task', title: 'Sell', parent_id: 3, created_at: '2030-01-04T00:00:00.000Z' }),
      source({ id: 5, type: 'todo', title: 'Brush', parent_id: 2, created_at: '2030-01-05T00:00:00.000Z' }),
    ];
    const plan = parseImport(exportCsv(items), { fileName: 'homes.csv', userId: 1 });
    expect(plan.problems).toEqual([]);
    const uuid = (id: number) => items.find((i) => i.id === id)?.uuid;
    const parentOf = (title: string) => plan.items.find((i) => i.title === title)?.parent_uuid;
    expect(parentOf('Paint')).toBe(uuid(1));
    expect(parentOf('Sell')).toBe(uuid(3));
    expect(parentOf('Brush')).toBe(uuid(2));
    // A file without uuids (made by hand) names a parent by the nearest row above with that title.
    const handMade =
      'type,title,parent_title\ncampaign,Home\ntask,Paint,Home\ncampaign,Home\ntask,Sell,Home\n';
    const byHand = parseImport(handMade, { fileName: 'hand.csv', userId: 1 }).items;
    expect(byHand.map((i) => byHand.findIndex((p) => p.uuid === i.parent_uuid))).toEqual([-1, 0, -1, 2]);
  });

  it('keeps white space around descriptions (CSV round trip)', () => {
    const descriptions = ['  indented', 'trailing  ', '\n\nafter blank lines\n', ' both \t'];
    const items = descriptions.map((description, n) =>
      source({ id: n + 1, type: 'todo', title: `t${n}`, description }),
    );
    const plan = parseImport(exportCsv(items), { fileName: 'ws.csv', userId: 1 });
    expect(plan.items.map((i) => i.description)).toEqual(descriptions);
  });

  it('writes each uuid and reads it back, so importing your own CSV again doubles nothing (CSV round trip)', () => {
    const items = [
      source({ id: 1, type: 'campaign', title: 'Move' }),
      source({ id: 2, type: 'task', title: 'Pack', parent_id: 1 }),
    ];
    const csv = exportCsv(items);
    expect(csv.split('\r\n')[0]).toContain('uuid');
    const plan = parseImport(csv, { fileName: 'renamed copy.csv', userId: 9 });
    expect(plan.items.map((i) => [i.uuid, i.parent_uuid])).toEqual([
      [items[0]!.uuid, null],
      [items[1]!.uuid, items[0]!.uuid],
    ]);
    const doubled = parseImport(`${csv}\r\n${csv.split('\r\n')[1]}`, { fileName: 'd.csv', userId: 9 });
    expect(doubled.items).toHaveLength(2);
    expect(doubled.problems.map((p) => [p.line, p.reason])).toEqual([[4, 'The same uuid as line 2']]);
    const bad = parseImport('type,title,uuid\ntodo,x,not-a-uuid\n', { fileName: 'b.csv', userId: 9 });
    expect(bad.problems.map((p) => p.reason)).toEqual(['Its uuid “not-a-uuid” is not a uuid']);
  });

  it('reads common words for a status and lists the ones it does not know (CSV round trip)', () => {
    const rows = [
      ['done', 'completed'],
      ['Completed', 'completed'],
      ['complete', 'completed'],
      ['FINISHED', 'completed'],
      ['in progress', 'in_progress'],
      ['In-Progress', 'in_progress'],
      ['in_progress', 'in_progress'],
      ['doing', 'in_progress'],
      ['started', 'in_progress'],
      ['ACTIVE', 'in_progress'],
      ['closed', 'completed'],
      ['Closed', 'completed'],
      ['todo', 'pending'],
      ['to do', 'pending'],
      ['open', 'pending'],
      ['pending', 'pending'],
      ['', 'pending'],
      ['blocked', 'pending'],
    ] as const;
    const csv = `type,title,status\n${rows.map(([status], n) => `todo,t${n},${status}`).join('\n')}\n`;
    const plan = parseImport(csv, { fileName: 's.csv', userId: 1 });
    expect(plan.items.map((i) => i.status)).toEqual(rows.map(([, want]) => want));
    expect(plan.problems).toEqual([]);
    expect(plan.warnings).toEqual([
      { line: 19, text: 'todo,t17,blocked', reason: 'Unknown status “blocked”: imported as pending' },
    ]);
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

  it('makes a campaign named after the file, a task per section with its tasks as todos', () => {
    const plan = parseImport(todoist, { fileName: 'Move house.csv', userId: 0 });
    expect(plan.source).toBe('todoist-csv');
    expect(plan.counts).toEqual({ campaign: 1, task: 2, todo: 4 });
    const byTitle = new Map(plan.items.map((i) => [i.title, i]));
    const campaign = byTitle.get('Move house')!;
    expect(campaign.type).toBe('campaign');
    const kitchen = byTitle.get('Kitchen')!;
    expect(kitchen).toMatchObject({ type: 'task', parent_uuid: campaign.uuid });
    // A section's tasks go under its task (ARCHITECTURE §5), whatever their INDENT.
    expect(byTitle.get('Buy plates, bowls')).toMatchObject({
      type: 'todo',
      parent_uuid: kitchen.uuid,
      due_date: '2030-05-01',
      description: 'Cheap ones',
      // Todoist's CSV writes the screen's numbering: PRIORITY 4 is p4 (none), ours too.
      priority: 4,
    });
    expect(byTitle.get('Blue ones')).toMatchObject({
      type: 'todo',
      parent_uuid: kitchen.uuid,
      due_date: null,
      description: 'Ask Alex, maybe',
    });
    expect(byTitle.get('Glasses')).toMatchObject({
      type: 'todo',
      parent_uuid: kitchen.uuid,
      due_date: '2030-05-01',
      priority: 1,
    });
    const garden = byTitle.get('Garden')!;
    expect(garden).toMatchObject({ type: 'task', parent_uuid: campaign.uuid });
    expect(byTitle.get('Mow')).toMatchObject({ type: 'todo', parent_uuid: garden.uuid, due_date: null });
    // Parents first, in the file's order.
    expect(plan.items.map((i) => i.title)).toEqual([
      'Move house',
      'Kitchen',
      'Buy plates, bowls',
      'Blue ones',
      'Glasses',
      'Garden',
      'Mow',
    ]);
    expect(plan.problems).toEqual([
      { line: 10, text: 'event,Something odd,,,,,,,,,,', reason: 'Unknown TYPE “event”' },
    ]);
    expect(parseImport(todoist, { fileName: 'Move house.csv', userId: 0 }).items).toEqual(plan.items);
  });

  it('lists in the preview every value it does not take: dates it cannot read, nesting it flattens', () => {
    const plan = parseImport(todoist, { fileName: 'Move house.csv', userId: 0 });
    const said = plan.warnings.map((w) => `${w.line}: ${w.reason}`);
    expect(said).toEqual([
      "3: Time zone “Europe/London” noted: dates imported as written, in this device's time zone",
      '4: Indent 2 flattened: under “Buy plates, bowls” in Todoist, a todo of “Kitchen” beside it (Outpost has three levels)',
      '4: Date “tomorrow” not imported: only calendar dates (2030-05-01, 1 May 2030) are read',
      '6: Indent 3 flattened: under “Blue ones” in Todoist, a todo of “Kitchen” beside it (Outpost has three levels)',
      '9: Repeating date “every day” not imported: set the repeat on the item',
    ]);
  });

  it('nests INDENT 2–4 under the task above outside sections, and names where a deeper line was', () => {
    const file = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
      'task,Stray,,1,2,Sam (1),,,en,UTC',
      'task,Plan trip,,1,1,Sam (1),,,en,UTC',
      'task,Book flights,,1,2,Sam (1),,,en,UTC',
      'task,Compare prices,,1,3,Sam (1),,,en,UTC',
      'task,Check bags,,1,4,Sam (1),,,en,UTC',
      'task,Book hotel,,1,2,Sam (1),,,en,UTC',
      'task,Pack,,1,1,Sam (1),,,en,UTC',
      'task,Socks,,1,3,Sam (1),,,en,UTC',
    ].join('\n');
    const plan = parseImport(file, { fileName: 'Trip.csv', userId: 0 });
    const parentOf = new Map(plan.items.map((i) => [i.uuid, i.title]));
    expect(plan.items.map((i) => [i.title, i.type, i.parent_uuid && parentOf.get(i.parent_uuid)])).toEqual([
      ['Trip', 'campaign', null],
      ['Stray', 'task', 'Trip'],
      ['Plan trip', 'task', 'Trip'],
      ['Book flights', 'todo', 'Plan trip'],
      ['Compare prices', 'todo', 'Plan trip'],
      ['Check bags', 'todo', 'Plan trip'],
      ['Book hotel', 'todo', 'Plan trip'],
      ['Pack', 'task', 'Trip'],
      ['Socks', 'todo', 'Pack'],
    ]);
    expect(plan.warnings.map((w) => `${w.line}: ${w.reason}`)).toEqual([
      '2: Indent 2 with no task above it: imported as a task of “Trip”',
      "2: Time zone “UTC” noted: dates imported as written, in this device's time zone",
      '5: Indent 3 flattened: under “Book flights” in Todoist, a todo of “Plan trip” beside it (Outpost has three levels)',
      '6: Indent 4 flattened: under “Compare prices” in Todoist, a todo of “Plan trip” beside it (Outpost has three levels)',
      '9: Indent 3 flattened: a todo of “Pack” (Outpost has three levels)',
    ]);
    expect(plan.problems).toEqual([]);
  });

  it('reads dates in words and repeats the way quick add does when it knows when and where it reads', () => {
    const file = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
      'task,Blue ones,,1,1,Sam (1),,tomorrow,en,UTC',
      'task,Mow,,1,1,Sam (1),,every day,en,UTC',
      'task,Stand-up,,1,1,Sam (1),,every weekday at 9am,en,UTC',
      'task,Order,,1,1,Sam (1),,in 5 days,en,UTC',
      'task,Gift,,1,1,Sam (1),,4 Jan,en,UTC',
      'task,Odd,,1,1,Sam (1),,every other blursday,en,UTC',
      'task,Bins,,1,1,Sam (1),,every mon,en,UTC',
      'task,Call,,1,1,Sam (1),,next fri 5pm,en,UTC',
      'task,Müll,,1,1,Sam (1),,jeden Montag,de,UTC',
    ].join('\n');
    // Wednesday 25 November 2026, 10:00 in New York.
    const plan = parseImport(file, {
      fileName: 'Home.csv',
      userId: 0,
      now: new Date('2026-11-25T15:00:00Z'),
      timeZone: 'America/New_York',
    });
    const read = Object.fromEntries(
      plan.items.map((i) => [i.title, [i.due_date, i.recurrence, i.remind_at]] as const),
    );
    expect(read).toMatchObject({
      'Blue ones': ['2026-11-26', null, null],
      Mow: ['2026-11-25', 'FREQ=DAILY', null],
      'Stand-up': ['2026-11-26', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', '2026-11-26T14:00:00.000Z'],
      Order: ['2026-11-30', null, null],
      Gift: ['2027-01-04', null, null],
      Odd: [null, null, null],
      Bins: ['2026-11-30', 'FREQ=WEEKLY;BYDAY=MO', null],
      Call: ['2026-12-04', null, '2026-12-04T22:00:00.000Z'],
      Müll: [null, null, null],
    });
    // Only what it could not read is listed (and the file's time zone, once).
    expect(plan.warnings.map((w) => `${w.line}: ${w.reason}`)).toEqual([
      "2: Time zone “UTC” noted: dates imported as written, in this device's time zone (America/New_York)",
      '7: Repeating date “every other blursday” not imported: set the repeat on the item',
      '10: Date “jeden Montag” not imported: dates in words are read in English only (this one is “de”)',
    ]);
  });

  it('keeps DEADLINE as the end date (and the due date when there is no DATE), listing what it cannot keep', () => {
    const file = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT,DEADLINE,DEADLINE_LANG',
      'task,File taxes,,1,1,Sam (1),Alex (2),2030-04-01,en,UTC,45,minute,2030-04-15,en',
      `note,${'x'.repeat(12000)},,,,,,,,,,,,`,
      'task,Renew passport,,1,1,Sam (1),,,en,UTC,,,2030-06-30,en',
      'task,Water,,1,1,Sam (1),,every day,en,UTC,,,in 5 days,en',
      'task,Someday,,1,1,Sam (1),,,en,UTC,,,whenever,en',
    ].join('\n');
    const plan = parseImport(file, {
      fileName: 'Taxes.csv',
      userId: 0,
      now: new Date('2026-11-25T15:00:00Z'),
      timeZone: 'America/New_York',
    });
    const read = Object.fromEntries(
      plan.items.map((i) => [i.title, [i.due_date, i.end_date, i.recurrence]] as const),
    );
    expect(read).toMatchObject({
      'File taxes': ['2030-04-01', '2030-04-15', null],
      'Renew passport': ['2030-06-30', '2030-06-30', null],
      Water: ['2026-11-25', '2026-11-30', 'FREQ=DAILY'],
      Someday: [null, null, null],
    });
    expect(plan.warnings.map((w) => `${w.line}: ${w.reason}`)).toEqual([
      "2: Deadline 2030-04-15 kept as its end date, which a task's page does not show: its due date is its DATE",
      '2: Assignee “Alex (2)” not imported: assign it in Outpost',
      '2: Duration 45 minute not imported',
      "2: Time zone “UTC” noted: dates imported as written, in this device's time zone (America/New_York)",
      expect.stringMatching(/^3: Note cut to fit the description of “File taxes”/),
      "5: Deadline 2026-11-30 kept as its end date, which a task's page does not show: its due date is its DATE",
      '6: Deadline “whenever” not imported: it is not a date',
    ]);
  });
});

describe('Todoist CSV: what its columns mean', () => {
  const header = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE';
  const read = (lines: string[], timeZone = 'Europe/Paris') =>
    parseImport([header, ...lines].join('\r\n'), { fileName: 'Real.csv', userId: 0, timeZone });
  const said = (plan: ReturnType<typeof read>) => plan.warnings.map((w) => `${w.line}: ${w.reason}`);

  it('reads PRIORITY as written, the screen’s numbering: 1 is p1 and 4, the unprioritised default, is p4', () => {
    const plan = read([
      'task,Urgent,,1,1,Sam (1),,,en,Europe/Paris',
      'task,High,,2,1,Sam (1),,,en,Europe/Paris',
      'task,Medium,,3,1,Sam (1),,,en,Europe/Paris',
      'task,Whenever,,4,1,Sam (1),,,en,Europe/Paris',
      'task,Blank,,,1,Sam (1),,,en,Europe/Paris',
    ]);
    expect(Object.fromEntries(plan.items.map((i) => [i.title, i.priority]))).toMatchObject({
      Urgent: 1,
      High: 2,
      Medium: 3,
      Whenever: 4,
      Blank: 4,
    });
    expect(plan.warnings).toEqual([]);
  });

  it('lists a PRIORITY that is not 1–4 in the preview, importing the task as p4', () => {
    const plan = read([
      'task,Odd,,5,1,Sam (1),,,en,Europe/Paris',
      'task,Odder,,high,1,Sam (1),,,en,Europe/Paris',
    ]);
    expect(plan.items.filter((i) => i.type !== 'campaign').map((i) => i.priority)).toEqual([4, 4]);
    expect(said(plan)).toEqual([
      "2: Priority “5” is not 1–4 (Todoist's p1–p4): imported as p4",
      "3: Priority “high” is not 1–4 (Todoist's p1–p4): imported as p4",
    ]);
  });

  it('imports @labels in CONTENT as labels, takes them out of the title and says so; an email stays text', () => {
    const plan = read([
      'task,Buy milk @errands @home,,4,1,Sam (1),,,en,Europe/Paris',
      'task,Write to sam@example.com @Work @work,,4,1,Sam (1),,,en,Europe/Paris',
      'task,@only,,4,1,Sam (1),,,en,Europe/Paris',
    ]);
    const byTitle = Object.fromEntries(plan.items.map((i) => [i.title, i.labels]));
    expect(byTitle).toMatchObject({
      'Buy milk': ['errands', 'home'],
      'Write to sam@example.com': ['Work'],
      '@only': [],
    });
    expect(said(plan)).toEqual([
      '2: Todoist labels @errands, @home imported as labels “errands”, “home”',
      '3: Todoist label @Work imported as label “Work”',
    ]);
  });

  it('notes each TIMEZONE of the file once in the preview (dates are imported as written), unless it is the device’s', () => {
    const plan = read(
      [
        'task,A,,4,1,Sam (1),,2030-05-01,en,Europe/London',
        'task,B,,4,1,Sam (1),,2030-05-02,en,Europe/London',
        'task,C,,4,1,Sam (1),,,en,Europe/Paris',
        'task,D,,4,1,Sam (1),,,en,Mars/Olympus',
      ],
      'Europe/Paris',
    );
    expect(plan.items.find((i) => i.title === 'A')?.due_date).toBe('2030-05-01');
    expect(said(plan)).toEqual([
      "2: Time zone “Europe/London” noted: dates imported as written, in this device's time zone (Europe/Paris)",
      "5: Time zone “Mars/Olympus” is not an IANA time zone: dates imported as written, in this device's time zone (Europe/Paris)",
    ]);
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
