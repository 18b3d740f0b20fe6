/**
 * Answers repeated reads from memory until a change event says the reader's view may have changed.
 *
 * Every committed write announces the users who see what it changed (events/changeBus.ts); each
 * announcement bumps that user's epoch here. An entry remembers the epoch read *before* its query
 * ran, so a change that commits while the query runs makes the entry stale from birth. When the
 * change feed itself is not trustworthy (the LISTEN connection is down) the cache steps aside, and
 * it is emptied whenever the feed comes back. Entries also age out, as a bound on any surprise.
 */
export interface ReadStamp {
  epoch: number;
  generation: number;
}

interface Entry extends ReadStamp {
  userId: number;
  body: string;
  storedAt: number;
}

export class ReadCache {
  private readonly epochs = new Map<number, number>();
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  enabled = true;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** Where the user's view stands now; take it before reading the database. */
  stamp(userId: number): ReadStamp {
    return { epoch: this.epochs.get(userId) ?? 0, generation: this.generation };
  }

  /** The users whose view changed. */
  changed(userIds: Iterable<number>): void {
    for (const id of userIds) this.epochs.set(id, (this.epochs.get(id) ?? 0) + 1);
  }

  /** Forget everything (the change feed was interrupted, so epochs can't be trusted). */
  reset(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get(userId: number, key: string): string | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(`${userId}\u0000${key}`);
    if (!entry) return undefined;
    const current = this.stamp(userId);
    if (
      entry.epoch !== current.epoch ||
      entry.generation !== current.generation ||
      Date.now() - entry.storedAt > this.maxAgeMs
    ) {
      this.entries.delete(`${userId}\u0000${key}`);
      return undefined;
    }
    return entry.body;
  }

  set(userId: number, key: string, stamp: ReadStamp, body: string): void {
    if (!this.enabled) return;
    const current = this.stamp(userId);
    if (stamp.epoch !== current.epoch || stamp.generation !== current.generation) return;
    const fullKey = `${userId}\u0000${key}`;
    this.entries.delete(fullKey);
    this.entries.set(fullKey, { ...stamp, userId, body, storedAt: Date.now() });
    // Maps iterate in insertion order: the first key is the least recently stored.
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  size(): number {
    return this.entries.size;
  }
}

interface CacheHost {
  readCache: ReadCache;
  changes: { isLive(): boolean };
}

/**
 * Sends the cached JSON for (user, key) when it is still current; otherwise computes it, sends it
 * and keeps it. `keep` decides whether an answer may be cached at all.
 */
export async function sendCached<T>(
  host: CacheHost,
  reply: { type(contentType: string): { send(body: string): unknown } },
  userId: number,
  key: string,
  compute: () => Promise<T>,
  keep: (value: T) => boolean = () => true,
): Promise<unknown> {
  const live = host.changes.isLive();
  const hit = live ? host.readCache.get(userId, key) : undefined;
  if (hit !== undefined) return reply.type('application/json; charset=utf-8').send(hit);
  const stamp = host.readCache.stamp(userId);
  const value = await compute();
  const body = JSON.stringify(value);
  if (live && keep(value)) host.readCache.set(userId, key, stamp, body);
  return reply.type('application/json; charset=utf-8').send(body);
}
