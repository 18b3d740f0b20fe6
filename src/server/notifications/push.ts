import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { ItemType } from '../../shared/item';
import { itemRoute } from '../../shared/notifications';
import { type Executor, rows, sql } from '../db/client';
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

// Addresses a push must never reach: the server must not become a way into internal hosts.
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written inside IPv6 (`::ffff:10.0.0.1`) is that IPv4 address. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** Whether a push may go to this address: public ones, and loopback when the tests allow it. */
export function addressAllowed(raw: string, allowLoopback: boolean): boolean {
  const address = unmapped(raw.replace(/^\[|\]$/g, ''));
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(address, type)) return true;
  return !PRIVATE.check(address, type);
}

/**
 * Why a push endpoint is refused, or null when it is acceptable: an https URL whose host is not a
 * private, loopback or link-local address or a local name (names are checked again when sending,
 * against the addresses they resolve to). `allowLoopback` lets http and loopback through for tests.
 */
export function endpointProblem(endpoint: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The endpoint must be an https URL.';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopbackHost =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    LOOPBACK.check(unmapped(host), isIP(unmapped(host)) === 6 ? 'ipv6' : 'ipv4');
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:' && loopbackHost)) {
    return 'The endpoint must be an https URL.';
  }
  if (url.username || url.password) return 'The endpoint must not carry a user name or password.';
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return allowLoopback ? null : 'The endpoint must not point at this server or its network.';
  }
  if (isIP(unmapped(host)) !== 0 && !addressAllowed(host, allowLoopback)) {
    return 'The endpoint must not point at a private, loopback or link-local address.';
  }
  return null;
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
}

/**
 * Sends one encrypted push (RFC 8291, aes128gcm) and answers the push service's status, or 0 when it
 * could not be reached or took longer than the timeout. Resolved addresses are checked as the
 * connection is made, so a name that resolves to an internal host is refused too.
 */
export async function sendPush(target: PushTarget, payload: string, options: PushOptions): Promise<number> {
  if (endpointProblem(target.endpoint, options.allowLoopback)) return 0;
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
  const guardedLookup = (
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((a) => addressAllowed(a.address, options.allowLoopback));
      if (allowed.length === 0 || allowed.length !== addresses.length) {
        return callback(new Error('push endpoint resolves to a private address'), []);
      }
      if (lookupOptions.all) return callback(null, allowed);
      const first = allowed[0]!;
      callback(null, first.address, first.family);
    });
  };
  return new Promise<number>((resolve) => {
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
        resolve(response.statusCode ?? 0);
      },
    );
    // A hanging push service is abandoned, never waited for.
    const timer = setTimeout(() => request.destroy(new Error('push timed out')), options.timeoutMs);
    timer.unref();
    request.on('timeout', () => request.destroy(new Error('push timed out')));
    request.on('error', () => resolve(0));
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

/**
 * Drains the push outbox after commits: claims unpushed entries (`FOR UPDATE SKIP LOCKED`, so with
 * several instances each entry is pushed by one of them) and sends them without anyone waiting.
 * A 404 or 410 from a push service deletes that subscription.
 */
export class PushOutbox {
  private running: Promise<void> | null = null;
  private again = false;
  private sweepStale = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<unknown>>();

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
    if (!force && !outboxSignal.pending) return;
    outboxSignal.pending = false;
    if (force) this.sweepStale = true;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error) => {
        if (!this.stopped) this.log.warn({ err: error }, 'push outbox drain failed');
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.poke(true);
        }
      });
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
        for (const target of targets.filter((t) => t.user_id === entry.user_id)) {
          const sent = this.deliver(target, payload, options);
          this.inFlight.add(sent);
          void sent.finally(() => this.inFlight.delete(sent));
        }
      }
      if (claimed.length < 100) return;
    }
  }

  private async deliver(target: PushTarget, payload: string, options: PushOptions): Promise<void> {
    const status = await sendPush(target, payload, options);
    if (status === 404 || status === 410) {
      await this.db
        .execute(sql`DELETE FROM push_subscriptions WHERE id = ${target.id}`)
        .catch((error) => this.log.warn({ err: error }, 'could not drop a gone push subscription'));
    } else if (status === 0 || status >= 400) {
      this.log.info({ status }, 'a push was not accepted');
    }
  }

  /** Stops draining; waits for the drain in progress and the pushes in flight (each has a timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    await Promise.allSettled([...this.inFlight]);
  }
}
