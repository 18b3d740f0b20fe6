import { describe, expect, it } from 'vitest';
import { loadConfig } from '../env';
import { AnonymousWriteLimit } from './anonymousWrites';
import { HttpError } from './errors';

function refusal(run: () => void): HttpError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

describe('AnonymousWriteLimit', () => {
  it('lets an address through until it has `max` refused writes in the window, then answers 429', () => {
    let now = 1_000_000;
    const limit = new AnonymousWriteLimit(2, () => now);
    expect(refusal(() => limit.check('10.0.0.1'))).toBeNull();
    limit.refused('10.0.0.1');
    limit.refused('10.0.0.1');
    now += 15_000;
    const error = refusal(() => limit.check('10.0.0.1'));
    expect(error?.statusCode).toBe(429);
    expect(error?.headers).toEqual({ 'Retry-After': '45' });
    expect(error?.message).toMatch(/wait 45 seconds/);
    // Another address has its own budget.
    expect(refusal(() => limit.check('10.0.0.2'))).toBeNull();
  });

  it('starts afresh when the minute is over', () => {
    let now = 0;
    const limit = new AnonymousWriteLimit(1, () => now);
    limit.refused('a');
    expect(refusal(() => limit.check('a'))?.statusCode).toBe(429);
    now += 59_999;
    expect(refusal(() => limit.check('a'))?.headers).toEqual({ 'Retry-After': '1' });
    now += 1;
    expect(refusal(() => limit.check('a'))).toBeNull();
  });

  it('keeps its memory bounded under a flood of addresses', () => {
    let now = 0;
    const limit = new AnonymousWriteLimit(1, () => now);
    for (let i = 0; i < 10_000; i++) limit.refused(`old-${i}`);
    now += 60_000;
    limit.refused('new');
    expect(refusal(() => limit.check('old-1'))).toBeNull();
    expect(refusal(() => limit.check('new'))?.statusCode).toBe(429);
  });
});

describe('RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE', () => {
  it('is 120 by default, 0 turns it off, and anything else but a whole number stops start-up', () => {
    expect(loadConfig({}).anonymousWritesPerMinute).toBe(120);
    expect(loadConfig({ RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '0' }).anonymousWritesPerMinute).toBe(0);
    expect(loadConfig({ RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '300' }).anonymousWritesPerMinute).toBe(300);
    expect(() => loadConfig({ RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: 'lots' })).toThrow(
      /RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: must be a number/,
    );
    expect(() => loadConfig({ RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE: '-1' })).toThrow(
      /RATE_LIMIT_ANONYMOUS_WRITES_PER_MINUTE/,
    );
  });
});
