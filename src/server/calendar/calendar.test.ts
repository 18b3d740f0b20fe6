import { gunzipSync } from 'node:zlib';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, testEngines } from '../../../testkit/server';
import { sharedCampaign } from '../../../testkit/sharing';
import { makeMutual, signedIn, TestClient, writeDirectly } from '../../../testkit/testClient';
import { buildApp } from '../app';
import { rows, sql } from '../db/client';
import { FEED_NOT_FOUND, FEED_REQUESTS_PER_MINUTE } from './routes';

/** How many events of the feed (ical.js expanding every RRULE) fall on `day` (YYYY-MM-DD). */
function eventsOn(body: string, day: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(body));
  const found: string[] = [];
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const date = next.toString().slice(0, 10);
      if (date === day) found.push(event.summary);
      if (date >= day) break;
    }
  }
  return found;
}

/** The feed read by an independent RFC 5545 parser (ical.js, Mozilla's): its events by UID. */
function parsedEvents(body: string) {
  const calendar = new ICAL.Component(ICAL.parse(body));
  return new Map(
    calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
      const rrule = vevent.getFirstPropertyValue('rrule') as ICAL.Recur | null;
      return [
        event.uid,
        {
          summary: event.summary,
          description: event.description,
          start: start.toString(),
          allDay: start.isDate,
          end: (vevent.getFirstPropertyValue('dtend') as ICAL.Time).toString(),
          rrule: rrule ? rrule.toString() : null,
        },
      ] as const;
    }),
  );
}

describe.each(testEngines())('calendar feed (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const feedPath = (url: string) => new URL(url).pathname;

  it('lists every item with a due date the person made or is assigned, as valid RFC 5545 all-day events', async () => {
    const owner = await signedIn(harness.app, 'Cal Owner');
    const other = await signedIn(harness.app, 'Cal Other');
    await makeMutual(owner, other);
    const task = await owner.create({
      title: 'Quarterly review; budget, plan',
      type: 'task',
      description: 'Line one\nLine two',
      due_date: '2031-03-31',
    });
    const weekly = await owner.create({
      title: 'Bins',
      type: 'todo',
      due_date: '2031-04-01',
      recurrence: 'FREQ=WEEKLY;BYDAY=TU',
    });
    const undated = await owner.create({ title: 'Someday', type: 'todo' });
    const done = await owner.create({
      title: 'Filed',
      type: 'todo',
      due_date: '2031-01-10',
      status: 'completed',
    });
    const theirs = await other.create({ title: 'Not theirs to see', type: 'todo', due_date: '2031-02-02' });
    const assigned = await other.create({
      title: 'Assigned to the owner',
      type: 'todo',
      due_date: '2031-02-03',
      assigned_to: owner.user!.id,
    });
    expect(assigned.assigned_to).toBe(owner.user!.id);

    const made = await owner.post<{ url: string }>('/api/calendar/token');
    expect(made.status).toBe(200);
    expect(made.body.url).toMatch(/^https?:\/\/[^/]+\/cal\/[A-Za-z0-9_-]{22}\.ics$/);
    // No session, no cookies: a calendar app fetching the URL.
    const feed = await new TestClient(harness.app).get<string>(feedPath(made.body.url));
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    expect(feed.text.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    const events = parsedEvents(feed.text);
    expect(events.get(task.uuid!)).toEqual({
      summary: 'Quarterly review; budget, plan',
      description: 'Line one\nLine two',
      start: '2031-03-31',
      allDay: true,
      end: '2031-04-01',
      rrule: null,
    });
    expect(events.get(weekly.uuid!)).toMatchObject({ start: '2031-04-01', rrule: 'FREQ=WEEKLY;BYDAY=TU' });
    expect(events.get(done.uuid!)?.summary).toBe('✓ Filed');
    expect(events.get(assigned.uuid!)?.summary).toBe('Assigned to the owner');
    expect(events.has(undated.uuid!)).toBe(false);
    expect(events.has(theirs.uuid!)).toBe(false);
    expect(events.size).toBe(4);
  });

  it('answers the same 404 for an old URL after a new one is made, an unknown token and a malformed one', async () => {
    const owner = await signedIn(harness.app, 'Cal Regen');
    const first = (await owner.post<{ url: string }>('/api/calendar/token')).body.url;
    const second = (await owner.post<{ url: string }>('/api/calendar/token')).body.url;
    expect(second).not.toBe(first);
    const anyone = new TestClient(harness.app);
    expect((await anyone.get(feedPath(second))).status).toBe(200);
    const answers = await Promise.all(
      [feedPath(first), '/cal/AAAAAAAAAAAAAAAAAAAAAA.ics', '/cal/short.ics', `${feedPath(second)}x`].map(
        (p) => anyone.get(p),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: FEED_NOT_FOUND });
    }
  });

  it('F9: says whether a link is active and since when, to its owner only, and never answers the secret again', async () => {
    const owner = await signedIn(harness.app, 'Cal Shown');
    const other = await signedIn(harness.app, 'Cal Stranger');
    expect((await owner.get('/api/calendar/token')).body).toEqual({ active: false, created_at: null });
    const made = (await owner.post<{ url: string; created_at: string }>('/api/calendar/token')).body;
    expect(made.url).toMatch(/\/cal\/[A-Za-z0-9_-]{22}\.ics$/);
    const shown = await owner.get('/api/calendar/token');
    expect(shown.body).toEqual({ active: true, created_at: made.created_at });
    expect(JSON.stringify(shown.body)).not.toContain(new URL(made.url).pathname.slice(5, -4));
    expect((await other.get('/api/calendar/token')).body).toEqual({ active: false, created_at: null });
    expect((await new TestClient(harness.app).get(feedPath(made.url))).status).toBe(200);
  });

  it('F9: the server keeps only the hash of a feed secret, no column holds the secret', async () => {
    const owner = await signedIn(harness.app, 'Cal Hashed');
    const made = (await owner.post<{ url: string }>('/api/calendar/token')).body.url;
    const secret = new URL(made).pathname.slice('/cal/'.length, -'.ics'.length);
    const stored = await rows<Record<string, unknown>>(
      harness.app.database.db,
      sql`SELECT * FROM calendar_tokens WHERE user_id = ${owner.user!.id}`,
    );
    expect(stored).toHaveLength(1);
    expect(Object.keys(stored[0]!).sort()).toEqual(['created_at', 'token_hash', 'user_id']);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('F10: a new link is active from its own time and the old one answers 404', async () => {
    const owner = await signedIn(harness.app, 'Cal Renewed');
    const first = (await owner.post<{ url: string }>('/api/calendar/token')).body.url;
    const second = (await owner.post<{ url: string; created_at: string }>('/api/calendar/token')).body;
    expect(second.url).not.toBe(first);
    expect((await owner.get<{ created_at: string }>('/api/calendar/token')).body.created_at).toBe(
      second.created_at,
    );
    const anyone = new TestClient(harness.app);
    expect((await anyone.get(feedPath(first))).status).toBe(404);
    expect((await anyone.get(feedPath(second.url))).status).toBe(200);
  });

  it('makes a feed URL only for a signed-in person', async () => {
    const anyone = new TestClient(harness.app);
    expect((await anyone.post('/api/calendar/token')).status).toBeGreaterThanOrEqual(400);
    expect((await anyone.post('/api/calendar/token')).status).toBeLessThan(500);
  });
});

describe.each(testEngines())('calendar feed: what it lists (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  const feedOf = async (owner: TestClient) => {
    const url = (await owner.post<{ url: string }>('/api/calendar/token')).body.url;
    const feed = await new TestClient(harness.app).get<string>(new URL(url).pathname);
    expect(feed.status).toBe(200);
    return feed.text;
  };

  it('F3: a weekly task completed three times shows once on every later Monday (only the open occurrence repeats)', async () => {
    const owner = await signedIn(harness.app, 'Cal Weekly');
    let current = await owner.create({
      title: 'Weekly report',
      type: 'todo',
      due_date: '2031-03-03',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO',
    });
    for (let n = 0; n < 3; n++) {
      await owner.update(current.id, { status: 'completed' });
      const [next] = await rows<{ id: number }>(
        harness.database.db,
        sql`SELECT id FROM items WHERE user_id = ${owner.user!.id} AND status <> 'completed'
              AND recurrence IS NOT NULL AND deleted_at IS NULL ORDER BY id DESC LIMIT 1`,
      );
      current = await owner.item(next!.id);
    }
    expect(current.due_date).toBe('2031-03-24');
    const feed = await feedOf(owner);
    expect(parsedEvents(feed).size).toBe(4);
    expect(eventsOn(feed, '2031-03-10')).toEqual(['✓ Weekly report']);
    expect(eventsOn(feed, '2031-03-24')).toEqual(['Weekly report']);
    expect(eventsOn(feed, '2031-04-07')).toEqual(['Weekly report']);
    expect(eventsOn(feed, '2032-01-05')).toEqual(['Weekly report']);
  });

  it('F5: a member removed from a campaign no longer gets its items they made or were assigned', async () => {
    const owner = await signedIn(harness.app, 'Cal Camp Owner');
    const member = await signedIn(harness.app, 'Cal Camp Member');
    const { campaign, task } = await sharedCampaign(owner, 'editor', member);
    const made = await member.create({
      title: 'Member made this',
      type: 'todo',
      parent_id: task.id,
      due_date: '2031-05-01',
    });
    const assigned = await owner.create({
      title: 'Assigned inside',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2031-05-02',
      assigned_to: member.user!.id,
    });
    const own = await member.create({ title: 'Their own', type: 'todo', due_date: '2031-05-03' });
    // The same URL before and after: the removal also ends the feed kept for it.
    const url = new URL((await member.post<{ url: string }>('/api/calendar/token')).body.url).pathname;
    const feedNow = async () => (await new TestClient(harness.app).get<string>(url)).text;
    const before = parsedEvents(await feedNow());
    expect([...before.keys()].sort()).toEqual([made.uuid, assigned.uuid, own.uuid].sort());

    const removed = await owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`);
    expect(removed.status).toBe(204);
    const after = await feedNow();
    expect([...parsedEvents(after).keys()]).toEqual([own.uuid]);
    expect(after).not.toContain('Member made this');
    expect(after).not.toContain('Assigned inside');
  });

  it('F6: control characters never reach the feed, and a due date that cannot be written as a DATE is left out', async () => {
    const owner = await signedIn(harness.app, 'Cal Controls');
    const dirty = await owner.create({ title: 'Clean for now', type: 'todo', due_date: '2031-06-01' });
    const last = await owner.create({ title: 'Last writable day', type: 'todo', due_date: '9999-12-30' });
    const beyond = await owner.create({ title: 'End of time', type: 'todo', due_date: '2031-06-02' });
    await writeDirectly(harness.app, [owner.user!.id], (tx) =>
      tx.execute(
        sql`UPDATE items SET title = ${'Bell\u0007 and\u0001 escape\u001b[31m'},
              description = ${'Tab\there\u0008\u007f\u0085 ok'} WHERE id = ${dirty.id}`,
      ),
    );
    await writeDirectly(harness.app, [owner.user!.id], (tx) =>
      tx.execute(sql`UPDATE items SET due_date = '9999-12-31' WHERE id = ${beyond.id}`),
    );
    const feed = await feedOf(owner);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
    expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(feed.replaceAll('\r\n', ''))).toBe(false);
    expect(feed).not.toMatch(/\+0?10000|DTEND;VALUE=DATE:1000/);
    const events = parsedEvents(feed);
    expect(events.get(dirty.uuid!)).toMatchObject({
      summary: 'Bell and escape[31m',
      description: 'Tab\there ok',
    });
    expect(events.get(last.uuid!)).toMatchObject({ start: '9999-12-30', end: '9999-12-31' });
    expect(events.has(beyond.uuid!)).toBe(false);
  });

  it('F7: an item with an end date is a span that ends on that day', async () => {
    const owner = await signedIn(harness.app, 'Cal Span');
    const span = await owner.create({
      title: 'Offsite',
      type: 'task',
      due_date: '2031-07-06',
      end_date: '2031-07-08',
    });
    const events = parsedEvents(await feedOf(owner));
    expect(events.get(span.uuid!)).toMatchObject({ start: '2031-07-06', end: '2031-07-09', allDay: true });
  });

  it('F11: an item from 2 to 7 December is one event over those days, and one with only a start date is an event on it', async () => {
    const owner = await signedIn(harness.app, 'Cal Starts');
    const fair = await owner.create({
      title: 'Fair',
      type: 'task',
      start_date: '2031-12-02',
      due_date: '2031-12-07',
    });
    const started = await owner.create({ title: 'Started only', type: 'todo', start_date: '2031-12-03' });
    const undated = await owner.create({ title: 'No dates', type: 'todo' });
    const events = parsedEvents(await feedOf(owner));
    expect(events.get(fair.uuid!)).toMatchObject({ start: '2031-12-02', end: '2031-12-08', allDay: true });
    expect(events.get(started.uuid!)).toMatchObject({ start: '2031-12-03', end: '2031-12-04', allDay: true });
    expect(events.has(undated.uuid!)).toBe(false);
  });
});

describe.each(testEngines())('calendar feed: caching, validators and limits (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('F4: answers 304 to its ETag and Last-Modified until something in it changes, and gzips when asked', async () => {
    const owner = await signedIn(harness.app, 'Cal Cache');
    const todo = await owner.create({ title: 'Cached', type: 'todo', due_date: '2031-08-01' });
    const path = new URL((await owner.post<{ url: string }>('/api/calendar/token')).body.url).pathname;
    const anyone = new TestClient(harness.app);
    const first = await anyone.get<string>(path);
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(Date.parse(lastModified)).toBeGreaterThan(0);

    expect((await anyone.get(path, { 'if-none-match': etag })).status).toBe(304);
    expect((await anyone.get(path, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    expect((await anyone.get(path, { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await anyone.get(path, { 'if-none-match': '"stale"' })).status).toBe(200);

    const zipped = await harness.app.inject({
      method: 'GET',
      url: path,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(first.text);
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);

    await owner.update(todo.id, { title: 'Renamed' });
    const changed = await anyone.get<string>(path, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('SUMMARY:Renamed');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it(`F4: a feed URL asked more than ${FEED_REQUESTS_PER_MINUTE} times a minute gets 429 with Retry-After; another URL does not`, async () => {
    const owner = await signedIn(harness.app, 'Cal Flood');
    const other = await signedIn(harness.app, 'Cal Calm');
    const path = new URL((await owner.post<{ url: string }>('/api/calendar/token')).body.url).pathname;
    const calm = new URL((await other.post<{ url: string }>('/api/calendar/token')).body.url).pathname;
    const anyone = new TestClient(harness.app);
    const statuses: number[] = [];
    for (let n = 0; n <= FEED_REQUESTS_PER_MINUTE; n++) statuses.push((await anyone.get(path)).status);
    expect(statuses.slice(0, FEED_REQUESTS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const refused = await anyone.get<{ message: string }>(path);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/wait/);
    expect((await anyone.get(calm)).status).toBe(200);
  });
});

describe.each(testEngines())('calendar feed: validators within one second (%s)', (engine) => {
  // A clock the test moves: the feed's dates are whole seconds, and these cases live inside one.
  let now = Math.floor(Date.now() / 1000) * 1000 + 100;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await openTestDatabase(engine);
    app = await buildApp({ database, config: { seedSampleUsers: true }, clock: () => new Date(now) });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(() => close?.());

  it('F13: after an edit in the same second, If-Modified-Since alone gets the new feed, and Last-Modified moves once that second is over', async () => {
    const owner = await signedIn(app, 'Cal Same Second');
    const todo = await owner.create({ title: 'Before', type: 'todo', due_date: '2031-09-01' });
    const path = new URL((await owner.post<{ url: string }>('/api/calendar/token')).body.url).pathname;
    const anyone = new TestClient(app);
    const first = await anyone.get<string>(path);
    const lastModified = String(first.headers['last-modified']);
    expect(Date.parse(lastModified)).toBe(Math.floor(now / 1000) * 1000);
    expect((await anyone.get(path, { 'if-modified-since': lastModified })).status).toBe(304);

    now += 500;
    await owner.update(todo.id, { title: 'After' });
    const again = await anyone.get<string>(path, { 'if-modified-since': lastModified });
    expect(again.status).toBe(200);
    expect(again.text).toContain('SUMMARY:After');
    // Never later than the answer itself: still the same second, until it is over.
    expect(Date.parse(String(again.headers['last-modified']))).toBeLessThanOrEqual(now);

    now += 1000;
    const later = await anyone.get<string>(path, { 'if-modified-since': lastModified });
    expect(later.status).toBe(200);
    const moved = String(later.headers['last-modified']);
    expect(Date.parse(moved)).toBe(Date.parse(lastModified) + 1000);
    expect((await anyone.get(path, { 'if-modified-since': moved })).status).toBe(304);
  });

  it('F13: the gzipped and plain feeds carry different strong ETags, Vary: Accept-Encoding, and If-None-Match works for each', async () => {
    const owner = await signedIn(app, 'Cal Codings');
    await owner.create({ title: 'Zipped', type: 'todo', due_date: '2031-09-02' });
    const path = new URL((await owner.post<{ url: string }>('/api/calendar/token')).body.url).pathname;
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: path, headers });
    const plain = await get({});
    const zipped = await get({ 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const plainTag = String(plain.headers.etag);
    const zippedTag = String(zipped.headers.etag);
    expect(plainTag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(zippedTag).toMatch(/^"[A-Za-z0-9_-]+-gzip"$/);
    expect(zippedTag).not.toBe(plainTag);
    for (const answer of [plain, zipped]) expect(answer.headers.vary).toMatch(/Accept-Encoding/);

    const plainAgain = await get({ 'if-none-match': plainTag });
    expect(plainAgain.statusCode).toBe(304);
    expect(plainAgain.headers.etag).toBe(plainTag);
    const zippedAgain = await get({ 'accept-encoding': 'gzip', 'if-none-match': zippedTag });
    expect(zippedAgain.statusCode).toBe(304);
    expect(zippedAgain.headers.etag).toBe(zippedTag);
    expect(zippedAgain.headers.vary).toMatch(/Accept-Encoding/);
    // A cache holding the other coding of the same content is told it is current, under this coding's tag.
    const crossed = await get({ 'accept-encoding': 'gzip', 'if-none-match': plainTag });
    expect(crossed.statusCode).toBe(304);
    expect(crossed.headers.etag).toBe(zippedTag);
    expect((await get({ 'accept-encoding': 'gzip', 'if-none-match': '"other-gzip"' })).statusCode).toBe(200);
  });
});
