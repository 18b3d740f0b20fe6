import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { makeMutual, signedIn, type TestClient } from '../../../testkit/testClient';
import type { Item, Paginated } from '../../shared/item';
import { occurrenceUuid } from '../../shared/recurrence';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

async function series(c: TestClient, uuid: string): Promise<Item[]> {
  const page = await c.get<Paginated<Item>>('/api/items?type=todo&per_page=100');
  return page.body.data.filter((i) => i.uuid === uuid || i.series_uuid === uuid);
}

describe.each(testEngines())('recurrence (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('N1: completing an occurrence over the API alone creates the next one with its derived uuid', async () => {
    const c = await signedIn(harness.app, 'Rita');
    const first = await c.create({
      uuid: randomUUID(),
      title: 'Water the plants',
      type: 'todo',
      description: 'The ferns too',
      due_date: '2031-03-03',
      remind_at: '2031-03-03T08:00:00Z',
      recurrence: 'rrule:freq=weekly;byday=mo,th',
    });
    expect(first.recurrence).toBe('FREQ=WEEKLY;BYDAY=MO,TH');
    expect(first.series_uuid).toBeNull();
    await c.update(first.id, { status: 'completed' });
    const all = await series(c, first.uuid!);
    const next = all.find((i) => i.id !== first.id)!;
    expect(all).toHaveLength(2);
    expect(next).toMatchObject({
      uuid: occurrenceUuid(first.uuid!, '2031-03-06'),
      series_uuid: first.uuid,
      title: 'Water the plants',
      description: 'The ferns too',
      status: 'pending',
      due_date: '2031-03-06',
      remind_at: '2031-03-06T08:00:00.000Z',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TH',
      user_id: first.user_id,
    });
    // Reopening keeps the next one; completing again does not make a second.
    await c.update(first.id, { status: 'pending' });
    await c.update(first.id, { status: 'completed' });
    expect(await series(c, first.uuid!)).toHaveLength(2);
    // The client's queued create of the same occurrence answers with the server's row.
    const again = await c.post<Item>('/api/items', {
      title: 'Water the plants',
      type: 'todo',
      due_date: '2031-03-06',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TH',
      series_uuid: first.uuid,
      uuid: next.uuid,
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(next.id);
  });

  it('a next occurrence under a task reopens the completed task, and Stop repeating ends the series', async () => {
    const c = await signedIn(harness.app, 'Rita');
    const task = await c.create({ title: 'House', type: 'task' });
    const todo = await c.create({
      uuid: randomUUID(),
      title: 'Bins',
      type: 'todo',
      parent_id: task.id,
      due_date: '2031-01-31',
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
    });
    await c.update(todo.id, { status: 'completed' });
    expect((await c.item(task.id)).status).toBe('in_progress');
    const next = (await series(c, todo.uuid!)).find((i) => i.id !== todo.id)!;
    // rrule skips months without a 31st.
    expect(next).toMatchObject({ due_date: '2031-03-31', parent_id: task.id });
    await c.update(next.id, { recurrence: null });
    await c.update(next.id, { status: 'completed' });
    expect(await series(c, todo.uuid!)).toHaveLength(2);
  });

  it('N6: completing a campaign completes its repeating task and todo and brings each its next occurrence, with the uuid a direct completion gives', async () => {
    const c = await signedIn(harness.app, 'Rita');
    const campaign = await c.create({ title: 'Home', type: 'campaign' });
    const task = await c.create({
      uuid: randomUUID(),
      title: 'Sweep',
      type: 'task',
      parent_id: campaign.id,
      due_date: '2031-04-01',
      recurrence: 'FREQ=WEEKLY',
    });
    const todo = await c.create({
      uuid: randomUUID(),
      title: 'Bins',
      type: 'todo',
      parent_id: task.id,
      due_date: '2031-04-02',
      recurrence: 'FREQ=DAILY',
    });
    const plain = await c.create({ title: 'Once', type: 'todo', parent_id: campaign.id });
    await c.update(campaign.id, { status: 'completed' });
    expect((await c.item(todo.id)).status).toBe('completed');
    expect((await c.item(plain.id)).status).toBe('completed');
    const nextTask = (await c.get<Paginated<Item>>('/api/items?type=task&per_page=100')).body.data.find(
      (i) => i.series_uuid === task.uuid,
    );
    expect(nextTask).toMatchObject({
      uuid: occurrenceUuid(task.uuid!, '2031-04-08'),
      status: 'pending',
      parent_id: campaign.id,
      due_date: '2031-04-08',
    });
    const nextTodo = (await series(c, todo.uuid!)).find((i) => i.id !== todo.id);
    expect(nextTodo).toMatchObject({
      uuid: occurrenceUuid(todo.uuid!, '2031-04-03'),
      status: 'pending',
      parent_id: task.id,
      due_date: '2031-04-03',
    });
    // The open occurrences keep their parents open, as after a direct completion.
    expect((await c.item(task.id)).status).toBe('in_progress');
    expect((await c.item(campaign.id)).status).toBe('in_progress');
    // Completing the same task again (after a reopen) makes no second occurrence.
    await c.update(task.id, { status: 'pending' });
    await c.update(task.id, { status: 'completed' });
    expect(
      (await c.get<Paginated<Item>>('/api/items?type=task&per_page=100')).body.data.filter(
        (i) => i.series_uuid === task.uuid,
      ),
    ).toHaveLength(1);
    // Each date of the todo's series is one row, whichever completion brought it.
    const dates = (await series(c, todo.uuid!)).map((i) => i.due_date);
    expect(new Set(dates).size).toBe(dates.length);
  });

  it('a changed rule applies from the next occurrence on; the completed ones keep theirs', async () => {
    const c = await signedIn(harness.app, 'Rita');
    const first = await c.create({
      uuid: randomUUID(),
      title: 'Stand-up',
      type: 'task',
      due_date: '2031-09-01',
      recurrence: 'FREQ=DAILY',
    });
    await c.update(first.id, { status: 'completed' });
    const second = (await c.get<Paginated<Item>>('/api/items?type=task&per_page=100')).body.data.find(
      (i) => i.series_uuid === first.uuid,
    )!;
    expect(second.due_date).toBe('2031-09-02');
    await c.update(second.id, { recurrence: 'FREQ=WEEKLY;BYDAY=TU' });
    await c.update(second.id, { status: 'completed' });
    const tasks = (await c.get<Paginated<Item>>('/api/items?type=task&per_page=100')).body.data;
    const third = tasks.find((i) => i.series_uuid === first.uuid && i.id !== second.id)!;
    expect(third).toMatchObject({ due_date: '2031-09-09', recurrence: 'FREQ=WEEKLY;BYDAY=TU' });
    expect(third.uuid).toBe(occurrenceUuid(first.uuid!, '2031-09-09'));
    expect((await c.item(first.id)).recurrence).toBe('FREQ=DAILY');
  });

  it('a rule that yields no further date ends the series quietly; COUNT counts down', async () => {
    const c = await signedIn(harness.app, 'Rita');
    const todo = await c.create({
      uuid: randomUUID(),
      title: 'Three lessons',
      type: 'todo',
      due_date: '2031-05-01',
      recurrence: 'FREQ=DAILY;COUNT=2',
    });
    await c.update(todo.id, { status: 'completed' });
    const next = (await series(c, todo.uuid!)).find((i) => i.id !== todo.id)!;
    expect(next.recurrence).toBe('FREQ=DAILY;COUNT=1');
    expect((await c.update(next.id, { status: 'completed' })).status).toBe('completed');
    expect(await series(c, todo.uuid!)).toHaveLength(2);
    const until = await c.create({
      uuid: randomUUID(),
      title: 'Until',
      type: 'todo',
      due_date: '2031-05-01',
      recurrence: 'FREQ=WEEKLY;UNTIL=20310503',
    });
    await c.update(until.id, { status: 'completed' });
    expect(await series(c, until.uuid!)).toHaveLength(1);
  });

  it('N2: two users completing the same occurrence concurrently make one next occurrence', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const helper = await signedIn(harness.app, 'Helper');
    await makeMutual(owner, helper);
    for (let round = 0; round < 5; round++) {
      const todo = await owner.create({
        uuid: randomUUID(),
        title: `Shared ${round}`,
        type: 'todo',
        assigned_to: helper.user!.id,
        due_date: '2031-06-01',
        recurrence: 'FREQ=DAILY',
      });
      const [a, b] = await Promise.all([
        owner.patch(`/api/items/${todo.id}`, { status: 'completed' }),
        helper.patch(`/api/items/${todo.id}`, { status: 'completed' }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      // Each device also sends its own queued create of the next occurrence.
      const create = (c: TestClient) =>
        c.post<Item>('/api/items', {
          title: `Shared ${round}`,
          type: 'todo',
          assigned_to: helper.user!.id,
          due_date: '2031-06-02',
          recurrence: 'FREQ=DAILY',
          series_uuid: todo.uuid,
          uuid: occurrenceUuid(todo.uuid!, '2031-06-02'),
        });
      const [ca, cb] = await Promise.all([create(owner), create(helper)]);
      expect(ca.body.id).toBe(cb.body.id);
      expect(await series(owner, todo.uuid!)).toHaveLength(2);
      expect(await series(helper, todo.uuid!)).toHaveLength(2);
    }
  });

  it('refuses bad rules with a 422 naming recurrence, rules that never give a date too (F2)', async () => {
    const c = await signedIn(harness.app, 'Rita');
    const bad: [Record<string, unknown>, string][] = [
      [{ due_date: '2031-01-01', recurrence: 'every tuesday' }, 'not a valid RRULE'],
      [{ due_date: '2031-01-01', recurrence: 'FREQ=HOURLY' }, 'FREQ=DAILY'],
      [{ recurrence: 'FREQ=DAILY' }, 'needs a due date'],
      [{ due_date: '2031-01-01', recurrence: 'FREQ=DAILY;COUNT=0' }, 'COUNT'],
      [{ due_date: '2031-01-01', recurrence: 'FREQ=DAILY;UNTIL=20200101' }, 'ends in the past'],
      [{ due_date: '2031-01-01', recurrence: `FREQ=DAILY;BYDAY=${'MO,'.repeat(90)}MO` }, '255 characters'],
      [{ due_date: '2031-01-01', recurrence: 42 }, 'text'],
      [{ due_date: '2031-01-01', recurrence: 'FREQ=MONTHLY;BYDAY=53MO' }, '1 to 5'],
      [{ due_date: '2031-01-01', recurrence: 'FREQ=MONTHLY;BYDAY=-5FR;BYMONTHDAY=13' }, 'never'],
      [{ due_date: '2031-02-10', recurrence: 'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31' }, 'no date after'],
    ];
    for (const [fields, text] of bad) {
      const res = await c.post<ErrorBody>('/api/items', { title: 'x', type: 'todo', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.body.errors?.recurrence?.[0], JSON.stringify(fields)).toContain(text);
    }
    const campaign = await c.post<ErrorBody>('/api/items', {
      title: 'x',
      type: 'campaign',
      due_date: '2031-01-01',
      recurrence: 'FREQ=DAILY',
    });
    expect(campaign.body.errors?.recurrence?.[0]).toContain('Only tasks and todos');
    const todo = await c.create({
      title: 'x',
      type: 'todo',
      due_date: '2031-01-01',
      recurrence: 'FREQ=DAILY',
    });
    const cleared = await c.patch<ErrorBody>(`/api/items/${todo.id}`, { due_date: null });
    expect(cleared.status).toBe(422);
    expect(cleared.body.errors?.recurrence?.[0]).toContain('needs a due date');
    const past = await c.patch<ErrorBody>(`/api/items/${todo.id}`, {
      recurrence: 'FREQ=DAILY;UNTIL=20200101',
    });
    expect(past.status).toBe(422);
    expect((await c.item(todo.id)).recurrence).toBe('FREQ=DAILY');
  });
});
