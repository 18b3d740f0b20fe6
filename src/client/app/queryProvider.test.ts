import { describe, expect, it, vi } from 'vitest';
import { holdDataChanges, onDataChange } from './queryProvider';

type State = { pendingCount: number; lastSyncAt: string | null };

/** A sync status store as the door hands it over: subscribers hear the new and the previous state. */
function fakeStatus() {
  let state: State = { pendingCount: 0, lastSyncAt: null };
  const listeners = new Set<(s: State, p: State) => void>();
  return {
    subscribe: (l: (s: State, p: State) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    set: (next: Partial<State>) => {
      const prev = state;
      state = { ...state, ...next };
      for (const l of listeners) l(state, prev);
    },
  };
}

describe('the data change signal', () => {
  it('stays quiet while an import holds it, however many writes it makes', async () => {
    vi.useFakeTimers();
    const status = fakeStatus();
    const heard = vi.fn();
    const off = onDataChange({ syncStatus: status } as never, heard, 150);
    const release = holdDataChanges();
    for (let n = 1; n <= 500; n++) {
      status.set({ pendingCount: n });
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(heard).not.toHaveBeenCalled();
    release();
    status.set({ pendingCount: 0 });
    await vi.advanceTimersByTimeAsync(200);
    expect(heard).toHaveBeenCalledTimes(1);
    off();
    vi.useRealTimers();
  });
});
