/**
 * The pure half of live fan-out (SYNC.md E4, E5): which open streams a change reaches, and how an
 * announcement travels between instances in PostgreSQL NOTIFY payloads.
 */

/**
 * The longest NOTIFY payload PostgreSQL takes, in bytes: "shorter than 8000 bytes" (a payload of
 * 8,000 bytes fails with "payload string too long").
 */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7999;

/** What one commit announces: users told by id, and shared campaigns whose every member is told. */
export interface Announcement {
  users: readonly number[];
  campaigns: readonly number[];
}

/**
 * Subscribers by topic, for in-memory fan-out: delivering to a set of topics costs one map lookup per
 * topic, whatever the number of subscribers of other topics. An emptied topic is dropped.
 */
export class TopicIndex<T, S> {
  private readonly byTopic = new Map<T, Set<S>>();
  private subscriptions = 0;

  /** Adds `subscriber` to `topic`; the returned function takes it out again (once). */
  add(topic: T, subscriber: S): () => void {
    let set = this.byTopic.get(topic);
    if (!set) {
      set = new Set();
      this.byTopic.set(topic, set);
    }
    if (!set.has(subscriber)) {
      set.add(subscriber);
      this.subscriptions += 1;
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.remove(topic, subscriber);
    };
  }

  remove(topic: T, subscriber: S): void {
    const set = this.byTopic.get(topic);
    if (!set?.delete(subscriber)) return;
    this.subscriptions -= 1;
    if (set.size === 0) this.byTopic.delete(topic);
  }

  /** Every subscriber of any of `topics`, each once. */
  readersOf(topics: Iterable<T>): Set<S> {
    const found = new Set<S>();
    for (const topic of topics) {
      const set = this.byTopic.get(topic);
      if (set) for (const subscriber of set) found.add(subscriber);
    }
    return found;
  }

  has(topic: T): boolean {
    return this.byTopic.has(topic);
  }

  /** Topics with at least one subscriber. */
  topics(): IterableIterator<T> {
    return this.byTopic.keys();
  }

  /** Subscriptions over all topics. */
  size(): number {
    return this.subscriptions;
  }
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * `ids` packed into as few texts `${open}${ids joined by ','}${close}` as fit `maxBytes` each, in
 * order; none when there are no ids. Throws when not even one id fits.
 */
function pack(ids: readonly number[], open: string, close: string, maxBytes: number): string[] {
  const out: string[] = [];
  const frame = utf8Bytes(open) + utf8Bytes(close);
  let part: string[] = [];
  let bytes = frame;
  for (const id of ids) {
    const text = String(id);
    const extra = text.length + (part.length > 0 ? 1 : 0);
    if (bytes + extra > maxBytes && part.length > 0) {
      out.push(`${open}${part.join(',')}${close}`);
      part = [];
      bytes = frame;
    }
    const cost = text.length + (part.length > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) throw new Error(`an id does not fit a payload of ${maxBytes} bytes`);
    part.push(text);
    bytes += cost;
  }
  if (part.length > 0) out.push(`${open}${part.join(',')}${close}`);
  return out;
}

/**
 * The NOTIFY payloads of an announcement, each at most `maxBytes` bytes (E5): users as a JSON array
 * (the shape instances have always read), campaigns as `{"c":[…]}`. Duplicates are dropped.
 */
export function notifyPayloads(
  announcement: Announcement,
  maxBytes: number = NOTIFY_PAYLOAD_MAX_BYTES,
): string[] {
  const users = [...new Set(announcement.users)];
  const campaigns = [...new Set(announcement.campaigns)];
  return [...pack(users, '[', ']', maxBytes), ...pack(campaigns, '{"c":[', ']}', maxBytes)];
}

const wholeIds = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : [];

/** The announcement one payload carries, or null for a payload we did not write. */
export function parseNotifyPayload(payload: string): Announcement | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (Array.isArray(value)) return { users: wholeIds(value), campaigns: [] };
  if (value && typeof value === 'object' && 'c' in value)
    return { users: [], campaigns: wholeIds((value as { c: unknown }).c) };
  return null;
}
