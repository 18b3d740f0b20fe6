import { EventEmitter } from 'node:events';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { type Executor, prepared, rows, sql } from '../db/client';
import { departedFrom } from '../items/queries';

const CHANNEL = 'outpost_changes';

/** Tells every connected session of a user that something they can see changed. */
export interface ChangeBus {
  /** Inside the writing transaction: announce the users who see what it changed. */
  announce(tx: Executor, userIds: readonly number[]): Promise<void>;
  /** After the commit (in-process buses deliver here; PostgreSQL delivers NOTIFY on commit). */
  committed(userIds: readonly number[]): void;
  subscribe(userId: number, listener: () => void): () => void;
  /** Every delivered change, for caches; `null` means "anything may have changed" (a lost feed). */
  onChange(listener: (userIds: readonly number[] | null) => void): void;
  /** False while changes from other instances may go unseen. */
  isLive(): boolean;
  /** Connections listening on this instance, for tests and benchmarks. */
  listenerCount(): number;
  close(): Promise<void>;
}

class LocalFanOut {
  private readonly emitter = new EventEmitter();
  readonly watchers: ((userIds: readonly number[] | null) => void)[] = [];
  constructor() {
    // Thousands of open streams are normal; each is one listener on its user's key.
    this.emitter.setMaxListeners(0);
  }
  emit(userIds: readonly number[]) {
    for (const watch of this.watchers) watch(userIds);
    for (const id of new Set(userIds)) this.emitter.emit(String(id));
  }
  /** Every open stream hears `changed`: what it may have missed is unknown, so it reads again. */
  emitToAll() {
    for (const name of this.emitter.eventNames()) this.emitter.emit(name);
  }
  subscribe(userId: number, listener: () => void) {
    this.emitter.on(String(userId), listener);
    return () => {
      this.emitter.off(String(userId), listener);
    };
  }
  count() {
    return this.emitter.eventNames().reduce((n, name) => n + this.emitter.listenerCount(name), 0);
  }
}

/** The embedded database serves one process, so fan-out stays in memory. */
export function createLocalChangeBus(): ChangeBus {
  const fanOut = new LocalFanOut();
  return {
    announce: async () => {},
    committed: (userIds) => fanOut.emit(userIds),
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    onChange: (listener) => void fanOut.watchers.push(listener),
    isLive: () => true,
    listenerCount: () => fanOut.count(),
    close: async () => {},
  };
}

/**
 * PostgreSQL fan-out between instances: every instance LISTENs on a dedicated connection,
 * reconnecting with backoff, and NOTIFYs after its writes commit. Not inside the write: NOTIFY in a
 * transaction takes a cluster-wide lock at commit, which would serialise every write behind the next
 * one's disk flush. Notifications of one moment are batched into one NOTIFY; one lost in a crash
 * between commit and send costs latency only (clients still poll, caches age out).
 */
export function createPgChangeBus(connectionString: string, onError: (error: unknown) => void): ChangeBus {
  const fanOut = new LocalFanOut();
  let client: pg.Client | null = null;
  let closed = false;
  let delay = 250;
  let timer: NodeJS.Timeout | null = null;
  let listenedBefore = false;
  // A NOTIFY commits a transaction of its own (NOTIFY gives it a transaction id), and with the
  // default synchronous_commit that commit waits for a WAL flush while holding the cluster-wide
  // notify lock: one more disk flush per batch that the writes it announces never needed. Nothing
  // of it needs to survive a crash (a lost notification costs latency only, see above).
  const notifier = new pg.Pool({ connectionString, max: 1, options: '-c synchronous_commit=off' });
  notifier.on('error', onError);
  notifier.on('connect', (c) => c.on('error', () => {}));
  const pending = new Set<number>();
  let flushing: Promise<void> | null = null;
  const flush = async () => {
    // Let the other writes of this moment join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending.size > 0) {
      const ids = [...pending].slice(0, 1000);
      for (const id of ids) pending.delete(id);
      try {
        await notifier.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(ids)]);
      } catch (error) {
        onError(error);
      }
    }
    flushing = null;
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const ids = JSON.parse(message.payload) as unknown;
        if (Array.isArray(ids)) fanOut.emit(ids.filter((id): id is number => Number.isInteger(id)));
      } catch {
        // A payload we did not write: ignore it.
      }
    });
    next.on('error', (error) => {
      onError(error);
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
      delay = 250;
      // Whatever happened while we were not listening is unknown: caches start over, and after a
      // break (a PostgreSQL restart) every open stream is told to read again, or writes made in
      // the gap would never reach it (F10).
      for (const watch of fanOut.watchers) watch(null);
      if (listenedBefore) fanOut.emitToAll();
      listenedBefore = true;
    } catch (error) {
      onError(error);
      next.end().catch(() => {});
      retry();
    }
  };
  const retry = () => {
    if (closed || timer) return;
    client?.end().catch(() => {});
    client = null;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  };
  void connect();

  return {
    announce: async () => {},
    // Local caches learn of this instance's own writes at once, not when the NOTIFY echoes back,
    // so a client reads its own write; streams still get it through LISTEN like everyone else.
    committed: (userIds) => {
      if (userIds.length === 0) return;
      for (const watch of fanOut.watchers) watch(userIds);
      for (const id of userIds) pending.add(id);
      flushing ??= flush();
    },
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    onChange: (listener) => void fanOut.watchers.push(listener),
    isLive: () => client !== null,
    listenerCount: () => fanOut.count(),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await flushing;
      await notifier.end().catch(() => {});
      await client?.end().catch(() => {});
    },
  };
}

/**
 * Creators and assignees of the matching items (alias i) and of their ancestors, and the members of
 * the shared campaign they lie in (SYNC.md M6: a change in a shared campaign reaches every member).
 * This is visibleTo as a set (M10): a creator or assignee of the item or an ancestor sees it unless
 * they departed from its campaign (then only a member row would let them, and members are the second
 * half), so the first half drops the departed, one probe per distinct (person, campaign) pair rather
 * than visibleTo per person and item (5× the whole query on a 5,000-item write on PGlite). The M10
 * tests check it against seersAmong, the rule itself.
 */
async function viewersWhere(tx: Executor, where: SQL): Promise<number[]> {
  const found = await rows<{ viewer: number }>(tx, viewersQuery(where));
  return found.map((r) => r.viewer);
}
const viewersQuery = (where: SQL) =>
  sql`SELECT x.viewer FROM (
        SELECT DISTINCT v.viewer, COALESCE(g.id, p.id, i.id) AS top FROM items i
          LEFT JOIN items p ON p.id = i.parent_id
          LEFT JOIN items g ON g.id = p.parent_id
          CROSS JOIN LATERAL (VALUES (i.user_id), (i.assigned_to), (p.user_id), (p.assigned_to), (g.user_id), (g.assigned_to)) v(viewer)
          WHERE ${where} AND v.viewer IS NOT NULL) x
        WHERE NOT ${departedFrom(sql`x.viewer`, sql`x.top`)}
      UNION
      SELECT m.user_id FROM items i
        LEFT JOIN items p ON p.id = i.parent_id
        LEFT JOIN items g ON g.id = p.parent_id
        JOIN campaign_members m ON m.campaign_id = COALESCE(g.id, p.id, i.id)
        WHERE ${where}`;

/** Everyone who sees one item now: its creator and assignee, those of its ancestors, and its campaign's members. */
export function viewersOfItem(tx: Executor, id: number): Promise<number[]> {
  return viewersWhere(tx, sql`i.id = ${id}`);
}

/** Everyone who sees an item this transaction wrote: creators and assignees of it and its ancestors. */
export async function viewersOfChanges(tx: Executor): Promise<number[]> {
  const found = await rows<{ viewer: number }>(tx, viewersOfChangesQuery());
  return found.map((r) => r.viewer);
}
// Every write runs it: built once (db/client.ts `prepared`).
const viewersOfChangesQuery = prepared(() =>
  viewersQuery(sql`i.change_xid = pg_current_xact_id()::text::bigint`),
);
