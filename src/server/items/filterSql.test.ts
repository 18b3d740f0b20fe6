import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFile } from '../../../testkit/files';
import { filterAst } from '../../../testkit/filterQueries';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient, writeDirectly } from '../../../testkit/testClient';
import { campaignLookup, evaluate, type FilterItem, parse, print } from '../../shared/filter';
import type { Item, ItemStatus, ItemType, Paginated } from '../../shared/item';
import { textArrayLiteral } from '../../shared/planning';
import { rows, sql } from '../db/client';
import { visibleTo } from './queries';

const TODAY = '2026-06-10';
const DAY = (offset: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

/** The titles GET /api/items?filter= answers, sorted; fails unless it answers 200. */
async function titlesFor(client: TestClient, query: string): Promise<string[]> {
  const page = await client.get<Paginated<Item>>(
    `/api/items?per_page=100&today=${TODAY}&filter=${encodeURIComponent(query)}`,
  );
  expect(page.status, `${query}: ${page.text}`).toBe(200);
  return page.body.data.map((i) => i.title).sort();
}

describe.each(testEngines())('GET /api/items?filter= (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('answers every term of the filter language with the items it names', async () => {
    const ann = await signedIn(harness.app, 'Ann Archer');
    const ben = await signedIn(harness.app, 'Ben Carter');
    await makeMutual(ann, ben);
    const launch = await ann.create({ title: 'Big launch', type: 'campaign' });
    const posters = await ann.create({
      title: 'Posters',
      type: 'task',
      parent_id: launch.id,
      estimate_minutes: 60,
      start_date: DAY(1),
      due_date: DAY(3),
    });
    const print1 = await ann.create({ title: 'Print run', type: 'todo', parent_id: posters.id });
    await ann.create({
      title: 'Groceries',
      type: 'task',
      due_date: TODAY,
      priority: 1,
      labels: ['Errand'],
      assigned_to: ben.user!.id,
    });
    const taxes = await ann.create({ title: 'Taxes', type: 'task', due_date: DAY(-1), priority: 2 });
    const done = await ann.create({ title: 'Old report', type: 'todo', due_date: DAY(-2) });
    await ann.update(done.id, { status: 'completed' });
    const desk = await ann.create({ title: 'Tidy desk', type: 'todo', description: 'Cables and paper' });
    await ann.update(desk.id, { status: 'in_progress' });
    await ben.create({ title: 'From Ben', type: 'todo', assigned_to: ann.user!.id, due_date: DAY(10) });
    const gone = await ann.create({
      title: 'Deleted errand',
      type: 'todo',
      labels: ['errand'],
      due_date: TODAY,
    });
    expect((await ann.delete(`/api/items/${gone.id}`)).status).toBe(204);

    const comment = await ann.post(`/api/items/${print1.id}/comments`, { body: 'Needs glossy paper' });
    expect(comment.status, comment.text).toBe(201);
    const upload = await uploadFile(
      harness.app,
      ann,
      taxes.id,
      new TextEncoder().encode('receipt'),
      'receipt.txt',
    );
    expect(upload.status, upload.text).toBe(201);
    await writeDirectly(harness.app, [ann.user!.id], (tx) =>
      tx.execute(sql`UPDATE items SET spent_minutes = 150 WHERE id = ${desk.id}`),
    );

    const all = [
      'Big launch',
      'From Ben',
      'Groceries',
      'Old report',
      'Posters',
      'Print run',
      'Taxes',
      'Tidy desk',
    ];
    const cases: [string, string[]][] = [
      ['today', ['Groceries']],
      ['overdue', ['Taxes']],
      ['no date', ['Big launch', 'Print run', 'Tidy desk']],
      ['due before: today', ['Old report', 'Taxes']],
      ['due after: tomorrow', ['From Ben', 'Posters']],
      [`due before: ${DAY(3)}`, ['Groceries', 'Old report', 'Taxes']],
      ['start <= tomorrow', ['Posters']],
      ['start >= tomorrow', ['Posters']],
      ['start < tomorrow', []],
      ['start > today', ['Posters']],
      ['start = tomorrow', ['Posters']],
      ['p1', ['Groceries']],
      ['P2', ['Taxes']],
      ['p4', ['Big launch', 'From Ben', 'Old report', 'Posters', 'Print run', 'Tidy desk']],
      ['+errand', ['Groceries']],
      ['#"big launch"', ['Big launch', 'Posters', 'Print run']],
      ['@ben', ['Groceries']],
      ['@me', ['From Ben']],
      ['assigned: Ben Carter', ['Groceries']],
      ['assigned: me', ['From Ben']],
      ['assigned: none', all.filter((t) => t !== 'Groceries' && t !== 'From Ben')],
      ['status: in progress', ['Tidy desk']],
      ['status: Completed', ['Old report']],
      ['status: pending', all.filter((t) => t !== 'Tidy desk' && t !== 'Old report')],
      ['type: campaign', ['Big launch']],
      ['type: todo', ['From Ben', 'Old report', 'Print run', 'Tidy desk']],
      ['created by: me', all.filter((t) => t !== 'From Ben')],
      ['created by: ben', ['From Ben']],
      ['has: files', ['Taxes']],
      ['has: comments', ['Print run']],
      ['has: estimate', ['Posters']],
      ['has: time', ['Tidy desk']],
      ['tracked > 2h', ['Tidy desk']],
      ['tracked >= 2h 30m', ['Tidy desk']],
      ['tracked < 2h', all.filter((t) => t !== 'Tidy desk')],
      ['tracked <= 1:00', all.filter((t) => t !== 'Tidy desk')],
      ['search: paper', ['Print run', 'Tidy desk']],
      ['search: GLOSSY paper', ['Print run']],
      ['search: cables', ['Tidy desk']],
      ['p1 | p2', ['Groceries', 'Taxes']],
      ['!no date & type: task', ['Groceries', 'Posters', 'Taxes']],
      ['(today | overdue) & !+errand', ['Taxes']],
      ['p1 | p2 & overdue', ['Groceries', 'Taxes']],
      ['!(p1 | p2) & type: task', ['Posters']],
    ];
    for (const [query, titles] of cases)
      expect(await titlesFor(ann, query), query).toEqual([...titles].sort());
    // A blank filter is no filter.
    expect(await titlesFor(ann, '  ')).toEqual(all);
  });

  it('names only campaigns the caller sees: work assigned to them in another’s campaign is in none', async () => {
    const ann = await signedIn(harness.app, 'Ann Archer');
    const ben = await signedIn(harness.app, 'Ben Carter');
    await makeMutual(ann, ben);
    const fair = await ben.create({ title: 'Summer fair', type: 'campaign' });
    await ben.create({ title: 'Stall', type: 'task', parent_id: fair.id, assigned_to: ann.user!.id });
    expect(await titlesFor(ann, 'assigned: me')).toEqual(['Stall']);
    expect(await titlesFor(ann, '#"Summer fair"')).toEqual([]);
    expect(await titlesFor(ben, '#"Summer fair"')).toEqual(['Stall', 'Summer fair']);
  });

  it('answers a malformed filter with 422 naming the column, as the parser does', async () => {
    const c = await signedIn(harness.app, 'Malformed');
    const cases: [string, string][] = [
      ['due before:', 'Expected a date after "due before:" at 12'],
      ['p1 & due before: someday', 'Expected a date after "due before:" at 18'],
      ['status: done', 'Expected pending, in progress or completed after "status:" at 9'],
      ['p1 p2', 'Expected "&", "|" or the end at 4'],
      ['(today', 'Expected ")" at 7'],
      ['tracked > lots', 'Expected a duration such as 2h after "tracked >" at 11'],
      ['+', 'Expected a label after "+" at 2'],
      ['frobnicate', 'Expected a term such as today, p1, +label or status: at 1'],
      [`p1 | ${'p2 | '.repeat(100)}p3`, 'Expected at most 500 characters at 501'],
      [`${'('.repeat(21)}p1${')'.repeat(21)}`, 'Expected at most 20 levels of "(" and "!" at 21'],
      [`${'!'.repeat(25)}p1`, 'Expected at most 20 levels of "(" and "!" at 21'],
    ];
    for (const [query, message] of cases) {
      const parsed = parse(query);
      expect(parsed.ok ? 'parsed' : parsed.error.message, query).toBe(message);
      const answer = await c.get<{ message: string; errors: { filter: string[] } }>(
        `/api/items?filter=${encodeURIComponent(query)}`,
      );
      expect(answer.status, query).toBe(422);
      expect(answer.body).toEqual({ message, errors: { filter: [message] } });
    }
    // Text no query may hold, and a filter given twice, are 422s too, never a 5xx.
    for (const bad of ['search%3A%20a%00b', 'p1&filter=p2']) {
      const answer = await c.get(`/api/items?filter=${bad}`);
      expect(answer.status, bad).toBe(422);
    }
  });

  it('gives the same ids as the pure evaluator for generated items and generated queries', async () => {
    const people = await Promise.all(
      ['Ann Archer', 'Ben Carter', 'Cleo Diaz'].map((name) => signedIn(harness.app, name)),
    );
    const ids = people.map((p) => p.user!.id);
    const viewer = people[0]!;
    const rowsMade = fc.sample(generatedItems(), { numRuns: 1, seed: 66 })[0]!;
    const made = await insertItems(harness, ids, rowsMade);
    expect(made.length).toBe(60);

    // What the viewer sees, read straight from the database, as the device would hold it.
    const visible = await rows<FilterItem>(
      harness.database.db,
      sql`SELECT i.id, i.type, i.status, i.title, i.description, i.due_date::text AS due_date,
            i.start_date::text AS start_date, i.priority, i.labels, i.assigned_to, i.user_id, i.parent_id,
            i.deleted_at::text AS deleted_at, i.comments_count, i.estimate_minutes, i.spent_minutes,
            (SELECT count(*)::int FROM attachments a WHERE a.item_id = i.id AND a.deleted_at IS NULL) AS files_count,
            (SELECT string_agg(c.body, E'\n') FROM comments c WHERE c.item_id = i.id AND c.deleted_at IS NULL) AS "commentText"
          FROM items i WHERE i.user_id = ANY(${`{${ids.join(',')}}`}::int[]) AND ${visibleTo(viewer.user!.id)}`,
    );
    const users = await rows<{ id: number; name: string }>(
      harness.database.db,
      sql`SELECT id, name FROM users`,
    );
    const context = {
      today: TODAY,
      viewerId: viewer.user!.id,
      people: users,
      // The device knows the campaigns it holds: those the viewer sees.
      campaignOf: campaignLookup(visible),
    };
    const items = visible.map((i) => ({ ...i, commentText: i.commentText ?? undefined }));
    // Deleted ones among them, which no query may match.
    expect(items.length).toBeGreaterThan(30);
    expect(items.some((i) => i.deleted_at !== null)).toBe(true);
    let matchedSome = 0;
    await fc.assert(
      fc.asyncProperty(filterAst({ ...VOCABULARY, dates: DATE_WORDS }), async (ast) => {
        const query = print(ast);
        const expected = items
          .filter((i) => evaluate(ast, i, context))
          .map((i) => i.title)
          .sort();
        if (expected.length > 0 && expected.length < items.length) matchedSome += 1;
        expect(await titlesFor(viewer, query), query).toEqual(expected);
      }),
      { numRuns: 100, seed: 66 },
    );
    // The queries told items apart, rather than all matching nothing or everything.
    expect(matchedSome).toBeGreaterThan(30);
  }, 90_000);
});

// ——— Generated items and queries ———

const VOCABULARY = {
  labels: ['errand', 'Home', 'work', 'none'],
  campaigns: ['Big launch', 'fair', 'Garden', 'Nowhere'],
  people: ['Ann', 'ben carter', 'Cleo', 'Dora'],
  words: ['paper', 'glossy', 'BOX', 'call mum', 'tape'],
};
const DATE_WORDS = ['today', 'tomorrow', 'yesterday', 'next friday', 'in 3 days', '3 days ago', '2026-06-12'];
const WORDS = ['paper', 'glossy', 'box', 'call', 'mum', 'tape', 'lamp'];

interface MadeItem {
  kind: ItemType;
  title: string;
  description: string | null;
  status: ItemStatus;
  creator: number;
  assignee: number | null;
  parent: number;
  due: number | null;
  start: number | null;
  priority: number;
  labels: string[];
  estimate: number | null;
  spent: number;
  comments: string[];
  files: number;
  deleted: boolean;
}

function generatedItems(): fc.Arbitrary<MadeItem[]> {
  const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
  const person = fc.constantFrom(0, 1, 2);
  const one = (kind: ItemType) =>
    fc.record({
      kind: fc.constant(kind),
      title: text,
      description: fc.option(text, { nil: null }),
      status: fc.constantFrom<ItemStatus>('pending', 'in_progress', 'completed'),
      creator: fc.oneof(fc.constant(0), person),
      assignee: fc.option(person, { nil: null }),
      parent: fc.nat(),
      due: fc.option(fc.integer({ min: -5, max: 7 }), { nil: null }),
      start: fc.option(fc.integer({ min: -3, max: 0 }), { nil: null }),
      priority: fc.integer({ min: 1, max: 4 }),
      labels: fc.uniqueArray(fc.constantFrom('errand', 'home', 'Work', 'HOME'), {
        maxLength: 2,
        selector: (l) => l.toLowerCase(),
      }),
      estimate: fc.option(fc.integer({ min: 0, max: 300 }), { nil: null }),
      spent: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 })),
      comments: fc.array(text, { maxLength: 2 }),
      files: fc.oneof(fc.constant(0), fc.constant(0), fc.constant(1)),
      deleted: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
    });
  return fc
    .tuple(
      fc.array(one('campaign'), { minLength: 3, maxLength: 3 }),
      fc.array(one('task'), { minLength: 22, maxLength: 22 }),
      fc.array(one('todo'), { minLength: 35, maxLength: 35 }),
    )
    .map(([campaigns, tasks, todos]) => [
      ...campaigns.map((c, n) => ({ ...c, title: ['Big launch', 'Fair', 'Garden'][n] as string })),
      ...tasks,
      ...todos,
    ]);
}

/** Writes the generated items straight to the database (in order, so a parent is there first). */
async function insertItems(
  harness: Awaited<ReturnType<typeof createTestApp>>,
  ids: number[],
  made: MadeItem[],
): Promise<number[]> {
  const out: number[] = [];
  const byKind: Record<ItemType, number[]> = { campaign: [], task: [], todo: [] };
  await writeDirectly(harness.app, ids, async (tx) => {
    for (const m of made) {
      // A task lies in a campaign or at the top; a todo under a task, a campaign or at the top.
      const parents =
        m.kind === 'task' ? byKind.campaign : m.kind === 'todo' ? [...byKind.task, ...byKind.campaign] : [];
      const parent =
        parents.length === 0 || m.parent % 3 === 0 ? null : (parents[m.parent % parents.length] as number);
      const due = m.due === null ? null : DAY(m.due);
      const start = m.start === null || m.due === null ? null : DAY(m.due + m.start);
      const [row] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO items (title, description, type, status, user_id, assigned_to, parent_id, due_date,
              start_date, priority, labels, estimate_minutes, spent_minutes, comments_count, deleted_at)
            VALUES (${m.title}, ${m.description}, ${m.kind}, ${m.status}, ${ids[m.creator]}, ${
              m.assignee === null ? null : ids[m.assignee]
            }, ${parent}, ${due}, ${start}, ${m.priority}, ${textArrayLiteral(m.labels)}::text[], ${m.estimate},
              ${m.spent}, ${m.comments.length}, ${m.deleted ? sql`now()` : null})
            RETURNING id`,
      );
      const id = row!.id;
      out.push(id);
      byKind[m.kind].push(id);
      for (const body of m.comments)
        await tx.execute(
          sql`INSERT INTO comments (uuid, item_id, user_id, body) VALUES (gen_random_uuid(), ${id}, ${ids[m.creator]}, ${body})`,
        );
      if (m.files > 0)
        await tx.execute(
          sql`INSERT INTO attachments (uuid, item_id, user_id, name, type, size, sha256)
              VALUES (gen_random_uuid(), ${id}, ${ids[m.creator]}, 'a.txt', 'text/plain', 1, ${'a'.repeat(64)})`,
        );
    }
    // The viewer is a member of Ben's first campaign, if Ben made one: membership shows its tree.
    await tx.execute(
      sql`INSERT INTO campaign_members (campaign_id, user_id, role)
          SELECT id, ${ids[0]}, 'viewer' FROM items WHERE type = 'campaign' AND user_id = ${ids[1]} LIMIT 1`,
    );
  });
  return out;
}
