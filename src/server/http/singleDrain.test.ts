import { describe, expect, it } from 'vitest';
import { SingleDrain } from './singleDrain';

/** A drain whose runs finish when the test says, counting how many started and overlapped. */
function controlledDrain() {
  const finishers: (() => void)[] = [];
  const state = { started: 0, active: 0, mostAtOnce: 0 };
  const drain = () => {
    state.started++;
    state.active++;
    state.mostAtOnce = Math.max(state.mostAtOnce, state.active);
    return new Promise<void>((resolve) =>
      finishers.push(() => {
        state.active--;
        resolve();
      }),
    );
  };
  const finishNext = async () => {
    finishers.shift()?.();
    // Let the finally and a re-run settle.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { drain, state, finishNext };
}

describe('SingleDrain', () => {
  it('runs one drain at a time, and wake-ups while it drains make exactly one more', async () => {
    const { drain, state, finishNext } = controlledDrain();
    let idle = 0;
    const loop: SingleDrain = new SingleDrain(drain, {
      failed: () => {},
      rerun: () => loop.run(),
      idle: () => idle++,
    });
    loop.run();
    loop.run();
    loop.run();
    loop.run();
    expect(state.started).toBe(1);
    await finishNext();
    expect(state.started).toBe(2);
    expect(idle).toBe(0);
    await finishNext();
    expect(state.started).toBe(2);
    expect(state.mostAtOnce).toBe(1);
    expect(idle).toBe(1);
    expect(loop.current).toBeNull();
  });

  it('hands a failed drain to its outbox and still runs the one asked for meanwhile', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let release: () => void = () => {};
    const loop: SingleDrain = new SingleDrain(
      () => {
        calls++;
        if (calls === 1) return new Promise<void>((_, reject) => (release = () => reject(new Error('down'))));
        return Promise.resolve();
      },
      { failed: (error) => errors.push(error), rerun: () => loop.run() },
    );
    loop.run();
    loop.run();
    release();
    for (let i = 0; i < 8; i++) await Promise.resolve();
    expect(errors.map((e) => (e as Error).message)).toEqual(['down']);
    expect(calls).toBe(2);
  });
});
