import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/**
 * The viewer's running timer and the spent minutes per item, as the one live read in the header
 * (TimeWatch) last saw them: every row reads its own slice here instead of opening a live query each.
 */
export interface RunningTimer {
  uuid: string;
  itemId: number;
  title: string;
  type: 'campaign' | 'task' | 'todo';
  startedAt: string;
}

interface TimerState {
  running: RunningTimer | null;
  spent: ReadonlyMap<number, number>;
}

export const timerStore = createStore<TimerState>()(() => ({ running: null, spent: new Map() }));

/** The running timer when it is on `itemId`, else null. */
export function useRunningOn(itemId: number): RunningTimer | null {
  return useStore(timerStore, (s) => (s.running?.itemId === itemId ? s.running : null));
}

/** The viewer's running timer, if any. */
export function useRunningTimer(): RunningTimer | null {
  return useStore(timerStore, (s) => s.running);
}

/** Minutes spent on an item and everything under it, on this device (X11). */
export function useSpentOn(itemId: number): number {
  return useStore(timerStore, (s) => s.spent.get(itemId) ?? 0);
}
