import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { ExportDocument } from '../../shared/importExport';
import type { Item, Paginated, SyncPage } from '../../shared/item';
import {
  isTimeEntryTombstone,
  type SyncPageTimeEntries,
  TIME_ENTRY_LENGTH_MESSAGE,
  TIME_ENTRY_ORDER_MESSAGE,
  TIME_ENTRY_OVERLAP_MESSAGE,
  TIME_ENTRY_WHEN_MESSAGE,
  type TimeEntry,
} from '../../shared/timeEntries';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';

const HOUR = 3_600_000;
/** An instant `hours` after a fixed morning: every test works in its own day so none overlaps another's. */
const at = (day: number, hours: number) => new Date(Date.UTC(2026, 0, day, 8) + hours * HOUR).toISOString();

type Errors = { errors: Record<string, string[]> };

describe.each(testEngines())('time entries on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let alex: TestClient;
  let blair: TestClient;
  let casey: TestClient;
  let stranger: TestClient;
  let campaign: Item;
  let task: Item;
  let todo: Item;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: {
        seedSampleUsers: true,
        reminderTickMs: 0,
        webhooks: { ...loadConfig({}).webhooks, allowLoopback: true },
      },
    });
    await app.ready();
    alex = await signedIn(app, 'Alex');
    blair = await signedIn(app, 'Blair');
    casey = await signedIn(app, 'Casey');
    stranger = await signedIn(app, 'Stranger');
    await makeMutual(alex, blair, casey);
    campaign = await alex.create({ title: 'Launch', type: 'campaign' });
    task = await alex.create({ title: 'Write copy', type: 'task', parent_id: campaign.id });
    todo = await alex.create({ title: 'Draft', type: 'todo', parent_id: task.id });
    // Blair edits, Casey only views.
    expect(
      (await alex.post(`/api/campaigns/${campaign.id}/members`, { user_id: blair.user!.id, role: 'editor' }))
        .status,
    ).toBe(201);
    expect(
      (await alex.post(`/api/campaigns/${campaign.id}/members`, { user_id: casey.user!.id, role: 'viewer' }))
        .status,
    ).toBe(201);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const start = (client: TestClient, itemId: number, body: Record<string, unknown>) =>
    client.post<TimeEntry>(`/api/items/${itemId}/time_entries`, body);
  const entry = async (client: TestClient, id: number) =>
    (await client.get<Paginated<TimeEntry>>(`/api/items/${todo.id}/time_entries`)).body.data.find(
      (e) => e.id === id,
    );
  const running = async (userId: number) =>
    rows<{ id: number }>(
      database.db,
      sql`SELECT id FROM time_entries WHERE user_id = ${userId} AND ended_at IS NULL AND deleted_at IS NULL`,
    );

  it('X1: an end before the start, an entry over 24 hours, a long note or a bad instant is a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ started_at: at(1, 2), ended_at: at(1, 1) }, 'ended_at', TIME_ENTRY_ORDER_MESSAGE],
      [{ started_at: at(1, 0), ended_at: at(1, 25) }, 'ended_at', TIME_ENTRY_LENGTH_MESSAGE],
      [{ started_at: at(1, 0), ended_at: at(1, 1), note: 'x'.repeat(501) }, 'note'],
      [{ started_at: 'yesterday' }, 'started_at'],
      [{}, 'started_at'],
      [{ started_at: at(1, 0), minutes: 5 }, ''],
    ];
    for (const [body, field, message] of cases) {
      const answer = await start(alex, todo.id, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      if (field) expect((answer.body as unknown as Errors).errors[field], field).toBeDefined();
      if (message) expect((answer.body as unknown as Errors).errors[field]).toEqual([message]);
    }
    const created = await start(alex, todo.id, { started_at: at(1, 0), ended_at: at(1, 1) });
    expect((await alex.patch(`/api/time_entries/${created.body.id}`, { ended_at: at(1, 30) })).status).toBe(
      422,
    );
  });

  it('X2: starting a timer ends the running one at that instant, and a late start from an offline device ends where the later one begins', async () => {
    const first = await start(alex, todo.id, { started_at: at(2, 0), uuid: randomUUID() });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ ended_at: null, item_id: todo.id, user: { id: alex.user!.id } });
    const second = await start(alex, task.id, { started_at: at(2, 1) });
    expect(second.body.ended_at).toBeNull();
    expect((await entry(alex, first.body.id))?.ended_at).toBe(at(2, 1));
    // A start from before the running one (queued offline) does not take the timer over.
    const late = await start(alex, todo.id, { started_at: at(2, 0.5) });
    expect(late.status).toBe(201);
    expect(late.body.ended_at).toBe(at(2, 1));
    expect((await running(alex.user!.id)).map((r) => r.id)).toEqual([second.body.id]);
    expect(
      (await alex.post<TimeEntry>(`/api/time_entries/${second.body.id}/stop`, { ended_at: at(2, 2) })).status,
    ).toBe(200);
  });

  it('X2: parallel starts from several devices leave exactly one running timer and no overlaps', async () => {
    const starts = Array.from({ length: 8 }, (_, i) => start(blair, todo.id, { started_at: at(3, i * 0.1) }));
    const answers = await Promise.all(starts);
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect(await running(blair.user!.id)).toHaveLength(1);
    const spans = await rows<{ s: Date | string; e: Date | string | null }>(
      database.db,
      sql`SELECT started_at AS s, ended_at AS e FROM time_entries WHERE user_id = ${blair.user!.id} ORDER BY started_at`,
    );
    for (let i = 1; i < spans.length; i++) {
      expect(Date.parse(String(new Date(spans[i - 1]!.e as string)))).toBeLessThanOrEqual(
        Date.parse(String(new Date(spans[i]!.s))),
      );
    }
    const last = answers.at(-1)!.body;
    await blair.post(`/api/time_entries/${last.id}/stop`, { ended_at: at(3, 2) });
  });

  it('X3, X9: a stop ends a timer once: a second stop or a replayed create changes nothing', async () => {
    const uuid = randomUUID();
    const timer = await start(alex, todo.id, { started_at: at(4, 0), uuid });
    // A device's queue names its own entry by uuid.
    const stopped = await alex.post<TimeEntry>(`/api/time_entries/${uuid}/stop`, { ended_at: at(4, 1) });
    expect(stopped.body).toMatchObject({ ended_at: at(4, 1), minutes: 60 });
    const again = await alex.post<TimeEntry>(`/api/time_entries/${timer.body.id}/stop`, {
      ended_at: at(4, 3),
    });
    expect(again.status).toBe(200);
    expect(again.body.ended_at).toBe(at(4, 1));
    const replay = await start(alex, todo.id, { started_at: at(4, 0), uuid });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id: timer.body.id, ended_at: at(4, 1) });
    // A stop long after the start keeps the entry within 24 hours.
    const forgotten = await start(alex, todo.id, { started_at: at(5, 0) });
    const late = await alex.post<TimeEntry>(`/api/time_entries/${forgotten.body.id}/stop`, {
      ended_at: at(5, 40),
    });
    expect(late.body.ended_at).toBe(at(5, 24));
  });

  it('X4: a manual entry or an edit that overlaps another of the person’s entries is a 422', async () => {
    const first = await start(alex, todo.id, { started_at: at(6, 0), ended_at: at(6, 2), note: 'Morning' });
    expect(first.status, first.text).toBe(201);
    const overlapping = await start(alex, task.id, { started_at: at(6, 1), ended_at: at(6, 3) });
    expect(overlapping.status).toBe(422);
    expect((overlapping.body as unknown as Errors).errors.started_at).toEqual([TIME_ENTRY_OVERLAP_MESSAGE]);
    const after = await start(alex, task.id, { started_at: at(6, 2), ended_at: at(6, 3) });
    expect(after.status).toBe(201);
    expect((await alex.patch(`/api/time_entries/${after.body.id}`, { started_at: at(6, 1.5) })).status).toBe(
      422,
    );
    // Someone else's time may overlap it.
    expect((await start(blair, task.id, { started_at: at(6, 1), ended_at: at(6, 3) })).status).toBe(201);
  });

  it('X7: spent minutes roll up from a todo to its task and campaign, and follow edits and deletes', async () => {
    const spent = async () => {
      const [c, t, d] = await Promise.all([alex.item(campaign.id), alex.item(task.id), alex.item(todo.id)]);
      return [c.spent_minutes, t.spent_minutes, d.spent_minutes];
    };
    const before = await spent();
    const manual = await start(alex, todo.id, { started_at: at(7, 0), ended_at: at(7, 1.5) });
    expect(await spent()).toEqual([before[0]! + 90, before[1]! + 90, before[2]! + 90]);
    await alex.patch(`/api/time_entries/${manual.body.id}`, { ended_at: at(7, 1) });
    expect(await spent()).toEqual([before[0]! + 60, before[1]! + 60, before[2]! + 60]);
    const timer = await start(alex, task.id, { started_at: at(7, 2) });
    expect(await spent()).toEqual([before[0]! + 60, before[1]! + 60, before[2]! + 60]);
    await alex.post(`/api/time_entries/${timer.body.id}/stop`, { ended_at: at(7, 2.5) });
    expect(await spent()).toEqual([before[0]! + 90, before[1]! + 90, before[2]! + 60]);
    expect((await alex.delete(`/api/time_entries/${manual.body.id}`)).status).toBe(204);
    expect(await spent()).toEqual([before[0]! + 30, before[1]! + 30, before[2]!]);
  });

  it('X8: a viewer reads entries and gets 403 on writes; only the author edits; the owner may delete', async () => {
    const mine = await start(blair, todo.id, { started_at: at(8, 0), ended_at: at(8, 1) });
    expect((await start(casey, todo.id, { started_at: at(8, 2) })).status).toBe(403);
    const list = await casey.get<Paginated<TimeEntry>>(`/api/items/${todo.id}/time_entries`);
    expect(list.status).toBe(200);
    expect(list.body.data.some((e) => e.id === mine.body.id)).toBe(true);
    expect((await casey.delete(`/api/time_entries/${mine.body.id}`)).status).toBe(403);
    expect((await alex.patch(`/api/time_entries/${mine.body.id}`, { note: 'not mine' })).status).toBe(403);
    expect((await stranger.get(`/api/items/${todo.id}/time_entries`)).status).toBe(404);
    expect((await stranger.delete(`/api/time_entries/${mine.body.id}`)).status).toBe(404);
    expect((await alex.delete(`/api/time_entries/${mine.body.id}`)).status).toBe(204);
  });

  it('X5: a pull carries entries on items the reader sees, and a deleted one as a bare tombstone', async () => {
    const pullEntries = async (client: TestClient) => {
      const found = new Map<number, NonNullable<SyncPageTimeEntries['time_entries']>[number]>();
      let cursor = '';
      for (let i = 0; i < 50; i++) {
        const page = await client.get<SyncPage & SyncPageTimeEntries>(
          `/api/sync?cursor=${encodeURIComponent(cursor)}`,
        );
        for (const e of page.body.time_entries ?? []) found.set(e.id, e);
        cursor = page.body.cursor;
        if (!page.body.has_more) break;
      }
      return { found, cursor };
    };
    const noted = await start(alex, todo.id, { started_at: at(9, 0), ended_at: at(9, 1), note: 'Synced' });
    // A pull shows rows below the cluster's oldest open transaction; on a PostgreSQL shared with other
    // test databases that can lag a moment, and a device simply pulls again.
    const { cursor } = await vi.waitFor(
      async () => {
        const pulled = await pullEntries(blair);
        expect(pulled.found.get(noted.body.id)).toMatchObject({
          note: 'Synced',
          item_uuid: todo.uuid,
          minutes: 60,
        });
        return pulled;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect((await pullEntries(stranger)).found.size).toBe(0);
    await alex.delete(`/api/time_entries/${noted.body.id}`);
    let tombstone: unknown;
    for (let i = 0; i < 500 && !tombstone; i++) {
      const page = await blair.get<SyncPage & SyncPageTimeEntries>(
        `/api/sync?cursor=${encodeURIComponent(cursor)}`,
      );
      tombstone = page.body.time_entries?.find((e) => e.id === noted.body.id);
      if (!tombstone) await new Promise((r) => setTimeout(r, 10));
    }
    expect(tombstone).toEqual({
      id: noted.body.id,
      uuid: noted.body.uuid,
      item_id: todo.id,
      deleted_at: expect.any(String),
    });
    expect(isTimeEntryTombstone(tombstone as never)).toBe(true);
  });

  it('reports entries by campaign and person, and exports CSV under the injection rule', async () => {
    const other = await alex.create({ title: 'Elsewhere', type: 'task' });
    await start(alex, todo.id, { started_at: at(10, 0), ended_at: at(10, 1), note: '=SUM(A1)' });
    await start(alex, other.id, { started_at: at(10, 2), ended_at: at(10, 3) });
    const inCampaign = await alex.get<Paginated<TimeEntry>>(
      `/api/time_entries?from=2026-01-10&to=2026-01-10&campaign_id=${campaign.id}`,
    );
    expect(inCampaign.status, inCampaign.text).toBe(200);
    expect(inCampaign.body.data.map((e) => e.item_id)).toEqual([todo.id]);
    const byPerson = await alex.get<Paginated<TimeEntry>>(
      `/api/time_entries?from=2026-01-10&to=2026-01-10&user_id=${alex.user!.id}`,
    );
    expect(byPerson.body.total).toBe(2);
    const csv = await alex.get(
      `/api/time_entries.csv?from=2026-01-10&to=2026-01-10&campaign_id=${campaign.id}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.split('\r\n')).toEqual([
      'date,start,end,person,campaign,task,item,minutes,note',
      `2026-01-10,${at(10, 0)},${at(10, 1)},Alex,Launch,Write copy,Draft,60,'=SUM(A1)`,
    ]);
    expect((await alex.get('/api/time_entries?from=tomorrow')).status).toBe(422);
  });

  it('the CSV names the task of a todo and of a task, an end only once it ended, and no title the reader does not see', async () => {
    await start(alex, task.id, { started_at: at(12, 0), ended_at: at(12, 1) });
    const running = await start(alex, todo.id, { started_at: at(12, 2) });
    const csv = await alex.get(`/api/time_entries.csv?from=2026-01-12&to=2026-01-12`);
    expect(csv.text.split('\r\n')).toEqual([
      'date,start,end,person,campaign,task,item,minutes,note',
      expect.stringMatching(new RegExp(`^2026-01-12,${at(12, 2)},,Alex,Launch,Write copy,Draft,\\d+,$`)),
      `2026-01-12,${at(12, 0)},${at(12, 1)},Alex,Launch,Write copy,Write copy,60,`,
    ]);
    await alex.post(`/api/time_entries/${running.body.id}/stop`, { ended_at: at(12, 3) });
    // Someone assigned one todo of a campaign not shared with them sees its entries, not its task's
    // or campaign's titles.
    const outsider = await signedIn(app, 'Outsider');
    await makeMutual(alex, outsider);
    const secret = await alex.create({ title: 'Secret plan', type: 'campaign' });
    const hidden = await alex.create({ title: 'Hidden task', type: 'task', parent_id: secret.id });
    const given = await alex.create({ title: 'Given todo', type: 'todo', parent_id: hidden.id });
    await alex.update(given.id, { assigned_to: outsider.user!.id });
    await start(alex, given.id, { started_at: at(13, 0), ended_at: at(13, 1) });
    const theirs = await outsider.get('/api/time_entries.csv?from=2026-01-13&to=2026-01-13');
    expect(theirs.text.split('\r\n')).toEqual([
      'date,start,end,person,campaign,task,item,minutes,note',
      `2026-01-13,${at(13, 0)},${at(13, 1)},Alex,,,Given todo,60,`,
    ]);
  });

  it('X12: an entry that starts before 2000 or more than a day ahead is a 422 naming started_at, on create and edit', async () => {
    const far = await start(alex, todo.id, {
      started_at: '2100-01-01T10:00:00Z',
      ended_at: '2100-01-01T11:00:00Z',
    });
    expect(far.status).toBe(422);
    expect((far.body as unknown as Errors).errors.started_at).toEqual([TIME_ENTRY_WHEN_MESSAGE]);
    const ahead = new Date(Date.now() + 26 * HOUR).toISOString();
    expect((await start(alex, todo.id, { started_at: ahead })).status).toBe(422);
    expect((await start(alex, todo.id, { started_at: '1999-12-31T23:00:00Z' })).status).toBe(422);
    const kept = await start(alex, todo.id, { started_at: at(14, 0), ended_at: at(14, 1) });
    expect(kept.status).toBe(201);
    const moved = await alex.patch(`/api/time_entries/${kept.body.id}`, {
      started_at: '2100-01-01T10:00:00Z',
    });
    expect(moved.status).toBe(422);
    expect((moved.body as unknown as Errors).errors.started_at).toEqual([TIME_ENTRY_WHEN_MESSAGE]);
  });

  it('X13: a 22-second entry counts as 1 minute on the entry and in spent_minutes up the tree', async () => {
    const before = (await alex.item(campaign.id)).spent_minutes!;
    const short = await start(alex, todo.id, {
      started_at: at(15, 0),
      ended_at: new Date(Date.parse(at(15, 0)) + 22_000).toISOString(),
    });
    expect(short.body.minutes).toBe(1);
    expect((await alex.item(campaign.id)).spent_minutes).toBe(before + 1);
    expect((await alex.delete(`/api/time_entries/${short.body.id}`)).status).toBe(204);
    expect((await alex.item(campaign.id)).spent_minutes).toBe(before);
  });

  it('T3: GET /api/export carries each item’s live time entries, authors by name, oldest first', async () => {
    const exported = await alex.create({ title: 'Exported', type: 'task' });
    const later = await start(alex, exported.id, { started_at: at(16, 2), ended_at: at(16, 3) });
    await start(alex, exported.id, { started_at: at(16, 0), ended_at: at(16, 1.5), note: 'First' });
    const gone = await start(alex, exported.id, { started_at: at(16, 4), ended_at: at(16, 5) });
    expect((await alex.delete(`/api/time_entries/${gone.body.id}`)).status).toBe(204);
    const doc = await alex.get<ExportDocument>('/api/export');
    expect(doc.status).toBe(200);
    expect(doc.body.items.find((i) => i.uuid === exported.uuid)?.time_entries).toEqual([
      {
        uuid: expect.any(String),
        author: 'Alex',
        started_at: at(16, 0),
        ended_at: at(16, 1.5),
        note: 'First',
      },
      { uuid: later.body.uuid, author: 'Alex', started_at: at(16, 2), ended_at: at(16, 3), note: '' },
    ]);
  });

  it('announces a new entry to webhooks as time_entry.created with the entry', async () => {
    const hook = await alex.post<{ id: number }>('/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['time_entry.created'],
    });
    expect(hook.status, hook.text).toBe(201);
    const created = await start(alex, todo.id, { started_at: at(11, 0), ended_at: at(11, 1) });
    const [delivery] = await rows<{ event_type: string; payload: string }>(
      database.db,
      sql`SELECT event_type, payload FROM webhook_deliveries WHERE webhook_id = ${hook.body.id}`,
    );
    expect(delivery?.event_type).toBe('time_entry.created');
    expect(JSON.parse(delivery!.payload)).toMatchObject({
      type: 'time_entry.created',
      data: { time_entry: { id: created.body.id, minutes: 60 } },
    });
  });
});
