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
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // IPv4-compatible (deprecated, never routed), with :: and ::1 in it.
  ['::', 96],
  // NAT64 for local use (RFC 8215): it translates to whatever the local network chooses.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and a zone allowed), or null. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0] ?? '';
  if (isIP(text) !== 6) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)));
  const gap = text.indexOf('::');
  if (gap < 0) return groups(text);
  const head = groups(text.slice(0, gap));
  const tail = groups(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/**
 * The IPv4 addresses an IPv6 address carries and is delivered to: IPv4-mapped and -translated
 * (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`), NAT64's well-known prefix (`64:ff9b::a.b.c.d`), 6to4
 * (`2002:AABB:CCDD::`) and Teredo (`2001:0:server:…:~client`). `[64:ff9b::7f00:1]` is 127.0.0.1 to
 * a host behind NAT64, and `[2002:7f00:1::]` to one with a 6to4 relay, whatever the IPv6 rules say.
 */
export function embeddedIpv4(groups: readonly number[]): string[] {
  const g = (i: number) => groups[i] ?? 0;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g(5) === 0xffff) return [v4(g(6), g(7))];
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return [v4(g(6), g(7))];
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return [v4(g(6), g(7))];
  if (g(0) === 0x2002) return [v4(g(1), g(2))];
  if (g(0) === 0x2001 && g(1) === 0) return [v4(g(2), g(3)), v4(g(6) ^ 0xffff, g(7) ^ 0xffff)];
  return [];
}

/**
 * Whether a push may go to this address: public ones, and loopback when the tests allow it. Loopback
 * is let through only as itself (127.x, ::1, or ::ffff:127.x as a dual-stack socket shows IPv4),
 * never by way of a transition form.
 */
export function addressAllowed(raw: string, allowLoopback: boolean): boolean {
  const address = raw.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 4)
    return (allowLoopback && LOOPBACK.check(address, 'ipv4')) || !PRIVATE.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (groups === null || groups.length !== 8) return false;
  const plain = address.split('%')[0] as string;
  // BlockList checks ::ffff:a.b.c.d against the IPv4 rules, loopback included.
  if (allowLoopback && LOOPBACK.check(plain, 'ipv6')) return true;
  if (PRIVATE.check(plain, 'ipv6')) return false;
  return embeddedIpv4(groups).every((v4) => !PRIVATE.check(v4, 'ipv4'));
}

/** Names every resolver answers with this machine's own address (RFC 6761, /etc/hosts of Linux). */
const LOOPBACK_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'localhost6',
  'localhost6.localdomain6',
  'ip6-localhost',
  'ip6-loopback',
]);
/** Suffixes only a local network resolves (mDNS, cloud metadata, home routers). */
const LOCAL_SUFFIXES = ['.localhost', '.localdomain', '.local', '.internal', '.home.arpa'];

/** Whether a host name (lower case, no trailing dot) names this machine. */
function isLoopbackName(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || host.endsWith('.localhost');
}

/**
 * A DNS lookup for outbound requests (Web Push, webhooks) that connects only to the addresses it
 * checked: every address the name resolves to must be public (addressAllowed), else the request
 * fails with `refusal`. Checked at connect time, so a name that re-resolves to a private address
 * after the endpoint was accepted (DNS rebinding) is refused.
 */
export function publicOnlyLookup(allowLoopback: boolean, refusal: string) {
  return (
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((a) => addressAllowed(a.address, allowLoopback));
      if (allowed.length === 0 || allowed.length !== addresses.length) {
        return callback(new Error(refusal), []);
      }
      if (lookupOptions.all) return callback(null, allowed);
      const first = allowed[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Why a push endpoint is refused, or null when it is acceptable: an https URL whose host is not a
 * private, loopback or link-local address (also inside an IPv6 transition form) or a local name
 * (names are checked again when sending, against the addresses they resolve to). `allowLoopback`
 * lets http and loopback through for tests.
 */
export function endpointProblem(endpoint: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The endpoint must be an https URL.';
  }
  // 'LOCALHOST.' is localhost: a trailing dot only says the name is already fully qualified.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  const ip = isIP(host) !== 0;
  const loopbackHost = ip ? LOOPBACK.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4') : isLoopbackName(host);
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:' && loopbackHost)) {
    return 'The endpoint must be an https URL.';
  }
  if (url.username || url.password) return 'The endpoint must not carry a user name or password.';
  if (ip) {
    return addressAllowed(host, allowLoopback)
      ? null
      : 'The endpoint must not point at a private, loopback or link-local address.';
  }
  if (isLoopbackName(host)) {
    return allowLoopback ? null : 'The endpoint must not point at this server or its network.';
  }
  // A name without a dot is completed by the server's resolver search list: an internal host.
  if (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return 'The endpoint must not point at this server or its network.';
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
  private running: Promise<void> | null = null;
  private again = false;
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
    await this.running;
    await Promise.allSettled([...this.inFlight]);
  }
}
