import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import {
  type Announcement,
  NOTIFY_PAYLOAD_MAX_BYTES,
  notifyPayloads,
  parseNotifyPayload,
  TopicIndex,
} from '../../shared/fanout';
import { SIGN_OUT_REASONS, type SignOutReason } from '../../shared/serverEvents';
import { type Executor, pipelined, prepared, rows, sql } from '../db/client';
import type { WriteEffect } from '../http/idempotency';
import { departedFrom } from '../items/queries';

const CHANNEL = 'outpost_changes';
/** Where instances tell each other of ended sessions (E7). */
const SESSIONS_CHANNEL = 'outpost_sessions';

/** Sessions that ended, and why: what every instance hears so their streams close at once (E7). */
export type SessionsEndedListener = (sessionIds: readonly string[], reason: SignOutReason) => void;

/** A session's key as the sessions table holds it: a token's SHA-256 in hex. */
const SESSION_ID = /^[0-9a-f]{64}$/;
const REASONS = new Set<string>(Object.values(SIGN_OUT_REASONS));

/** E7: ended sessions as NOTIFY payloads under PostgreSQL's limit, `{"r":reason,"s":[ids]}`, each id once. */
export function sessionEndPayloads(sessionIds: readonly string[], reason: SignOutReason): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  const text = (ids: string[]) => JSON.stringify({ r: reason, s: ids });
  for (const id of new Set(sessionIds)) {
    if (batch.length > 0 && Buffer.byteLength(text([...batch, id])) > NOTIFY_PAYLOAD_MAX_BYTES) {
      payloads.push(text(batch));
      batch = [];
    }
    batch.push(id);
  }
  if (batch.length > 0) payloads.push(text(batch));
  return payloads;
}

/** The sessions and reason of a payload another instance sent, or null for one we did not write. */
export function parseSessionEndPayload(payload: string): { ids: string[]; reason: SignOutReason } | null {
  try {
    const { r, s } = JSON.parse(payload) as { r?: unknown; s?: unknown };
    if (typeof r !== 'string' || !REASONS.has(r) || !Array.isArray(s)) return null;
    const ids = s.filter((id): id is string => typeof id === 'string' && SESSION_ID.test(id));
    return ids.length === s.length ? { ids, reason: r as SignOutReason } : null;
  } catch {
    return null;
  }
}

/**
 * A stream's listener: `direct` is true when its user was named in the announcement (a creator, an
 * assignee, a notification's recipient, a contacts import) rather than reached as a member of a shared
 * campaign (SYNC.md E4).
 */
export type ChangeListener = (direct: boolean) => void;

/** The members of shared campaigns, read once per announcement on each instance (E4). */
export type MembersOf = (campaignIds: readonly number[]) => Promise<number[]>;

/** Tells every connected session of a user that something they can see changed. */
export interface ChangeBus {
  /** Inside the writing transaction: announce the users who see what it changed. */
  announce(tx: Executor, userIds: readonly number[]): Promise<void>;
  /**
   * After the commit (in-process buses deliver here; PostgreSQL delivers NOTIFY on commit): the users
   * told by id and the shared campaigns whose every member is told.
   */
  committed(userIds: readonly number[], campaignIds?: readonly number[]): void;
  subscribe(userId: number, listener: ChangeListener): () => void;
  /** Every delivered change, for caches; `null` means "anything may have changed" (a lost feed). */
  onChange(listener: (userIds: readonly number[] | null) => void): void;
  /**
   * E7: sessions ended on this instance; every instance's listeners hear it (this one's at once), so
   * their streams close with the reason. Resolves once the others have been told.
   */
  sessionsEnded(sessionIds: readonly string[], reason: SignOutReason): Promise<void>;
  /** Ended sessions, wherever they ended (app.ts tells the session cache). */
  onSessionsEnded(listener: SessionsEndedListener): void;
  /** How campaign announcements become members (app.ts sets it; without it they reach nobody). */
  resolveMembersWith(membersOf: MembersOf): void;
  /** False while changes from other instances may go unseen. */
  isLive(): boolean;
  /** Connections listening on this instance, for tests and benchmarks. */
  listenerCount(): number;
  close(): Promise<void>;
}

/**
 * In-memory fan-out of one instance (E4): listeners by user in a topic index, so an announcement
 * costs one lookup per user it names and one membership read per announcement that names campaigns,
 * never a pass over the open streams. Announcements are delivered in the order they arrive; caches
 * hear of a change before any stream does, so the pull a stream's event starts never meets a cached
 * answer from before the change.
 */
class LocalFanOut {
  private readonly index = new TopicIndex<number, ChangeListener>();
  readonly watchers: ((userIds: readonly number[] | null) => void)[] = [];
  readonly sessionWatchers: SessionsEndedListener[] = [];
  membersOf: MembersOf | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Caches of this instance learn of `userIds` now, before the announcement's turn comes. */
  tellCaches(userIds: readonly number[]) {
    if (userIds.length > 0) for (const watch of this.watchers) watch(userIds);
  }

  deliver(announcement: Announcement) {
    this.queue = this.queue.then(() => this.deliverNow(announcement)).catch(this.onError);
  }

  private async deliverNow({ users, campaigns }: Announcement) {
    let members: number[] = [];
    if (campaigns.length > 0 && this.membersOf) {
      try {
        members = await this.membersOf(campaigns);
      } catch (error) {
        // The members are unknown: every stream reads again rather than one missing the change.
        this.onError(error);
        this.emitToAll();
        return;
      }
    }
    const direct = new Set(users);
    const everyone = members.length > 0 ? [...new Set([...users, ...members])] : [...direct];
    this.tellCaches(everyone);
    for (const id of everyone) {
      const isDirect = direct.has(id);
      for (const listener of this.index.readersOf([id])) listener(isDirect);
    }
  }

  /** Ended sessions: told at once, ahead of any announcement still queued, so no stream hears one more. */
  sessionsEnded(sessionIds: readonly string[], reason: SignOutReason) {
    if (sessionIds.length === 0) return;
    for (const watch of this.sessionWatchers) {
      try {
        watch(sessionIds, reason);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Every open stream hears `changed`: what it may have missed is unknown, so it reads again. */
  emitToAll() {
    for (const listener of this.index.readersOf([...this.index.topics()])) listener(true);
  }
  subscribe(userId: number, listener: ChangeListener) {
    return this.index.add(userId, listener);
  }
  count() {
    return this.index.size();
  }
}

const logError = (error: unknown) => console.error('change fan-out failed', error);

/** The embedded database serves one process, so fan-out stays in memory. */
export function createLocalChangeBus(onError: (error: unknown) => void = logError): ChangeBus {
  const fanOut = new LocalFanOut(onError);
  return {
    announce: async () => {},
    committed: (userIds, campaignIds = []) => {
      // Caches first and at once, so the writer reads its own write (as before campaigns were told apart).
      fanOut.tellCaches(userIds);
      fanOut.deliver({ users: userIds, campaigns: campaignIds });
    },
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    onChange: (listener) => void fanOut.watchers.push(listener),
    sessionsEnded: async (sessionIds, reason) => fanOut.sessionsEnded(sessionIds, reason),
    onSessionsEnded: (listener) => void fanOut.sessionWatchers.push(listener),
    resolveMembersWith: (membersOf) => {
      fanOut.membersOf = membersOf;
    },
    isLive: () => true,
    listenerCount: () => fanOut.count(),
    close: async () => {},
  };
}

/** How long an announcement waits for the pull horizon to pass its writes (E6). */
const HORIZON_WAIT_MS = 5_000;
const HORIZON_POLL_MS = 20;

/**
 * PostgreSQL fan-out between instances: every instance LISTENs on a dedicated connection,
 * reconnecting with backoff, and NOTIFYs after its writes commit. Not inside the write: NOTIFY in a
 * transaction takes a cluster-wide lock at commit, which would serialise every write behind the next
 * one's disk flush. Announcements of one moment are batched, split into payloads under PostgreSQL's
 * 8,000-byte limit (E5); one lost in a crash between commit and send costs latency only (clients
 * still poll, caches age out).
 */
export function createPgChangeBus(connectionString: string, onError: (error: unknown) => void): ChangeBus {
  const fanOut = new LocalFanOut(onError);
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
  const pendingUsers = new Set<number>();
  const pendingCampaigns = new Set<number>();
  let flushing: Promise<void> | null = null;
  /**
   * E6: waits until a pull can see what the batch announces. A pull returns rows below the oldest open
   * transaction of the whole cluster (L1); announced while an older transaction is still open, the
   * change was invisible to the pull it caused, and nothing pulled again until the 30 s poll. Every
   * write of the batch committed before this moment, so its id is below this snapshot's xmax: once
   * the horizon reaches that, every one of them is visible. The wait ends at close, and after
   * HORIZON_WAIT_MS the batch goes anyway (a transaction held open for minutes must not mute events).
   */
  const awaitHorizon = async () => {
    const deadline = Date.now() + HORIZON_WAIT_MS;
    let target: string | null = null;
    while (!closed) {
      const result = await notifier.query<{ xmin: string; xmax: string }>(
        'SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax FROM pg_current_snapshot() s',
      );
      const row = result.rows[0];
      if (!row) return;
      target ??= row.xmax;
      if (BigInt(row.xmin) >= BigInt(target) || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, HORIZON_POLL_MS));
    }
  };
  const flush = async () => {
    // Let the other writes of this moment join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (pendingUsers.size > 0 || pendingCampaigns.size > 0) {
      const payloads = notifyPayloads({ users: [...pendingUsers], campaigns: [...pendingCampaigns] });
      pendingUsers.clear();
      pendingCampaigns.clear();
      try {
        await awaitHorizon();
      } catch (error) {
        onError(error);
      }
      for (const payload of payloads) {
        try {
          await notifier.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
        } catch (error) {
          onError(error);
        }
      }
    }
    flushing = null;
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === SESSIONS_CHANNEL && message.payload) {
        const ended = parseSessionEndPayload(message.payload);
        if (ended) fanOut.sessionsEnded(ended.ids, ended.reason);
        return;
      }
      if (message.channel !== CHANNEL || !message.payload) return;
      // A payload we did not write is ignored.
      const announcement = parseNotifyPayload(message.payload);
      if (announcement) fanOut.deliver(announcement);
    });
    next.on('error', (error) => {
      onError(error);
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      await next.query(`LISTEN ${SESSIONS_CHANNEL}`);
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
    committed: (userIds, campaignIds = []) => {
      if (userIds.length === 0 && campaignIds.length === 0) return;
      fanOut.tellCaches(userIds);
      for (const id of userIds) pendingUsers.add(id);
      for (const id of campaignIds) pendingCampaigns.add(id);
      flushing ??= flush();
    },
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    onChange: (listener) => void fanOut.watchers.push(listener),
    // This instance's streams close at once; the others hear it through NOTIFY (its own echo finds
    // nothing left to close). Not behind the horizon wait: an ended session has nothing to pull, and
    // the announcements queued behind it must reach no stream of it. A failed send costs the others
    // only time: their streams still find the session gone when they next look it up.
    sessionsEnded: async (sessionIds, reason) => {
      fanOut.sessionsEnded(sessionIds, reason);
      for (const payload of sessionEndPayloads(sessionIds, reason)) {
        try {
          await notifier.query('SELECT pg_notify($1, $2)', [SESSIONS_CHANNEL, payload]);
        } catch (error) {
          onError(error);
        }
      }
    },
    onSessionsEnded: (listener) => void fanOut.sessionWatchers.push(listener),
    resolveMembersWith: (membersOf) => {
      fanOut.membersOf = membersOf;
    },
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

/** The members of `campaignIds`, each once: what a campaign announcement reaches (E4). */
export async function campaignMembers(db: Executor, campaignIds: readonly number[]): Promise<number[]> {
  if (campaignIds.length === 0) return [];
  const found = await rows<{ user_id: number }>(
    db,
    sql`SELECT DISTINCT user_id FROM campaign_members
        WHERE campaign_id = ANY(string_to_array(${campaignIds.join(',')}, ',')::int[])`,
  );
  return found.map((r) => r.user_id);
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

/**
 * Who must hear of what this transaction wrote (E4): by id, the creators and assignees of it and its
 * ancestors (those who did not depart from its campaign); by campaign, the shared campaigns it lies
 * in, whose members each instance reads once when the announcement arrives, rather than the writer
 * listing every member in its transaction and its NOTIFY.
 */
export async function viewersOfChanges(tx: Executor): Promise<Announcement> {
  const found = await rows<{ kind: 'u' | 'c'; id: number }>(tx, viewersOfChangesQuery());
  return {
    users: found.filter((r) => r.kind === 'u').map((r) => r.id),
    campaigns: found.filter((r) => r.kind === 'c').map((r) => r.id),
  };
}
// Every write runs it: built once (db/client.ts `prepared`).
const viewersOfChangesQuery = prepared(
  () =>
    sql`SELECT 'u' AS kind, x.viewer AS id FROM (
          SELECT DISTINCT v.viewer, COALESCE(g.id, p.id, i.id) AS top FROM items i
            LEFT JOIN items p ON p.id = i.parent_id
            LEFT JOIN items g ON g.id = p.parent_id
            CROSS JOIN LATERAL (VALUES (i.user_id), (i.assigned_to), (p.user_id), (p.assigned_to), (g.user_id), (g.assigned_to)) v(viewer)
            WHERE i.change_xid = pg_current_xact_id()::text::bigint AND v.viewer IS NOT NULL) x
          WHERE NOT ${departedFrom(sql`x.viewer`, sql`x.top`)}
        UNION
        SELECT 'c', t.top FROM (
          SELECT DISTINCT COALESCE(g.id, p.id, i.id) AS top FROM items i
            LEFT JOIN items p ON p.id = i.parent_id
            LEFT JOIN items g ON g.id = p.parent_id
            WHERE i.change_xid = pg_current_xact_id()::text::bigint) t
          WHERE EXISTS (SELECT 1 FROM campaign_members m WHERE m.campaign_id = t.top)`,
);

/**
 * The change bus as a write effect (registered by app.ts): every write tells the users who see what it
 * changed, the writer and `formerViewers` included; the bus delivers only what commits.
 */
export function changeBusEffect(changes: ChangeBus): WriteEffect {
  return ({ userId }) => {
    let viewers: number[] = [];
    let campaigns: readonly number[] = [];
    let formerViewers: number[] = [];
    let sharedWith: readonly number[] = [];
    /** On a pipelined connection: the viewers' read, sent with the record and the COMMIT behind it. */
    let found: Promise<Announcement> | null = null;
    // The writer too: its own reads must not meet a cached answer while its campaign's members are
    // still being looked up (E4).
    const told = (audience: Announcement) => {
      viewers = [...new Set([...audience.users, ...formerViewers, userId])];
      campaigns =
        sharedWith.length > 0 ? [...new Set([...audience.campaigns, ...sharedWith])] : audience.campaigns;
    };
    return {
      afterWrite: async (tx, result) => {
        formerViewers = result.formerViewers ?? [];
        sharedWith = result.campaigns ?? [];
        if (pipelined(tx)) {
          // Not waited for: it reads what this transaction wrote, whatever follows it. A failure aborts
          // the transaction, so its COMMIT rolls back and the record's failure is thrown (runRecorded).
          found = viewersOfChanges(tx);
          found.catch(() => undefined);
          return;
        }
        told(await viewersOfChanges(tx));
        await changes.announce(tx, viewers);
      },
      settled: async () => {
        if (found) told(await found);
      },
      committed: () => changes.committed(viewers, campaigns),
    };
  };
}
