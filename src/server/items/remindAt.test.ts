import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { pullAll, signedIn } from '../../../testkit/testClient';
import type { Item } from '../../shared/item';

type ErrorBody = { message: string; errors?: Record<string, string[]> };

describe.each(testEngines())('remind_at (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  it('stores a reminder given at create and answers it as a UTC instant, on any item type', async () => {
    const c = await signedIn(harness.app, 'Remy');
    const todo = await c.create({
      title: 'Call the plumber',
      type: 'todo',
      remind_at: '2031-05-01T09:30+02:00',
    });
    expect(todo.remind_at).toBe('2031-05-01T07:30:00.000Z');
    const campaign = await c.create({ title: 'Garden', type: 'campaign', remind_at: '2031-05-02T08:00:00Z' });
    expect(campaign.remind_at).toBe('2031-05-02T08:00:00.000Z');
    const none = await c.create({ title: 'No reminder', type: 'task' });
    expect(none.remind_at).toBeNull();
    expect((await c.item(todo.id)).remind_at).toBe('2031-05-01T07:30:00.000Z');
  });

  it('sets, changes and clears a reminder by PATCH, each a new version that sync hands out', async () => {
    const c = await signedIn(harness.app, 'Remy');
    const task = await c.create({ title: 'Taxes', type: 'task' });
    const set = await c.patch<Item>(`/api/items/${task.id}`, { remind_at: '2031-04-10T06:00:00.000Z' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ remind_at: '2031-04-10T06:00:00.000Z', version: 2, title: 'Taxes' });
    // The same instant written another way changes nothing.
    const same = await c.patch<Item>(`/api/items/${task.id}`, { remind_at: '2031-04-10T08:00:00+02:00' });
    expect(same.body.version).toBe(2);
    const moved = await c.update(task.id, { remind_at: '2031-04-11T06:00:00Z' });
    expect(moved).toMatchObject({ remind_at: '2031-04-11T06:00:00.000Z', version: 3 });
    const pulled = await pullAll(c, harness.app.database);
    const synced = pulled.items.find((i) => i.id === task.id) as Item;
    expect(synced.remind_at).toBe('2031-04-11T06:00:00.000Z');
    const cleared = await c.update(task.id, { remind_at: null });
    expect(cleared.remind_at).toBeNull();
    expect((await c.update(task.id, { remind_at: '2031-04-12T06:00:00Z' })).remind_at).not.toBeNull();
    expect((await c.update(task.id, { remind_at: '' })).remind_at).toBeNull();
  });

  it('gives a todo a due date and a reminder after creation', async () => {
    const c = await signedIn(harness.app, 'Remy');
    const todo = await c.create({ title: 'Buy paint', type: 'todo' });
    const edited = await c.update(todo.id, { due_date: '2031-06-01', remind_at: '2031-05-31T17:00:00Z' });
    expect(edited).toMatchObject({ due_date: '2031-06-01', remind_at: '2031-05-31T17:00:00.000Z' });
  });

  it('refuses a reminder that is not an instant with a 422 naming remind_at', async () => {
    const c = await signedIn(harness.app, 'Remy');
    const item = await c.create({ title: 'Dentist', type: 'todo' });
    for (const bad of ['tomorrow', '2031-05-01', '2031-05-01T09:30', '2031-13-01T09:30:00Z', 12, true]) {
      const patched = await c.patch<ErrorBody>(`/api/items/${item.id}`, { remind_at: bad });
      expect(patched.status, String(bad)).toBe(422);
      expect(patched.body.errors?.remind_at?.[0]).toBeTruthy();
      const created = await c.post<ErrorBody>('/api/items', { title: 'x', type: 'todo', remind_at: bad });
      expect(created.status, String(bad)).toBe(422);
      expect(created.body.errors).toHaveProperty('remind_at');
    }
    expect((await c.item(item.id)).remind_at).toBeNull();
  });
  it('refuses a remind_at on 30 February or at 24:00, and a due_date on 30 February, with a 422 field error (F11)', async () => {
    const c = await signedIn(harness.app, 'Remy');
    const item = await c.create({ title: 'Leap', type: 'todo' });
    for (const bad of ['2027-02-30T10:00:00Z', '2027-02-28T24:00:00Z']) {
      const created = await c.post<ErrorBody>('/api/items', { title: 'x', type: 'todo', remind_at: bad });
      expect(created.status, bad).toBe(422);
      expect(created.body.errors?.remind_at?.[0], bad).toEqual(expect.any(String));
      const patched = await c.patch<ErrorBody>(`/api/items/${item.id}`, { remind_at: bad });
      expect(patched.status, bad).toBe(422);
      expect(patched.body.errors?.remind_at?.[0], bad).toEqual(expect.any(String));
    }
    for (const field of ['due_date', 'end_date']) {
      const patched = await c.patch<ErrorBody>(`/api/items/${item.id}`, { [field]: '2027-02-30' });
      expect(patched.status, field).toBe(422);
      expect(patched.body.errors?.[field]?.[0], field).toEqual(expect.any(String));
    }
    expect(await c.item(item.id)).toMatchObject({
      remind_at: null,
      due_date: null,
      end_date: null,
      version: 1,
    });
  });
});
