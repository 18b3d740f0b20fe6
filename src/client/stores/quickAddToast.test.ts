import { describe, expect, it } from 'vitest';
import { announceCreated, createdToast, foldCreated, QUICK_ADD_WINDOW_MS } from './quickAddToast';
import { createToastStore } from './toastStore';

describe('quick-add toasts', () => {
  it('keeps the spec text for a single item', () => {
    expect(createdToast(foldCreated(null, 'todo', 0))).toEqual({
      title: 'Item created',
      description: 'Your todo has been created successfully.',
    });
  });

  it('folds quick-adds within the window and starts again after it', () => {
    let batch = foldCreated(null, 'todo', 0);
    batch = foldCreated(batch, 'todo', 1000);
    batch = foldCreated(batch, 'todo', 1000 + QUICK_ADD_WINDOW_MS);
    expect(batch.count).toBe(3);
    expect(createdToast(batch).title).toBe('3 todos created');
    expect(createdToast(batch).description).toBe('Your todos have been created successfully.');
    expect(foldCreated(batch, 'todo', 2001 + 2 * QUICK_ADD_WINDOW_MS).count).toBe(1);
  });

  it('says items when the types mix', () => {
    const batch = foldCreated(foldCreated(null, 'todo', 0), 'task', 10);
    expect(createdToast(batch).title).toBe('2 items created');
  });

  it('updates the one toast in place instead of queueing one per todo', () => {
    const store = createToastStore();
    const first = announceCreated(store, 'todo', 0);
    const second = announceCreated(store, 'todo', 500);
    const third = announceCreated(store, 'todo', 900);
    expect(second).toBe(first);
    expect(third).toBe(first);
    const { queue } = store.getState();
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ id: first, title: '3 todos created', revision: 2 });
  });

  it('starts a new count once the toast is gone', () => {
    const store = createToastStore();
    const first = announceCreated(store, 'todo', 0);
    announceCreated(store, 'todo', 100);
    store.getState().dismiss(first);
    announceCreated(store, 'todo', 200);
    expect(store.getState().queue).toHaveLength(1);
    expect(store.getState().queue[0]).toMatchObject({ title: 'Item created', revision: 0 });
  });

  it('leaves unkeyed toasts alone', () => {
    const store = createToastStore();
    store.getState().push({ title: 'A' });
    store.getState().push({ title: 'B' });
    expect(store.getState().queue.map((t) => t.title)).toEqual(['A', 'B']);
  });
});
