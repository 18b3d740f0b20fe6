import { DAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, vtodoCalendar } from '../../../testkit/caldav';
import { createTestApp, pullsCaughtUp, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { startWebhookReceiver } from '../../../testkit/webhookReceiver';
import { addHook } from '../../../testkit/webhooks';
import type { HistoryEntry } from '../../shared/history';
import type { Item, Paginated } from '../../shared/item';
import type { TokenScope } from '../../shared/tokens';
import { rows, sql } from '../db/client';
import { loadConfig } from '../env';
import { REFUSAL_DELAY_MS } from './auth';

type Harness = Awaited<ReturnType<typeof createTestApp>>;

const mint = (owner: TestClient, scopes?: TokenScope[]) => mintToken(owner, scopes);

const VTODO_FILTER = [
  {
    'comp-filter': {
      _attributes: { name: 'VCALENDAR' },
      'comp-filter': { _attributes: { name: 'VTODO' } },
    },
  },
];

const vcalendar = (uid: string, lines: string[]) => vtodoCalendar(uid, lines);

const ALARM = [
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'DESCRIPTION:Reminder',
  'TRIGGER:-PT15M',
  'X-APPLE-DEFAULT-ALARM:FALSE',
  'END:VALARM',
];

describe.each(testEngines())('CalDAV with tsdav (%s)', (engine) => {
  let harness: Harness;
  let base: string;
  let owner: TestClient;
  let token: string;
  let campaign: Item;
  let dav: DAVClient;

  /** A raw DAV request over HTTP with the owner's token (or another credential). */
  const request = async (
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string>; password?: string | null } = {},
  ) => {
    const headers: Record<string, string> = { ...init.headers };
    const password = init.password === undefined ? token : init.password;
    if (password !== null)
      headers.authorization = `Basic ${Buffer.from(`phone:${password}`).toString('base64')}`;
    const response = await fetch(`${base}${path}`, { method, headers, body: init.body, redirect: 'manual' });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  const itemsUnder = async (parentId: number) => {
    const found = await owner.get<Paginated<Item>>(`/api/items?parent_id=${parentId}&per_page=100`);
    expect(found.status, found.text).toBe(200);
    return found.body.data;
  };

  /** sync-collection by hand: the hrefs with their ETags (null: reported gone) and the new token. */
  const sync = async (calendarPath: string, syncToken: string) => {
    const response = await request('REPORT', calendarPath, {
      headers: { 'content-type': 'application/xml; charset=utf-8' },
      body: `<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${syncToken}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
    });
    expect(response.status, response.text).toBe(207);
    const entries = new Map<string, string | null>();
    for (const match of response.text.matchAll(/<d:response>(.*?)<\/d:response>/g)) {
      const href = /<d:href>(.*?)<\/d:href>/.exec(match[1]!)![1]!;
      const etag = /<d:getetag>(.*?)<\/d:getetag>/.exec(match[1]!)?.[1] ?? null;
      entries.set(href, etag?.replaceAll('&quot;', '"') ?? null);
    }
    const next = /<d:sync-token>(.*?)<\/d:sync-token>/.exec(response.text)![1]!;
    return { entries, token: next };
  };

  beforeAll(async () => {
    harness = await createTestApp(engine);
    base = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await signedIn(harness.app, 'Owner');
    token = await mint(owner);
    campaign = await owner.create({ title: 'House', type: 'campaign' });
    dav = new DAVClient({
      serverUrl: `${base}/`,
      credentials: { username: 'anyone', password: token },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
    });
    await dav.login();
  });
  afterAll(() => harness?.close());

  it('V7: discovery from /.well-known/caldav finds the principal, the home and a calendar per campaign plus Outpost', async () => {
    const wellKnown = await request('PROPFIND', '/.well-known/caldav', { password: null });
    expect(wellKnown.status).toBe(301);
    expect(wellKnown.headers.get('location')).toBe('/dav/');
    const options = await request('OPTIONS', '/dav/', { password: null });
    expect(options.headers.get('dav')).toBe('1, 3, calendar-access');
    const calendars = await dav.fetchCalendars();
    const names = calendars.map((c) => c.displayName);
    expect(names).toEqual(expect.arrayContaining(['Outpost', 'House']));
    for (const calendar of calendars) expect(calendar.components).toEqual(['VTODO']);
    expect(calendars.find((c) => c.displayName === 'House')!.reports).toEqual(
      expect.arrayContaining(['calendarQuery', 'calendarMultiget', 'syncCollection']),
    );
    // Setting a colour is refused property by property (Outpost names and colours calendars itself).
    const patch = await request('PROPPATCH', `/dav/calendars/${owner.user!.id}/outpost/`, {
      body: '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><x:calendar-color xmlns:x="http://apple.com/ns/ical/">#FF0000</x:calendar-color></d:prop></d:set></d:propertyupdate>',
    });
    expect(patch.status).toBe(207);
    expect(patch.text).toContain('calendar-color xmlns:x="http://apple.com/ns/ical/"/>');
    expect(patch.text).toContain('HTTP/1.1 403 Forbidden');
  });

  it('V5: a VTODO created by the client is a task in the app, listed back with its fields', async () => {
    const calendars = await dav.fetchCalendars();
    const house = calendars.find((c) => c.displayName === 'House')!;
    const uid = 'a0b1c2d3-0000-4000-8000-000000000001';
    const created = await dav.createCalendarObject({
      calendar: house,
      filename: `${uid}.ics`,
      iCalString: vcalendar(uid, [
        'SUMMARY:Fix the gutter',
        'DESCRIPTION:Before the rain\\, please',
        'DUE;VALUE=DATE:20261215',
        'PRIORITY:1',
        'CATEGORIES:outside,ladder',
      ]),
    });
    expect(created.status).toBe(201);
    const task = (await itemsUnder(campaign.id)).find((i) => i.uuid === uid)!;
    expect(task).toMatchObject({
      type: 'task',
      title: 'Fix the gutter',
      description: 'Before the rain, please',
      due_date: '2026-12-15',
      priority: 1,
      labels: ['outside', 'ladder'],
    });
    const objects = await dav.fetchCalendarObjects({ calendar: house, filters: VTODO_FILTER });
    const listed = objects.find((o) => o.url.endsWith(`${uid}.ics`))!;
    expect(listed.data).toContain('SUMMARY:Fix the gutter');
    expect(listed.data).toContain('PRIORITY:1');
    expect(listed.etag).toMatch(/^"\d+-/);
    // Created twice with If-None-Match: * is a 412.
    const again = await dav.createCalendarObject({
      calendar: house,
      filename: `${uid}.ics`,
      iCalString: vcalendar(uid, ['SUMMARY:Again']),
    });
    expect(again.status).toBe(412);
  });

  it('V6: an edit in the app is reported by sync-collection with a new ETag; a delete as 404', async () => {
    const task = await owner.create({ title: 'Paint the fence', type: 'task', parent_id: campaign.id });
    const path = `/dav/calendars/${owner.user!.id}/campaign-${campaign.id}/`;
    await pullsCaughtUp(harness.database);
    const first = await sync(path, '');
    const href = `${path}${task.uuid}.ics`;
    const before = first.entries.get(href);
    expect(before).toMatch(/^"\d+-/);
    const patched = await owner.patch(`/api/items/${task.id}`, { title: 'Paint the fence white' });
    expect(patched.status, patched.text).toBe(200);
    await pullsCaughtUp(harness.database);
    const second = await sync(path, first.token);
    expect(second.entries.get(href)).toMatch(/^"\d+-/);
    expect(second.entries.get(href)).not.toBe(before);
    const deleted = await owner.delete(`/api/items/${task.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    await pullsCaughtUp(harness.database);
    const third = await sync(path, second.token);
    expect(third.entries.has(href)).toBe(true);
    expect(third.entries.get(href)).toBeNull();
    const bad = await request('REPORT', path, {
      body: '<d:sync-collection xmlns:d="DAV:"><d:sync-token>urn:nope</d:sync-token><d:prop><d:getetag/></d:prop></d:sync-collection>',
    });
    expect(bad.status).toBe(403);
    expect(bad.text).toContain('valid-sync-token');
  });

  it('V4: the client’s DUE and an offline title edit in the app both survive; the same field on both sides is a 412', async () => {
    const task = await owner.create({
      title: 'Buy paint',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2026-12-01',
    });
    const href = `/dav/calendars/${owner.user!.id}/campaign-${campaign.id}/${task.uuid}.ics`;
    const fetched = await request('GET', href);
    expect(fetched.status).toBe(200);
    const etag = fetched.headers.get('etag')!;
    // The app's device was offline and sends its title edit now, based on the version it had.
    const offline = await owner.patch(
      `/api/items/${task.id}`,
      { title: 'Buy white paint' },
      {
        'If-Match': `"${task.version}"`,
      },
    );
    expect(offline.status, offline.text).toBe(200);
    const put = await dav.updateCalendarObject({
      calendarObject: {
        url: `${base}${href}`,
        etag,
        data: fetched.text.replace('DUE;VALUE=DATE:20261201', 'DUE;VALUE=DATE:20261205'),
      },
    });
    expect(put.status).toBe(204);
    const after = (await owner.get<Item>(`/api/items/${task.id}`)).body;
    expect(after).toMatchObject({ title: 'Buy white paint', due_date: '2026-12-05' });
    // A title changed on the phone from the same old copy meets the app's: 412, nothing written.
    const conflict = await request('PUT', href, {
      headers: { 'if-match': etag, 'content-type': 'text/calendar' },
      body: fetched.text.replace('SUMMARY:Buy paint', 'SUMMARY:Buy blue paint'),
    });
    expect(conflict.status).toBe(412);
    expect(conflict.text).toContain('title');
    const garbage = await request('PUT', href, {
      headers: { 'if-match': '"999"', 'content-type': 'text/calendar' },
      body: fetched.text,
    });
    expect(garbage.status).toBe(412);
    expect((await owner.get<Item>(`/api/items/${task.id}`)).body.title).toBe('Buy white paint');
    // The history names the CalDAV token the change came through.
    const history = await owner.get<Paginated<HistoryEntry>>(`/api/items/${task.id}/history`);
    expect(history.body.data.some((e) => e.via === 'Phone' && 'due_date' in e.changes)).toBe(true);
  });

  it('V5: a subtask by RELATED-TO lands under its task; an unknown parent is a 409 and makes nothing', async () => {
    const task = await owner.create({ title: 'Tidy the shed', type: 'task', parent_id: campaign.id });
    const path = `/dav/calendars/${owner.user!.id}/campaign-${campaign.id}/`;
    const uid = 'b0b1c2d3-0000-4000-8000-000000000002';
    const put = await request('PUT', `${path}${uid}.ics`, {
      headers: { 'content-type': 'text/calendar' },
      body: vcalendar(uid, ['SUMMARY:Sort the screws', `RELATED-TO;RELTYPE=PARENT:${task.uuid}`]),
    });
    expect(put.status, put.text).toBe(201);
    const todos = await itemsUnder(task.id);
    expect(todos.map((t) => [t.type, t.title, t.uuid])).toEqual([['todo', 'Sort the screws', uid]]);
    const listed = await request('GET', `${path}${uid}.ics`);
    expect(listed.text).toContain(`RELATED-TO;RELTYPE=PARENT:${task.uuid}\r\n`);
    const orphanUid = 'c0b1c2d3-0000-4000-8000-000000000003';
    const orphan = await request('PUT', `${path}${orphanUid}.ics`, {
      headers: { 'content-type': 'text/calendar' },
      body: vcalendar(orphanUid, ['SUMMARY:Lost', 'RELATED-TO:d0b1c2d3-0000-4000-8000-00000000dead']),
    });
    expect(orphan.status).toBe(409);
    expect(orphan.text).toContain('placeholder');
    const [found] = await rows<{ n: number }>(
      harness.database.db,
      sql`SELECT count(*)::int AS n FROM items WHERE uuid = ${orphanUid}::uuid OR title = 'Lost'`,
    );
    expect(found?.n).toBe(0);
  });

  it('V1: X-FOO and a VALARM survive an edit in the app, byte for byte', async () => {
    const path = `/dav/calendars/${owner.user!.id}/outpost/`;
    const uid = 'Thunderbird-uid-1234@example.org';
    const body = vcalendar(uid, ['SUMMARY:Call the plumber', 'X-FOO;X-BAR=1:kept as it came', ...ALARM]);
    const put = await request('PUT', `${path}plumber.ics`, {
      headers: { 'content-type': 'text/calendar' },
      body,
    });
    expect(put.status, put.text).toBe(201);
    const [item] = await rows<{ id: number }>(
      harness.database.db,
      sql`SELECT id FROM items WHERE title = 'Call the plumber'`,
    );
    const patched = await owner.patch(`/api/items/${item!.id}`, { title: 'Call the plumber today' });
    expect(patched.status, patched.text).toBe(200);
    const got = await request('GET', `${path}plumber.ics`);
    expect(got.status).toBe(200);
    expect(got.text).toContain('SUMMARY:Call the plumber today\r\n');
    expect(got.text).toContain('X-FOO;X-BAR=1:kept as it came\r\n');
    expect(got.text).toContain(`${ALARM.join('\r\n')}\r\n`);
    expect(got.text).toContain(`UID:${uid}\r\n`);
  });

  it('V4: completing a repeating VTODO from the client brings exactly one next occurrence', async () => {
    const task = await owner.create({
      title: 'Water the plants',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2026-12-01',
      recurrence: 'FREQ=WEEKLY',
    });
    const href = `/dav/calendars/${owner.user!.id}/campaign-${campaign.id}/${task.uuid}.ics`;
    const fetched = await request('GET', href);
    expect(fetched.text).toContain('RRULE:FREQ=WEEKLY\r\n');
    const done = fetched.text.replace(
      'STATUS:NEEDS-ACTION',
      'STATUS:COMPLETED\r\nCOMPLETED:20261201T090000Z',
    );
    const put = await request('PUT', href, {
      headers: { 'if-match': fetched.headers.get('etag')!, 'content-type': 'text/calendar' },
      body: done,
    });
    expect(put.status, put.text).toBe(204);
    const series = (await itemsUnder(campaign.id)).filter((i) => i.title === 'Water the plants');
    expect(series.map((i) => [i.status, i.due_date]).sort()).toEqual([
      ['completed', '2026-12-01'],
      ['pending', '2026-12-08'],
    ]);
    // The same PUT again changes nothing: still one next occurrence.
    const again = await request('GET', href);
    const repeat = await request('PUT', href, {
      headers: { 'if-match': again.headers.get('etag')!, 'content-type': 'text/calendar' },
      body: again.text,
    });
    expect(repeat.status).toBe(204);
    expect((await itemsUnder(campaign.id)).filter((i) => i.title === 'Water the plants')).toHaveLength(2);
  });

  it('V6: calendar-query filters (open tasks only, a time range) and calendar-multiget with an unknown href', async () => {
    const open = await owner.create({
      title: 'Open one',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2027-03-10',
    });
    const done = await owner.create({
      title: 'Done one',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2027-03-11',
    });
    expect((await owner.patch(`/api/items/${done.id}`, { status: 'completed' })).status).toBe(200);
    const path = `/dav/calendars/${owner.user!.id}/campaign-${campaign.id}/`;
    const query = async (filter: string) => {
      const response = await request('REPORT', path, {
        headers: { depth: '1', 'content-type': 'application/xml' },
        body: `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR">${filter}</c:comp-filter></c:filter></c:calendar-query>`,
      });
      expect(response.status, response.text).toBe(207);
      return response.text;
    };
    const openOnly = await query(
      '<c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter></c:comp-filter>',
    );
    expect(openOnly).toContain(`${open.uuid}.ics`);
    expect(openOnly).not.toContain(`${done.uuid}.ics`);
    const inMarch = await query(
      '<c:comp-filter name="VTODO"><c:time-range start="20270310T000000Z" end="20270311T000000Z"/></c:comp-filter>',
    );
    expect(inMarch).toContain(`${open.uuid}.ics`);
    expect(inMarch).not.toContain(`${done.uuid}.ics`);
    expect(await query('<c:comp-filter name="VEVENT"/>')).not.toContain('<d:response>');
    const missing = `${path}00000000-0000-4000-8000-000000000000.ics`;
    const multiget = await request('REPORT', path, {
      headers: { depth: '1', 'content-type': 'application/xml' },
      body: `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>${path}${open.uuid}.ics</d:href><d:href>${missing}</d:href></c:calendar-multiget>`,
    });
    expect(multiget.status).toBe(207);
    expect(multiget.text).toContain('SUMMARY:Open one');
    expect(multiget.text).toContain(`<d:href>${missing}</d:href><d:status>HTTP/1.1 404 Not Found</d:status>`);
  });

  it('V7: a token without the caldav scope, an unknown one and none are 401 with a challenge, after the same delay', async () => {
    const apiToken = await mint(owner, ['read', 'write']);
    const timed = async (password: string | null) => {
      const started = performance.now();
      const response = await request('PROPFIND', '/dav/', { password, headers: { depth: '0' } });
      return { ...response, ms: performance.now() - started };
    };
    const wrongScope = await timed(apiToken);
    const unknown = await timed(`opk_${'x'.repeat(43)}`);
    const none = await timed(null);
    for (const response of [wrongScope, unknown, none]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
    expect(wrongScope.ms).toBeGreaterThanOrEqual(REFUSAL_DELAY_MS - 5);
    expect(unknown.ms).toBeGreaterThanOrEqual(REFUSAL_DELAY_MS - 5);
    // And the caldav token opens no /api route.
    const api = await harness.app.inject({
      url: '/api/items',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.statusCode).toBe(403);
  });

  it('V8: a viewer reads but cannot PUT or DELETE (403); a stranger’s href is a 404', async () => {
    const viewer = await signedIn(harness.app, 'Viewer');
    await share(owner, campaign, 'viewer', viewer);
    const viewerToken = await mint(viewer);
    const task = await owner.create({ title: 'Read only', type: 'task', parent_id: campaign.id });
    const href = `/dav/calendars/${viewer.user!.id}/campaign-${campaign.id}/${task.uuid}.ics`;
    const got = await request('GET', href, { password: viewerToken });
    expect(got.status).toBe(200);
    const put = await request('PUT', href, {
      password: viewerToken,
      headers: { 'content-type': 'text/calendar' },
      body: got.text.replace('SUMMARY:Read only', 'SUMMARY:Changed'),
    });
    expect(put.status).toBe(403);
    const del = await request('DELETE', href, { password: viewerToken });
    expect(del.status).toBe(403);
    expect((await owner.get<Item>(`/api/items/${task.id}`)).body.title).toBe('Read only');
    const stranger = await signedIn(harness.app, 'Stranger');
    const strangerToken = await mint(stranger);
    const own = `/dav/calendars/${stranger.user!.id}/campaign-${campaign.id}/${task.uuid}.ics`;
    expect((await request('GET', own, { password: strangerToken })).status).toBe(404);
    expect((await request('GET', href, { password: strangerToken })).status).toBe(404);
    const privateTask = await owner.create({ title: 'Mine alone', type: 'task' });
    const outpost = `/dav/calendars/${stranger.user!.id}/outpost/${privateTask.uuid}.ics`;
    expect((await request('GET', outpost, { password: strangerToken })).status).toBe(404);
    expect((await request('DELETE', outpost, { password: strangerToken })).status).toBe(404);
  });

  it('V8: the owner deletes from the client; bad input is a 4xx with a message, never a 5xx', async () => {
    const task = await owner.create({ title: 'Throw away', type: 'task', parent_id: campaign.id });
    const href = `/dav/calendars/${owner.user!.id}/campaign-${campaign.id}/${task.uuid}.ics`;
    expect((await request('DELETE', href)).status).toBe(204);
    expect((await owner.get(`/api/items/${task.id}`)).status).toBe(404);
    const path = `/dav/calendars/${owner.user!.id}/outpost/`;
    const cases: [string, string, Record<string, string>, string][] = [
      ['PUT', `${path}x.ics`, {}, 'not a calendar'],
      ['PUT', `${path}x.ics`, {}, vcalendar('x', ['SUMMARY:No\u0000pe'])],
      [
        'PUT',
        `${path}x.ics`,
        {},
        vcalendar('x', ['SUMMARY:Bad rule', 'DUE:20261201', 'RRULE:FREQ=SECONDLY']),
      ],
      ['PUT', `${path}x.ics`, {}, vcalendar('x', ['SUMMARY:Bad label', 'CATEGORIES:a#b'])],
      ['PUT', `${path}x.ics`, {}, vcalendar('x', [`SUMMARY:${'long '.repeat(80)}`])],
      ['PROPFIND', path, { depth: '1' }, '<not xml'],
      ['REPORT', path, {}, '<d:nope xmlns:d="DAV:"/>'],
      ['REPORT', path, {}, ''],
      ['PROPFIND', '/dav/calendars/999999/outpost/', {}, ''],
      ['GET', '/dav/calendars/x/y.ics', {}, ''],
      ['MKCALENDAR', `${path}new/`, {}, ''],
    ];
    for (const [method, url, headers, body] of cases) {
      const response = await request(method, url, { headers, body: method === 'GET' ? undefined : body });
      expect(response.status, `${method} ${url}: ${response.text}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${url}: ${response.text}`).toBeLessThan(500);
      expect(response.text, `${method} ${url}`).toMatch(/responsedescription>.+</);
    }
  });
});

describe('CalDAV switched off', () => {
  it('V7: CALDAV=off answers 404 on every DAV path, discovery included', async () => {
    const harness = await createTestApp('pglite', { config: { caldav: false } });
    try {
      const owner = await signedIn(harness.app, 'Off');
      const token = await mint(owner);
      const authorization = `Basic ${Buffer.from(`me:${token}`).toString('base64')}`;
      for (const [method, url] of [
        ['PROPFIND', '/.well-known/caldav'],
        ['GET', '/.well-known/caldav'],
        ['PROPFIND', '/dav/'],
        ['OPTIONS', '/dav/'],
        ['GET', `/dav/calendars/${owner.user!.id}/outpost/x.ics`],
        ['PUT', `/dav/calendars/${owner.user!.id}/outpost/x.ics`],
        ['REPORT', '/dav'],
      ] as const) {
        const response = await harness.app.inject({ method, url, headers: { authorization } });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    } finally {
      await harness.close();
    }
  });
});

describe('CalDAV writes and the token budget', () => {
  it('V7: a calendar app’s writes count against its token’s own write budget (429 with Retry-After)', async () => {
    const harness = await createTestApp('pglite', { config: { tokenWritesPerMinute: 2 } });
    try {
      const owner = await signedIn(harness.app, 'Budget');
      const token = await mint(owner);
      const authorization = `Basic ${Buffer.from(`me:${token}`).toString('base64')}`;
      const statuses: number[] = [];
      const retry: (string | undefined)[] = [];
      for (let n = 0; n < 3; n++) {
        const uid = `f0b1c2d3-0000-4000-8000-00000000000${n}`;
        const response = await harness.app.inject({
          method: 'PUT',
          url: `/dav/calendars/${owner.user!.id}/outpost/${uid}.ics`,
          headers: { authorization, 'content-type': 'text/calendar' },
          payload: vcalendar(uid, [`SUMMARY:Write ${n}`]),
        });
        statuses.push(response.statusCode);
        retry.push(response.headers['retry-after'] as string | undefined);
      }
      expect(statuses).toEqual([201, 201, 429]);
      expect(Number(retry[2])).toBeGreaterThan(0);
    } finally {
      await harness.close();
    }
  });
});

describe('CalDAV writes and webhooks', () => {
  it('V4: a PUT is an ordinary write: the owner’s webhook hears item.created and item.updated from it', async () => {
    const receiver = await startWebhookReceiver();
    const harness = await createTestApp('pglite', {
      config: { webhooks: { ...loadConfig({}).webhooks, allowLoopback: true } },
    });
    try {
      const owner = await signedIn(harness.app, 'Hooked');
      const hook = await addHook(owner, `${receiver.url}/hook`);
      const token = await mint(owner);
      const authorization = `Basic ${Buffer.from(`me:${token}`).toString('base64')}`;
      const uid = 'a1b1c2d3-0000-4000-8000-000000000099';
      const url = `/dav/calendars/${owner.user!.id}/outpost/${uid}.ics`;
      const put = (lines: string[]) =>
        harness.app.inject({
          method: 'PUT',
          url,
          headers: { authorization, 'content-type': 'text/calendar' },
          payload: vcalendar(uid, lines),
        });
      expect((await put(['SUMMARY:Heard'])).statusCode).toBe(201);
      expect((await put(['SUMMARY:Heard again'])).statusCode).toBe(204);
      const heard = await rows<{ event_type: string }>(
        harness.database.db,
        sql`SELECT event_type FROM webhook_deliveries WHERE webhook_id = ${hook.id} ORDER BY id`,
      );
      expect(heard.map((h) => h.event_type)).toEqual(['item.created', 'item.updated']);
    } finally {
      await harness.close();
      await receiver.close();
    }
  });
});
