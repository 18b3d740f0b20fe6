import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { uniqueTitle } from './pages/Outpost';
import { Trees } from './pages/Trees';

// Issue 32, 'Everything round-trips': an Outpost JSON export imported into a fresh browser profile
// (another guest, in another time zone) gives back the same items, every field a person sets.

test.use({ timezoneId: 'America/New_York' });

/** The fields an export must carry through an import unchanged (ARCHITECTURE §5 'Import and export'). */
const FIELDS = [
  'uuid',
  'parent_uuid',
  'title',
  'description',
  'type',
  'status',
  'due_date',
  'end_date',
  'remind_at',
  'recurrence',
  'series_uuid',
  'time_zone',
  'priority',
  'labels',
  'sort_key',
] as const;

type Exported = Record<(typeof FIELDS)[number], unknown>;

const project = (items: Record<string, unknown>[]): Exported[] =>
  items
    .map((item) => Object.fromEntries(FIELDS.map((f) => [f, item[f] ?? null])) as Exported)
    .sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));

/** A guest's items with every field set, as a file: a campaign, two tasks in order, two todos. */
function fixture(campaign: string) {
  const base = { assigned_to: null, series_uuid: null, completed_at: null };
  const at = '2026-11-20T12:00:00.000Z';
  const item = (fields: Record<string, unknown>) => ({
    id: 0,
    parent_id: null,
    created_at: at,
    updated_at: at,
    ...base,
    ...fields,
  });
  const ids = {
    campaign: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0b01',
    shed: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0b02',
    tulips: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0b03',
    dig: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0b04',
    bulbs: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0b05',
  };
  const items = [
    item({
      uuid: ids.campaign,
      parent_uuid: null,
      type: 'campaign',
      title: campaign,
      description: 'Beds, paths and the shed',
      status: 'in_progress',
      due_date: null,
      end_date: '2030-09-30',
      remind_at: null,
      recurrence: null,
      time_zone: 'Europe/Berlin',
      priority: 2,
      labels: ['outdoor'],
      sort_key: 'a0',
    }),
    item({
      uuid: ids.shed,
      parent_uuid: ids.campaign,
      type: 'task',
      title: 'Fix the shed',
      description: null,
      status: 'pending',
      due_date: null,
      end_date: null,
      remind_at: null,
      recurrence: null,
      time_zone: 'UTC',
      priority: 4,
      labels: [],
      sort_key: 'a0',
    }),
    item({
      uuid: ids.tulips,
      parent_uuid: ids.campaign,
      type: 'task',
      title: 'Plant tulips',
      description: 'Red and yellow',
      status: 'in_progress',
      due_date: '2030-05-01',
      end_date: null,
      // 09:00 in Berlin (summer time).
      remind_at: '2030-05-01T07:00:00.000Z',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE',
      time_zone: 'Europe/Berlin',
      priority: 1,
      labels: ['bulbs', 'Spring'],
      sort_key: 'a1',
    }),
    item({
      uuid: ids.dig,
      parent_uuid: ids.tulips,
      type: 'todo',
      title: 'Dig the bed',
      description: 'Two spades deep',
      status: 'completed',
      completed_at: at,
      due_date: '2030-04-28',
      end_date: null,
      remind_at: null,
      recurrence: null,
      time_zone: 'UTC',
      priority: 3,
      labels: [],
      sort_key: 'a0',
    }),
    item({
      uuid: ids.bulbs,
      parent_uuid: ids.tulips,
      type: 'todo',
      title: 'Buy bulbs',
      description: null,
      status: 'pending',
      due_date: '2030-04-30',
      end_date: null,
      // 12:00 in New York.
      remind_at: '2030-04-30T16:00:00.000Z',
      recurrence: null,
      time_zone: 'America/New_York',
      priority: 4,
      labels: ['errand'],
      sort_key: 'a1',
    }),
  ];
  return { format: 'outpost', version: 1, exported_at: at, user: null, items };
}

async function dataRegion(app: Trees) {
  await app.goto('/preferences');
  await expect(app.heading('Preferences')).toBeVisible();
  return app.main.getByRole('region', { name: 'Data', exact: true });
}

async function importFile(app: Trees, file: { name: string; buffer: Buffer }, count: number) {
  const data = await dataRegion(app);
  await data.getByTestId('import-file').setInputFiles({ ...file, mimeType: 'application/json' });
  await data.getByRole('button', { name: `Import ${count} items` }).click();
  await expect(data.getByTestId('import-result')).toHaveText(`Imported: ${count} new items.`);
}

async function exportJson(app: Trees, page: Page): Promise<{ name: string; text: string }> {
  const data = await dataRegion(app);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    data.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

async function freshGuest(browser: Browser, timezoneId: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId });
  const page = await context.newPage();
  return { context, page, app: await Trees.guest(page) };
}

test('an Outpost JSON export imported into a fresh profile gives identical items, every field (export identity)', async ({
  page,
  browser,
}) => {
  const app = await Trees.guest(page);
  const campaign = uniqueTitle('Garden year');
  const source = fixture(campaign);
  await importFile(app, { name: 'garden.json', buffer: Buffer.from(JSON.stringify(source)) }, 5);
  // One made here by quick add: its zone, rule, reminder, priority, label and place are the device's.
  const stretch = uniqueTitle('Stretch');
  await app.goto('/');
  await app.quickAdd('todo', `${stretch} every day at 7pm p3 +health`);
  await expect(app.row(stretch)).toBeVisible();

  const fromA = await exportJson(app, page);
  const a = project(JSON.parse(fromA.text).items);
  // The export holds what the file gave, field for field, and the quick-added todo as read.
  expect(a.filter((i) => i.title !== stretch)).toEqual(project(source.items));
  const made = a.find((i) => i.title === stretch)!;
  expect(made).toMatchObject({
    type: 'todo',
    recurrence: 'FREQ=DAILY',
    time_zone: 'America/New_York',
    priority: 3,
    labels: ['health'],
  });
  expect(String(made.remind_at)).toMatch(/T(?:00|23):00:00\.000Z$/);
  expect(made.sort_key).toMatch(/^[0-9A-Za-z]+$/);

  // Another profile, another zone: the items come back as they were, not in Tokyo's time.
  const other = await freshGuest(browser, 'Asia/Tokyo');
  try {
    await importFile(other.app, { name: fromA.name, buffer: Buffer.from(fromA.text) }, 6);
    const fromB = await exportJson(other.app, other.page);
    expect(project(JSON.parse(fromB.text).items)).toEqual(a);
    // And it reads as it did: the shed before the tulips (their order), the tulips' flag and labels.
    await other.app.goto('/');
    await other.app.open(campaign);
    expect(await other.app.rowTitles(['Plant tulips', 'Fix the shed'])).toEqual([
      'Fix the shed',
      'Plant tulips',
    ]);
    await expect(other.app.row('Plant tulips').getByRole('link', { name: 'bulbs' })).toBeVisible();
  } finally {
    await other.context.close();
  }
});

test('a Todoist CSV’s preview lists its labels, an odd priority and its time zone; p1 and @labels arrive as written', async ({
  page,
}) => {
  const app = await Trees.guest(page);
  const campaign = uniqueTitle('Errands');
  const csv = [
    '\uFEFFTYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
    'task,Renew passport @admin,,1,1,Sam (1),,,en,Europe/Paris',
    'task,Buy milk,,4,1,Sam (1),,,en,Europe/Paris',
    'task,Odd one,,5,1,Sam (1),,,en,Europe/Paris',
  ].join('\r\n');
  const data = await dataRegion(app);
  await data
    .getByTestId('import-file')
    .setInputFiles({ name: `${campaign}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const warnings = data.getByTestId('import-warnings');
  await expect(warnings).toContainText('Line 2: Todoist label @admin imported as label “admin”');
  await expect(warnings).toContainText(
    "Line 2: Time zone “Europe/Paris” noted: dates imported as written, in this device's time zone (America/New_York)",
  );
  await expect(warnings).toContainText("Line 4: Priority “5” is not 1–4 (Todoist's p1–p4): imported as p4");
  await data.getByRole('button', { name: 'Import 4 items' }).click();
  await expect(data.getByTestId('import-result')).toHaveText('Imported: 4 new items.');

  await app.goto('/');
  await app.open(campaign);
  const passport = app.row('Renew passport');
  await expect(passport.getByRole('link', { name: 'admin' })).toBeVisible();
  // PRIORITY 1 is p1 (Todoist's CSV numbers as its screen does), 4 the unflagged default.
  await expect(passport).toContainText('Priority p1');
  await expect(app.row('Buy milk')).not.toContainText('Priority');
});

test('T2: another account’s export: the preview names the comments it restores and the members it cannot add; the comments arrive naming who wrote them', async ({
  page,
}) => {
  const app = await Trees.guest(page);
  const campaign = uniqueTitle('Moving');
  const ids = {
    campaign: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0d01',
    task: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0d02',
  };
  const at = '2030-01-01T09:00:00.000Z';
  const base = {
    id: 0,
    parent_id: null,
    description: null,
    status: 'pending',
    due_date: null,
    end_date: null,
    remind_at: null,
    recurrence: null,
    series_uuid: null,
    time_zone: 'UTC',
    priority: 4,
    labels: [],
    sort_key: null,
    created_at: at,
    updated_at: at,
    completed_at: null,
  };
  const file = {
    format: 'outpost',
    version: 1,
    exported_at: at,
    user: { id: 4242, name: 'Sam Fox' },
    items: [
      {
        ...base,
        uuid: ids.campaign,
        parent_uuid: null,
        type: 'campaign',
        title: campaign,
        assigned_to: null,
        comments: [],
        members: [
          { name: 'Sam Fox', phone: null, role: 'owner' },
          { name: 'Ann Lee', phone: null, role: 'editor' },
          { name: 'Bo Park', phone: null, role: 'viewer' },
        ],
      },
      {
        ...base,
        uuid: ids.task,
        parent_uuid: ids.campaign,
        type: 'task',
        title: 'Book the van',
        assigned_to: 'Ann Lee',
        comments: [
          {
            uuid: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0e01',
            author: 'Sam Fox',
            body: 'Saturday?',
            created_at: at,
          },
          {
            uuid: '0b6f2b7e-1c1d-4e55-9a8e-6d3c2f1a0e02',
            author: 'Ann Lee',
            body: 'Booked for 9am',
            created_at: '2030-01-01T09:30:00.000Z',
          },
        ],
      },
    ],
  };
  const data = await dataRegion(app);
  await data.getByTestId('import-file').setInputFiles({
    name: 'moving.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file)),
  });
  await expect(data.getByTestId('import-summary')).toHaveText(
    '“moving.json” will create 1 campaign and 1 task, with 2 comments.',
  );
  const warnings = data.getByTestId('import-warnings');
  await expect(warnings).toContainText(
    'Item 1: 3 members not added: Sam Fox (owner), Ann Lee (editor), Bo Park (viewer) (share the campaign again)',
  );
  await expect(warnings).toContainText(
    'Item 2: Its assignee “Ann Lee” is not someone you can assign here: imported unassigned',
  );
  await expect(warnings).toContainText('Item 2: 2 comments by others restored as yours');
  await data.getByRole('button', { name: 'Import 2 items' }).click();
  await expect(data.getByTestId('import-result')).toHaveText('Imported: 2 new items, 2 comments.');

  await app.goto('/');
  await app.open(campaign);
  await app.open('Book the van');
  const timeline = app.main.getByRole('list', { name: /^Timeline of/ });
  await expect(
    timeline.locator('li[data-comment]').filter({ hasText: 'Sam Fox wrote on 2030-01-01 09:00 UTC:' }),
  ).toContainText('Saturday?');
  await expect(
    timeline.locator('li[data-comment]').filter({ hasText: 'Ann Lee wrote on 2030-01-01 09:30 UTC:' }),
  ).toContainText('Booked for 9am');
});
