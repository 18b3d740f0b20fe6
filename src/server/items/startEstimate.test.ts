import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { pullAll, signedIn } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';

type ErrorBody = { message: string; errors?: Record<string, string[]> };
type Paginated<T> = { data: T[] };
type HistoryEntry = { id: number; changes: Record<string, { from: unknown; to: unknown }> };

describe.each(testEngines())('start_date and estimate_minutes (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('D10: stores both at create and by PATCH, syncs them, restores them from history, and refuses a start after the due date', async () => {
    const c = await signedIn(harness.app, 'Sam');
    const task = await c.create({
      title: 'Paint the fence',
      type: 'task',
      start_date: '2031-05-05',
      due_date: '2031-05-09',
      estimate_minutes: 150,
    });
    expect(task).toMatchObject({ start_date: '2031-05-05', due_date: '2031-05-09', estimate_minutes: 150 });
    const bare = await c.create({ title: 'No plan', type: 'todo' });
    expect(bare).toMatchObject({ start_date: null, estimate_minutes: null });

    const moved = await c.update(task.id, { start_date: '2031-05-06', estimate_minutes: 0 });
    expect(moved).toMatchObject({ start_date: '2031-05-06', estimate_minutes: 0, version: 2 });
    const pulled = await pullAll(c, harness.app.database);
    expect(pulled.items.find((i) => i.id === task.id)).toMatchObject({
      start_date: '2031-05-06',
      estimate_minutes: 0,
    });

    // A start after the due date, given together or against the stored one: 422 naming start_date.
    const late = await c.post<ErrorBody>('/api/items', {
      title: 'x',
      type: 'todo',
      start_date: '2031-05-10',
      due_date: '2031-05-09',
    });
    expect(late.status).toBe(422);
    expect(late.body.errors?.start_date?.[0]).toBe('The start date must be on or before the due date.');
    for (const patch of [{ start_date: '2031-05-10' }, { due_date: '2031-05-05' }]) {
      const refused = await c.patch<ErrorBody>(`/api/items/${task.id}`, patch);
      expect(refused.status, JSON.stringify(patch)).toBe(422);
      expect(refused.body.errors?.start_date?.[0]).toMatch(/on or before the due date/);
    }
    // Moving both together keeps the span.
    expect(await c.update(task.id, { start_date: '2031-05-12', due_date: '2031-05-15' })).toMatchObject({
      start_date: '2031-05-12',
      due_date: '2031-05-15',
    });

    for (const bad of [-1, 100_001, 1.5, '90', true]) {
      const refused = await c.patch<ErrorBody>(`/api/items/${task.id}`, { estimate_minutes: bad });
      expect(refused.status, String(bad)).toBe(422);
      expect(refused.body.errors?.estimate_minutes?.[0]).toEqual(expect.any(String));
    }
    expect((await c.update(task.id, { estimate_minutes: 100_000 })).estimate_minutes).toBe(100_000);

    const history = await c.get<Paginated<HistoryEntry>>(`/api/items/${task.id}/history`);
    const estimateEdit = history.body.data.find((e) => e.changes.estimate_minutes?.to === 100_000);
    expect(estimateEdit?.changes).toMatchObject({ estimate_minutes: { from: 0, to: 100_000 } });
    const reverted = await c.post<Item>(`/api/items/${task.id}/history/${estimateEdit?.id}/revert`);
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body).toMatchObject({ estimate_minutes: 0, start_date: '2031-05-12' });
  });
});
