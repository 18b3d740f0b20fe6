import { describe, expect, it } from 'vitest';
import { MUTUALS_FRESH_MS, mutualsStale, type StoredMutuals } from './mutuals';

const stored: StoredMutuals = { userId: 7, fetchedAt: 1_000, list: [], version: 'abc' };

describe('when the stored mutual contacts are fetched again', () => {
  it('keeps a list younger than a minute, and fetches an older one', () => {
    expect(mutualsStale(stored, 7, { now: 1_000 + MUTUALS_FRESH_MS - 1 })).toBe(false);
    expect(mutualsStale(stored, 7, { now: 1_000 + MUTUALS_FRESH_MS })).toBe(true);
  });

  it("fetches when the list is another account's, missing, or asked for", () => {
    expect(mutualsStale(stored, 8, { now: 1_000 })).toBe(true);
    expect(mutualsStale(undefined, 7, { now: 1_000 })).toBe(true);
    expect(mutualsStale(stored, 7, { now: 1_000, force: true })).toBe(true);
  });

  it('E3: follows the version the event stream announces, however fresh the list is', () => {
    expect(mutualsStale(stored, 7, { now: 1_000, version: 'abc' })).toBe(false);
    expect(mutualsStale(stored, 7, { now: 1_000, version: 'def' })).toBe(true);
    // The stream's first word on a list fetched without one: fetched once, then kept.
    expect(mutualsStale({ ...stored, version: undefined }, 7, { now: 1_000, version: '' })).toBe(true);
    expect(mutualsStale(stored, 7, { now: 1_000 + 10 * MUTUALS_FRESH_MS, version: 'abc' })).toBe(false);
  });
});
