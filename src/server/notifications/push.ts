import type { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { ItemType } from '../../shared/item';
import { itemRoute } from '../../shared/notifications';
import { type Executor, rows, sql } from '../db/client';
import { endpointProblem, publicOnlyLookup } from '../http/outboundUrl';
import { SingleDrain } from '../http/singleDrain';
import { outboxSignal } from './outboxSignal';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const SECRET_NAME = 'vapid_keys';

/** The VAPID pair: the environment's, else one generated once and shared by every instance. */
export async function loadVapidKeys(
  db: Executor,
  fromEnv: { vapidPublicKey: string | undefined; vapidPrivateKey: string | undefined },
): Promise<VapidKeys> {
  if (fromEnv.vapidPublicKey && fromEnv.vapidPrivateKey) {
    return { publicKey: fromEnv.vapidPublicKey, privateKey: fromEnv.vapidPrivateKey };
  }
  const fresh = webpush.generateVAPIDKeys();
  // Two instances starting together both generate; the first insert wins and both read it back.
  await db.execute(
    sql`INSERT INTO server_secrets (name, value) VALUES (${SECRET_NAME}, ${JSON.stringify(fresh)})
        ON CONFLICT (name) DO NOTHING`,
  );
  const [row] = await rows<{ value: string }>(
    db,
    sql`SELECT value FROM server_secrets WHERE name = ${SECRET_NAME}`,
  );
  return row ? (JSON.parse(row.value) as VapidKeys) : fresh;
}

export interface PushTarget {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  keys: VapidKeys;
  subject: string;
  allowLoopback: boolean;
  timeoutMs: number;
  maxConcurrent: number;
  maxPerEndpoint: number;
  retryBaseMs: number;
}

/** What a push service answered: its status (0 when unreachable or too slow) and any Retry-After. */
export interface PushAnswer {
  status: number;
  retryAfterMs: number | null;
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Sends one encrypted push (RFC 8291, aes128gcm) and answers the push service's status (0 when it
 * could not be reached or took longer than the timeout) with its Retry-After. Resolved addresses are
 * checked as the connection is made, so a name that resolves to an internal host is refused too.
 */
export async function sendPush(
  target: PushTarget,
  payload: string,
  options: Pick<PushOptions, 'keys' | 'subject' | 'allowLoopback' | 'timeoutMs'>,
): Promise<PushAnswer> {
  if (endpointProblem(target.endpoint, options.allowLoopback)) return { status: 0, retryAfterMs: null };
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    {
      vapidDetails: {
        subject: options.subject,
        publicKey: options.keys.publicKey,
        privateKey: options.keys.privateKey,
      },
      TTL: 24 * 60 * 60,
    },
  );
  const url = new URL(details.endpoint);
  const transport = url.protocol === 'http:' ? http : https;
  const guardedLookup = publicOnlyLookup(
    options.allowLoopback,
    'push endpoint resolves to a private address',
  );
  return new Promise<PushAnswer>((resolve) => {
    const request = transport.request(
      url,
      {
        method: details.method,
        headers: details.headers as http.OutgoingHttpHeaders,
        lookup: guardedLookup as unknown as typeof dnsLookup,
        timeout: options.timeoutMs,
      },
      (response) => {
        response.resume();
        resolve({
          status: response.statusCode ?? 0,
          retryAfterMs: retryAfterMs(response.headers['retry-after']),
        });
      },
    );
    // A hanging push service is abandoned, never waited for.
    const timer = setTimeout(() => request.destroy(new Error('push timed out')), options.timeoutMs);
    timer.unref();
    request.on('timeout', () => request.destroy(new Error('push timed out')));
    request.on('error', () => resolve({ status: 0, retryAfterMs: null }));
    request.on('close', () => clearTimeout(timer));
    request.end(details.body ?? undefined);
  });
}

interface Claimed {
  id: number;
  user_id: number;
  kind: string;
  text: string;
  item_id: number | null;
  item_type: string | null;
}

/** Entries older than this when the outbox is drained are not pushed: news that late is noise. */
const STALE_MS = 60 * 60 * 1000;

type Transactional = Executor & { transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> };

/** One push waiting to go out, and how many times it has been tried. */
interface Delivery {
  target: PushTarget;
  payload: string;
  options: PushOptions;
  attempt: number;
}

/** Tries per push: the first and two retries after a 429 or 5xx (F4). */
const MAX_ATTEMPTS = 3;
/** No retry waits longer than this, whatever Retry-After asks. */
const MAX_RETRY_WAIT_MS = 5 * 60 * 1000;
/** Pushes waiting for a free slot at most; past it the oldest are dropped (and logged). */
const MAX_WAITING = 10_000;

/**
 * Drains the push outbox after commits: claims unpushed entries (`FOR UPDATE SKIP LOCKED`, so with
 * several instances each entry is pushed by one of them) and sends them without anyone waiting.
 * A 404 or 410 from a push service deletes that subscription.
 */
export class PushOutbox {
  private readonly drains = new SingleDrain(() => this.drain(), {
    failed: (error) => {
      if (!this.stopped) this.log.warn({ err: error }, 'push outbox drain failed');
    },
    rerun: () => this.poke(true),
  });
  private sweepStale = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  // Pushes go out at most maxConcurrent at once and maxPerEndpoint to one endpoint (F4): 300
  // changes for someone with 20 subscriptions once opened 6,000 sockets together.
  private readonly waiting: Delivery[] = [];
  private active = 0;
  private readonly perEndpoint = new Map<string, number>();
  private readonly retries = new Set<ReturnType<typeof setTimeout>>();
  /** outboxSignal.writes when this outbox last drained for it. */
  private seenWrites = outboxSignal.writes;

  constructor(
    private readonly db: Transactional,
    private readonly options: () => Promise<PushOptions>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Asks for a drain soon when this process wrote entries to push (or always with `force`, the
   * periodic safety net for entries another instance left behind in a crash); calls during one
   * coalesce into one more.
   */
  poke(force = false): void {
    if (this.stopped) return;
    if (!force && outboxSignal.writes === this.seenWrites) return;
    this.seenWrites = outboxSignal.writes;
    if (force) this.sweepStale = true;
    this.drains.run();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const claimed = await rows<Claimed>(
        this.db,
        sql`UPDATE notifications n SET pushed_at = now()
            WHERE n.id IN (SELECT id FROM notifications WHERE pushed_at IS NULL
              ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED)
              AND n.created_at > now() - make_interval(secs => ${STALE_MS / 1000})
            RETURNING n.id, n.user_id, n.kind, n.text, n.item_id, n.item_type`,
      );
      if (this.sweepStale) {
        this.sweepStale = false;
        // Stale entries the statement above skipped are marked too, so the outbox never grows.
        await this.db.execute(
          sql`UPDATE notifications SET pushed_at = now() WHERE pushed_at IS NULL
              AND created_at <= now() - make_interval(secs => ${STALE_MS / 1000})`,
        );
      }
      if (claimed.length === 0) return;
      const users = sql.join(
        [...new Set(claimed.map((c) => c.user_id))].map((id) => sql`${id}`),
        sql`, `,
      );
      const targets = await rows<PushTarget & { user_id: number }>(
        this.db,
        sql`SELECT id, user_id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id IN (${users})`,
      );
      const itemIds = [...new Set(claimed.map((c) => c.item_id).filter((id): id is number => id !== null))];
      const routes = new Map<number, string>();
      if (itemIds.length > 0) {
        const found = await rows<{
          id: number;
          type: ItemType;
          p_id: number | null;
          p_type: ItemType | null;
        }>(
          this.db,
          sql`SELECT i.id, i.type, p.id AS p_id, p.type AS p_type FROM items i LEFT JOIN items p ON p.id = i.parent_id
              WHERE i.id IN (${sql.join(
                itemIds.map((id) => sql`${id}`),
                sql`, `,
              )})`,
        );
        for (const f of found)
          routes.set(
            f.id,
            itemRoute(f, f.p_id !== null && f.p_type !== null ? { id: f.p_id, type: f.p_type } : null),
          );
      }
      const options = await this.options();
      for (const entry of claimed) {
        const payload = JSON.stringify({
          id: entry.id,
          kind: entry.kind,
          title: entry.kind === 'due' ? 'Reminder' : 'Outpost',
          body: entry.text,
          url: (entry.item_id !== null ? routes.get(entry.item_id) : undefined) ?? '/notifications',
          // A reminder's tag matches the one the open app gives its own copy: shown once, not twice.
          tag: entry.kind === 'due' ? `due-${entry.item_id}` : `n-${entry.id}`,
        });
        for (const target of targets.filter((t) => t.user_id === entry.user_id))
          this.enqueue({ target, payload, options, attempt: 1 });
      }
      if (claimed.length < 100) return;
    }
  }

  private enqueue(delivery: Delivery): void {
    if (this.stopped) return;
    this.waiting.push(delivery);
    if (this.waiting.length > MAX_WAITING) {
      this.waiting.shift();
      this.log.warn('push queue full: the oldest waiting push was dropped');
    }
    this.pump();
  }

  /** Starts waiting pushes while slots are free, skipping (not blocking on) a busy endpoint. */
  private pump(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const delivery = this.waiting[i]!;
      if (this.active >= delivery.options.maxConcurrent) return;
      const endpoint = delivery.target.endpoint;
      const busy = this.perEndpoint.get(endpoint) ?? 0;
      if (busy >= delivery.options.maxPerEndpoint) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.active++;
      this.perEndpoint.set(endpoint, busy + 1);
      const sent = this.deliver(delivery).finally(() => {
        this.active--;
        const left = (this.perEndpoint.get(endpoint) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(endpoint, left);
        else this.perEndpoint.delete(endpoint);
        this.inFlight.delete(sent);
        this.pump();
      });
      this.inFlight.add(sent);
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { target, options } = delivery;
    const { status, retryAfterMs: asked } = await sendPush(target, delivery.payload, options);
    if (status === 404 || status === 410) {
      await this.db
        .execute(sql`DELETE FROM push_subscriptions WHERE id = ${target.id}`)
        .catch((error) => this.log.warn({ err: error }, 'could not drop a gone push subscription'));
    } else if ((status === 429 || status >= 500) && delivery.attempt < MAX_ATTEMPTS && !this.stopped) {
      // Busy or failing for now: again later, when the service asks or with a growing backoff.
      const wait = Math.min(asked ?? options.retryBaseMs * 4 ** (delivery.attempt - 1), MAX_RETRY_WAIT_MS);
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        this.enqueue({ ...delivery, attempt: delivery.attempt + 1 });
      }, wait);
      timer.unref();
      this.retries.add(timer);
    } else if (status === 0 || status >= 400) {
      this.log.info({ status }, 'a push was not accepted');
    }
  }

  /** Stops draining; waits for the drain in progress and the pushes in flight (each has a timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    this.waiting.length = 0;
    await this.drains.current;
    await Promise.allSettled([...this.inFlight]);
  }
}
