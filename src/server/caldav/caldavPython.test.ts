import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, vtodoCalendar } from '../../../testkit/caldav';
import { createTestApp, pullsCaughtUp, testEngines } from '../../../testkit/server';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../../testkit/caldavClient.py');
// Debian's interpreter, where python3-caldav is installed (.ci/run installs it when missing).
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

type Harness = Awaited<ReturnType<typeof createTestApp>>;

interface PyTodo {
  url: string;
  uid: string;
  summary: string;
  status: string | null;
  due: string | null;
  related_to: string | null;
  data: string;
}

const ical = (uid: string, lines: string[]) => vtodoCalendar(uid, lines, '-//python caldav test//EN');

describe.each(testEngines())('CalDAV with Debian’s python3-caldav (%s)', (engine) => {
  let harness: Harness;
  let base: string;
  let owner: TestClient;
  let token: string;
  let campaign: Item;

  /** One step of testkit/caldavClient.py against the listening server, its JSON answer. */
  const py = async <T>(step: string, ...args: string[]): Promise<T> => {
    try {
      const { stdout } = await run(PYTHON, [SCRIPT, `${base}/dav/`, token, step, ...args], {
        timeout: 60_000,
      });
      return JSON.parse(stdout) as T;
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      if (failed.code === 3 && failed.stdout) return JSON.parse(failed.stdout) as T;
      throw new Error(`caldavClient.py ${step} failed: ${failed.stderr ?? String(error)}`);
    }
  };

  const itemsUnder = async (parentId: number) =>
    (await owner.get<Paginated<Item>>(`/api/items?parent_id=${parentId}&per_page=100`)).body.data;

  beforeAll(async () => {
    harness = await createTestApp(engine);
    base = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await signedIn(harness.app, 'Py Owner');
    token = await mintToken(owner, ['caldav'], 'Python');
    campaign = await owner.create({ title: 'Garden', type: 'campaign' });
  });
  afterAll(() => harness?.close());

  it('V7: discovers Outpost and the campaign as VTODO calendars', async () => {
    const calendars = await py<{ name: string; components: string[] }[]>('discover');
    expect(calendars.map((c) => c.name)).toEqual(['Outpost', 'Garden']);
    for (const calendar of calendars) expect(calendar.components).toEqual(['VTODO']);
  });

  it('V5, V1: a VTODO saved by the client is a task in the app; a subtask by RELATED-TO lands under it; X-FOO and VALARM survive an app edit', async () => {
    const taskUid = 'e0b1c2d3-0000-4000-8000-000000000010';
    const created = await py<{ url: string }>(
      'create',
      'Garden',
      ical(taskUid, [
        'SUMMARY:Plant the tulips',
        'DUE;VALUE=DATE:20261210',
        'X-FOO:from python',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Tulips',
        'TRIGGER:-PT1H',
        'END:VALARM',
      ]),
    );
    expect(created.url).toContain(`/campaign-${campaign.id}/`);
    const task = (await itemsUnder(campaign.id)).find((i) => i.uuid === taskUid)!;
    expect(task).toMatchObject({ type: 'task', title: 'Plant the tulips', due_date: '2026-12-10' });
    const todoUid = 'e0b1c2d3-0000-4000-8000-000000000011';
    await py(
      'create',
      'Garden',
      ical(todoUid, ['SUMMARY:Buy bulbs', `RELATED-TO;RELTYPE=PARENT:${taskUid}`]),
    );
    expect((await itemsUnder(task.id)).map((t) => [t.type, t.title])).toEqual([['todo', 'Buy bulbs']]);
    const orphan = await py<{ error?: string }>(
      'create',
      'Garden',
      ical('e0b1c2d3-0000-4000-8000-000000000012', ['SUMMARY:Orphan', 'RELATED-TO:no-such-task']),
    );
    expect(orphan.error).toBeDefined();
    expect((await itemsUnder(campaign.id)).some((i) => i.title === 'Orphan')).toBe(false);

    expect((await owner.patch(`/api/items/${task.id}`, { title: 'Plant the red tulips' })).status).toBe(200);
    const got = await py<PyTodo>('get', 'Garden', taskUid);
    expect(got.summary).toBe('Plant the red tulips');
    expect(got.data).toContain('X-FOO:from python');
    expect(got.data).toMatch(/BEGIN:VALARM[\s\S]*TRIGGER:-PT1H[\s\S]*END:VALARM/);
    const todo = await py<PyTodo>('get', 'Garden', todoUid);
    expect(todo.related_to).toBe(taskUid);
  });

  it('V4: the client’s DUE and a title edit in the app both survive', async () => {
    const task = await owner.create({
      title: 'Mow',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2026-12-01',
    });
    expect((await owner.patch(`/api/items/${task.id}`, { title: 'Mow the lawn' })).status).toBe(200);
    await py('set-due', 'Garden', task.uuid!, '20261204');
    expect((await owner.get<Item>(`/api/items/${task.id}`)).body).toMatchObject({
      title: 'Mow the lawn',
      due_date: '2026-12-04',
    });
  });

  it('V6: an edit in the app is reported by sync-collection with a new ETag; a deletion as gone', async () => {
    const task = await owner.create({ title: 'Rake leaves', type: 'task', parent_id: campaign.id });
    await pullsCaughtUp(harness.database);
    const first = await py<{ token: string; objects: { url: string; etag: string }[] }>('sync', 'Garden');
    const mine = first.objects.find((o) => o.url.endsWith(`${task.uuid}.ics`))!;
    expect(mine.etag).toMatch(/^"\d+-/);
    expect((await owner.patch(`/api/items/${task.id}`, { title: 'Rake all the leaves' })).status).toBe(200);
    await pullsCaughtUp(harness.database);
    const second = await py<{ token: string; objects: { url: string; etag: string | null }[] }>(
      'sync',
      'Garden',
      first.token,
    );
    const changed = second.objects.find((o) => o.url.endsWith(`${task.uuid}.ics`))!;
    expect(changed.etag).toMatch(/^"\d+-/);
    expect(changed.etag).not.toBe(mine.etag);
    await py('delete', 'Garden', task.uuid!);
    expect((await owner.get(`/api/items/${task.id}`)).status).toBe(404);
  });

  it('V4: completing a repeating VTODO from the client brings exactly one next occurrence', async () => {
    const task = await owner.create({
      title: 'Feed the birds',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2026-12-01',
      recurrence: 'FREQ=DAILY;INTERVAL=2',
    });
    await py('complete', 'Garden', task.uuid!);
    const series = (await itemsUnder(campaign.id)).filter((i) => i.title === 'Feed the birds');
    expect(series.map((i) => [i.status, i.due_date]).sort()).toEqual([
      ['completed', '2026-12-01'],
      ['pending', '2026-12-03'],
    ]);
  });

  it('V7: a token without the caldav scope is refused', async () => {
    const readOnly = await mintToken(owner, ['read'], 'Script');
    const saved = token;
    token = readOnly;
    try {
      const refused = await py<{ error?: string }>('discover');
      expect(refused.error).toBe('AuthorizationError');
    } finally {
      token = saved;
    }
  });
});
