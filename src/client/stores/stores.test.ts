import { describe, expect, it } from 'vitest';
import { badgeLabel, badgeVisible, createSyncStatusStore } from './syncStatusStore';
import { createToastStore, TOAST_DURATION_MS } from './toastStore';

describe('connectivity badge', () => {
  it('reads Offline, Syncing..., Online (N pending) or Online', () => {
    expect(badgeLabel({ online: false, syncing: true, pendingCount: 2 })).toBe('Offline');
    expect(badgeLabel({ online: true, syncing: true, pendingCount: 2 })).toBe('Syncing...');
    expect(badgeLabel({ online: true, syncing: false, pendingCount: 2 })).toBe('Online (2 pending)');
    expect(badgeLabel({ online: true, syncing: false, pendingCount: 0 })).toBe('Online');
  });

  it('shows for 3 seconds after a connectivity change, and stays while offline or changes wait', () => {
    const store = createSyncStatusStore(true);
    expect(badgeVisible(store.getState(), 1000)).toBe(false);
    store.getState().setOnline(false, 1000);
    expect(badgeVisible(store.getState(), 99_999)).toBe(true);
    store.getState().setOnline(true, 2000);
    expect(badgeVisible(store.getState(), 4999)).toBe(true);
    expect(badgeVisible(store.getState(), 5000)).toBe(false);
    store.getState().set({ pendingCount: 1 });
    expect(badgeVisible(store.getState(), 60_000)).toBe(true);
  });

  it('does not restart the 3 seconds when connectivity did not change', () => {
    const store = createSyncStatusStore(true);
    store.getState().setOnline(true, 5000);
    expect(store.getState().changedAt).toBeNull();
  });
});

describe('toasts', () => {
  it('shows one toast at a time, the next after the first is dismissed', () => {
    const store = createToastStore();
    const first = store
      .getState()
      .push({ title: 'Sync complete', description: 'Your items have been synchronized.' });
    store.getState().push({ title: 'Todo updated' });
    expect(store.getState().queue[0]).toMatchObject({ title: 'Sync complete', duration: TOAST_DURATION_MS });
    store.getState().dismiss(first);
    expect(store.getState().queue.map((t) => t.title)).toEqual(['Todo updated']);
  });

  it('carries an optional action', () => {
    const store = createToastStore();
    let clicked = false;
    store
      .getState()
      .push({ title: 'Change not synced', action: { label: 'Retry', onClick: () => (clicked = true) } });
    store.getState().queue[0]?.action?.onClick();
    expect(clicked).toBe(true);
  });
});
