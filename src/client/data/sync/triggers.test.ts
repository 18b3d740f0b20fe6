import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEchoGate } from './triggers';

describe('the own-echo rule', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('E1: events during and right after an own push run make one pull at the end of the window; none is dropped', () => {
    const pull = vi.fn();
    const gate = createEchoGate({ pull, windowMs: 400, now: () => Date.now() });
    gate.pushStarted();
    gate.changed();
    gate.changed();
    expect(pull).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    gate.pushEnded(true);
    gate.changed();
    vi.advanceTimersByTime(399);
    expect(pull).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(pull).toHaveBeenCalledTimes(1);
    // Outside the window an event pulls at once.
    gate.changed();
    expect(pull).toHaveBeenCalledTimes(2);
  });

  it('E1: a push run that sent nothing has no echo: an event waiting on it pulls when the run ends', () => {
    const pull = vi.fn();
    const gate = createEchoGate({ pull, windowMs: 400, now: () => Date.now() });
    gate.pushStarted();
    gate.changed();
    gate.pushEnded(false);
    vi.advanceTimersByTime(0);
    expect(pull).toHaveBeenCalledTimes(1);
    gate.stop();
  });
});
