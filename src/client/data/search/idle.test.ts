import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LOCAL_WRITE_QUIET_MS, trackLocalWrite } from '../store/writesInFlight';
import { whenIdle } from './idle';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A write under way until its `settle` is called. */
function writeUnderWay(): () => Promise<void> {
  let settle: () => void = () => {};
  const written = new Promise<void>((resolve) => {
    settle = resolve;
  });
  trackLocalWrite({}, written);
  return async () => {
    settle();
    // The tracker hears it settle a few microtasks on.
    await vi.advanceTimersByTimeAsync(0);
  };
}

it('W14: an idle task starts no slice while a local write is under way, nor until it has settled 20 ms', async () => {
  const settle = writeUnderWay();
  const run = vi.fn();
  whenIdle(run, 10);
  await vi.advanceTimersByTimeAsync(500);
  expect(run).not.toHaveBeenCalled();
  await settle();
  await vi.advanceTimersByTimeAsync(LOCAL_WRITE_QUIET_MS - 5);
  expect(run).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(10);
  expect(run).toHaveBeenCalledTimes(1);
  expect(run).toHaveBeenCalledWith(10);
});

it('W14: with no local write about, an idle task runs at the first idle moment', async () => {
  // Past the writes of the tests before (each test's fake clock starts again from its own zero).
  await vi.advanceTimersByTimeAsync(5000);
  const run = vi.fn();
  whenIdle(run, 10);
  await vi.advanceTimersByTimeAsync(0);
  expect(run).toHaveBeenCalledTimes(1);
});

it('W14: a page that never stops writing still runs its idle task, 2 s on', async () => {
  const settle = writeUnderWay();
  const run = vi.fn();
  whenIdle(run, 10);
  await vi.advanceTimersByTimeAsync(1900);
  expect(run).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(200);
  expect(run).toHaveBeenCalledTimes(1);
  await settle();
});
