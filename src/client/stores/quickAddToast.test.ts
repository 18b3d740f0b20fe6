import { describe, expect, it } from 'vitest';
import { announceCreated, createdToast } from './quickAddToast';
import { createToastStore } from './toastStore';

describe('quick-add toasts', () => {
  it("says the spec's text for each type", () => {
    expect(createdToast('todo')).toEqual({
      title: 'Item created',
      description: 'Your todo has been created successfully.',
    });
    expect(createdToast('campaign').description).toBe('Your campaign has been created successfully.');
  });

  it("replaces the one toast in place, keeping the spec's text, instead of queueing one per todo", () => {
    const store = createToastStore();
    const first = announceCreated(store, 'todo');
    const second = announceCreated(store, 'todo');
    const third = announceCreated(store, 'task');
    expect(second).toBe(first);
    expect(third).toBe(first);
    const { queue } = store.getState();
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({
      id: first,
      title: 'Item created',
      description: 'Your task has been created successfully.',
      revision: 2,
    });
  });

  it('shows a fresh toast once the last one is gone', () => {
    const store = createToastStore();
    const first = announceCreated(store, 'todo');
    store.getState().dismiss(first);
    announceCreated(store, 'todo');
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
