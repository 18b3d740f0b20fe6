import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, TestClient } from '../../../testkit/testClient';
import { FEED_NOT_FOUND } from './routes';

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

  it('makes a feed URL only for a signed-in person', async () => {
    const anyone = new TestClient(harness.app);
    expect((await anyone.post('/api/calendar/token')).status).toBeGreaterThanOrEqual(400);
    expect((await anyone.post('/api/calendar/token')).status).toBeLessThan(500);
  });
});
