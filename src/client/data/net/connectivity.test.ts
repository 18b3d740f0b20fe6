import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENTS_BACKOFF, eventsBackoff, serverChanges } from './connectivity';

/** A stand-in EventSource the test opens, fails and feeds by hand. */
class FakeSource {
  static all: FakeSource[] = [];
  closed = false;
  private readonly listeners = new Map<string, (() => void)[]>();
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, cb: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), cb]);
  }
  close() {
    this.closed = true;
  }
  fire(type: string) {
    for (const cb of this.listeners.get(type) ?? []) cb();
  }
}

const latest = () => FakeSource.all[FakeSource.all.length - 1]!;

function harness(initiallyWanted = true) {
  let wanted = initiallyWanted;
  const listeners = new Set<() => void>();
  const changes = vi.fn();
  const stop = serverChanges({
    baseUrl: 'http://server',
    wanted: () => wanted,
    onWantedChange: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    random: () => 1,
    EventSource: FakeSource as unknown as typeof EventSource,
  })(changes);
  const setWanted = (next: boolean) => {
    wanted = next;
    for (const cb of listeners) cb();
  };
  return { changes, stop, setWanted };
}

describe('the server change stream', () => {
  beforeEach(() => {
    FakeSource.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('pulls on each changed event, but not on the first open (the start-up sync runs then)', () => {
    const { changes, stop } = harness();
    expect(latest().url).toBe('http://server/api/events');
    latest().fire('open');
    expect(changes).not.toHaveBeenCalled();
    latest().fire('changed');
    latest().fire('changed');
    expect(changes).toHaveBeenCalledTimes(2);
    stop();
    expect(latest().closed).toBe(true);
  });

  it('reconnects with doubling backoff after failures and pulls once it is back', () => {
    const { changes } = harness();
    latest().fire('open');
    latest().fire('error');
    expect(latest().closed).toBe(true);
    expect(FakeSource.all).toHaveLength(1);
    vi.advanceTimersByTime(EVENTS_BACKOFF.firstMs);
    expect(FakeSource.all).toHaveLength(2);
    latest().fire('error');
    vi.advanceTimersByTime(EVENTS_BACKOFF.firstMs);
    expect(FakeSource.all).toHaveLength(2);
    vi.advanceTimersByTime(EVENTS_BACKOFF.firstMs);
    expect(FakeSource.all).toHaveLength(3);
    latest().fire('open');
    // Events sent while the stream was down are lost: the reconnect itself means "pull".
    expect(changes).toHaveBeenCalledTimes(1);
  });

  it('caps the backoff and spreads it with jitter', () => {
    expect(eventsBackoff(0, () => 1)).toBe(EVENTS_BACKOFF.firstMs);
    expect(eventsBackoff(0, () => 0)).toBe(EVENTS_BACKOFF.firstMs / 2);
    expect(eventsBackoff(50, () => 1)).toBe(EVENTS_BACKOFF.maxMs);
  });

  it('closes while signed out or offline and opens at once when wanted again', () => {
    const { setWanted } = harness(false);
    expect(FakeSource.all).toHaveLength(0);
    setWanted(true);
    expect(FakeSource.all).toHaveLength(1);
    latest().fire('error');
    setWanted(false);
    vi.advanceTimersByTime(EVENTS_BACKOFF.maxMs);
    expect(FakeSource.all).toHaveLength(1);
    setWanted(true);
    expect(FakeSource.all).toHaveLength(2);
    setWanted(false);
    expect(latest().closed).toBe(true);
  });
});
