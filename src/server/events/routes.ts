import type { FastifyInstance } from 'fastify';
import { SERVER_EVENTS, SIGN_OUT_REASONS, type SignOutReason } from '../../shared/serverEvents';
import { mutualsVersion } from '../contacts/mutuals';
import { currentUser } from '../http/context';
import { HttpError } from '../http/errors';
import { sessionAlive } from '../http/session';
import { unreadCount, unreadCounts } from '../notifications/store';
import { errorAnswer, routeDoc } from '../openapi/routeDoc';

/** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
export const HEARTBEAT_MS = 25_000;

/** Open streams one session may hold on an instance: a tab each, and a browser rarely has more. */
export const STREAMS_PER_SESSION = 5;
/** Open streams one user may hold on an instance, over all their sessions (devices, browsers). */
export const STREAMS_PER_USER = 20;
/** The reconnect wait a stream ended by a shutdown asks for, in ms: spread over this range. */
export const RESTART_RETRY_MS = { min: 1_000, max: 5_000 } as const;

/**
 * The last words of a stream the server ends because it is stopping: a `retry:` field (the wait a
 * plain EventSource reconnects after, spread so a restarted instance's clients do not all come back
 * in the same instant) and a comment saying why. Our client reconnects with its own backoff when a
 * stream ends and pulls from its cursor once the new stream opens (data/net/connectivity.ts), so no
 * change made meanwhile is missed; a final `changed` would only send it a pull at the stopping
 * instance.
 */
export function restartHint(random: () => number = Math.random): string {
  const wait = Math.round(RESTART_RETRY_MS.min + (RESTART_RETRY_MS.max - RESTART_RETRY_MS.min) * random());
  return `retry: ${wait}\n: server restarting, reconnect\n\n`;
}

/** One open stream, as the delivery batches see it. */
interface OpenStream {
  userId: number;
  phone: string | null;
  sessionId: string;
  lastUnread: number;
  lastMutuals: string | null;
  closed: boolean;
  signedIn(): Promise<boolean>;
  write(text: string): void;
  /** Ends the stream; with a reason, its last event is `signed_out` saying it (E7). */
  end(reason?: SignOutReason): void;
}

/** E7: a stream's last event when its session has ended, so the device signs out at once and says why. */
export function signedOutEvent(reason: SignOutReason): string {
  return `event: ${SERVER_EVENTS.signedOut}\ndata: ${JSON.stringify({ reason })}\n\n`;
}

/** Seconds a refused stream is told to wait: time for a tab to close; the 30 s poll syncs meanwhile. */
const STREAM_RETRY_AFTER_SECONDS = 30;

/**
 * Server-sent events: `changed` whenever something the user sees changes, on any instance, and
 * `notification {unread}` (SYNC.md E1, E2). Every notification's recipient also gets a `changed`, on
 * whichever instance it was written, so the unread count crosses instances the way changes do.
 *
 * A stream lives no longer than its session (E7): a sign-out on any instance closes it at once with
 * `signed_out {reason}` as its last event (the change bus carries the word between instances), and a
 * sign-in that replaces the session closes it without one (the browser has a new session to reconnect
 * with). Should the word be lost, the stream still looks the session up before each delivery and at
 * each heartbeat, and ends with `signed_out {reason: 'expired'}` once it is gone.
 */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const open = new Set<(hint?: string) => void>();
  // Streams never end by themselves; closing the server must end them or it would wait forever.
  // Each ends with a reconnect hint (see restartHint): the client reconnects, to another instance
  // behind a balancer or to this one restarted, and pulls from its cursor when the new stream opens.
  app.addHook('preClose', async () => {
    for (const end of open) end(restartHint());
  });

  // Open streams per session and per user on this instance. Each holds a socket, a change listener
  // and a timer; without a cap one session could open thousands. Counted per instance, in memory, so
  // a crash leaves nothing behind to clean up; behind a load balancer the cap multiplies at worst by
  // the number of instances, still bounded.
  const perSession = new Map<string, number>();
  const perUser = new Map<number, number>();
  const bump = <K>(counts: Map<K, number>, key: K, by: number) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };

  // E4: deliveries of one moment go out as one batch for every stream on this instance: one unread
  // count query for all their users, one session check per sign-in and one mutual-contacts read per
  // user named directly, not three queries per stream (a change in a campaign of 1,250 members with
  // 4 tabs each was 5,000 × 3 queries). Changes that arrive while a batch is out form the next one.
  let pending = new Map<OpenStream, boolean>();
  let draining = false;
  const deliverBatch = async (batch: Map<OpenStream, boolean>) => {
    const streams = [...batch].filter(([stream]) => !stream.closed);
    if (streams.length === 0) return;
    const sessions = new Map<string, Promise<boolean>>();
    const signedIn = (stream: OpenStream) => {
      let alive = sessions.get(stream.sessionId);
      if (!alive) {
        alive = stream.signedIn();
        sessions.set(stream.sessionId, alive);
      }
      return alive;
    };
    const users = [...new Set(streams.map(([stream]) => stream.userId))];
    let unread: Map<number, number> | null = null;
    try {
      unread = await unreadCounts(app.database.db, users);
    } catch (error) {
      app.log.warn({ err: error }, 'event streams could not count unread notifications');
    }
    const mutuals = new Map<number, Promise<string | null>>();
    const mutualsOf = (stream: OpenStream) => {
      let version = mutuals.get(stream.userId);
      if (!version) {
        version = mutualsVersion(app.database.db, stream.userId, stream.phone).catch((error) => {
          app.log.warn({ err: error }, 'event stream could not read the mutual contacts');
          return null;
        });
        mutuals.set(stream.userId, version);
      }
      return version;
    };
    const now = Date.now();
    await Promise.all(
      streams.map(async ([stream, direct]) => {
        if (!(await signedIn(stream))) return stream.end(SIGN_OUT_REASONS.expired);
        // Mutual contacts move only through announcements that name their user (E3, E4).
        const version = direct ? await mutualsOf(stream) : null;
        if (stream.closed) return;
        let text = `event: ${SERVER_EVENTS.changed}\ndata: ${now}\n\n`;
        const count = unread?.get(stream.userId);
        if (count !== undefined && count !== stream.lastUnread) {
          stream.lastUnread = count;
          text += `event: ${SERVER_EVENTS.notification}\ndata: ${JSON.stringify({ unread: count })}\n\n`;
        }
        if (version !== null && version !== stream.lastMutuals) {
          stream.lastMutuals = version;
          text += `event: ${SERVER_EVENTS.mutuals}\ndata: ${JSON.stringify({ version })}\n\n`;
        }
        stream.write(text);
      }),
    );
  };
  const drain = async () => {
    while (pending.size > 0) {
      const batch = pending;
      pending = new Map();
      try {
        await deliverBatch(batch);
      } catch (error) {
        app.log.warn({ err: error }, 'event delivery failed');
      }
    }
    draining = false;
  };
  const enqueue = (stream: OpenStream, direct: boolean) => {
    pending.set(stream, (pending.get(stream) ?? false) || direct);
    if (draining) return;
    draining = true;
    setImmediate(() => void drain());
  };

  const eventsDoc = routeDoc({
    summary: 'Live events',
    description:
      'A `text/event-stream`: an event `changed` whenever something the caller sees changes (then pull `GET /api/sync`), `notification` with `{unread}` when the count changes, and a heartbeat comment every 25 s. The headers go out as soon as the stream opens. When the session ends (a sign-out here or on another device, or `Sign out everywhere`) the last event is `signed_out` with `{reason}` (`logout`, `everywhere`, `device` or `expired`) and the stream closes.',
    tags: ['Sync'],
    answers: {
      200: { description: 'The stream, open until the client closes it.', media: 'text/event-stream' },
      429: errorAnswer('Too many open streams for this sign-in or account.'),
    },
  });
  app.get('/events', { schema: eventsDoc }, async (request, reply) => {
    const user = currentUser(request);
    const sessionId = request.session!.id;
    if (
      (perSession.get(sessionId) ?? 0) >= STREAMS_PER_SESSION ||
      (perUser.get(user.id) ?? 0) >= STREAMS_PER_USER
    ) {
      throw new HttpError(
        429,
        `Too many open event streams (at most ${STREAMS_PER_SESSION} for one sign-in and ${STREAMS_PER_USER} for one account). Close a tab and try again.`,
        {},
        { 'Retry-After': String(STREAM_RETRY_AFTER_SECONDS) },
      );
    }
    // Taken before any await, so concurrent opens cannot all pass the check.
    bump(perSession, sessionId, 1);
    bump(perUser, user.id, 1);
    app.metrics.eventStreams.inc();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      app.metrics.eventStreams.dec();
      bump(perSession, sessionId, -1);
      bump(perUser, user.id, -1);
    };
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n: connected\n\n');
    res.flushHeaders?.();

    const stream: OpenStream = {
      userId: user.id,
      phone: user.phone,
      sessionId,
      lastUnread: -1,
      lastMutuals: null,
      closed: false,
      /** False once the session is gone; a failed lookup keeps the stream (an event carries no data). */
      signedIn: async () => {
        try {
          return await sessionAlive(
            app.database.db,
            sessionId,
            app.config.sessionIdleMinutes,
            app.sessionCache,
          );
        } catch (error) {
          request.log.warn({ err: error }, 'event stream could not re-check its session');
          return true;
        }
      },
      write: (text) => {
        if (!stream.closed) res.write(text);
      },
      end: (reason) => end(reason === undefined ? undefined : signedOutEvent(reason)),
    };

    // `notification {unread}` and (E3) `mutuals {version}` when the stream opens; after that the
    // batches above send them whenever they differ from what this stream last said.
    const notificationLine = async () => {
      try {
        const unread = await unreadCount(app.database.db, user.id);
        if (unread === stream.lastUnread) return '';
        stream.lastUnread = unread;
        return `event: ${SERVER_EVENTS.notification}\ndata: ${JSON.stringify({ unread })}\n\n`;
      } catch (error) {
        request.log.warn({ err: error }, 'event stream could not count unread notifications');
        return '';
      }
    };
    const mutualsLine = async () => {
      try {
        const version = await mutualsVersion(app.database.db, user.id, user.phone);
        if (version === stream.lastMutuals) return '';
        stream.lastMutuals = version;
        return `event: ${SERVER_EVENTS.mutuals}\ndata: ${JSON.stringify({ version })}\n\n`;
      } catch (error) {
        request.log.warn({ err: error }, 'event stream could not read the mutual contacts');
        return '';
      }
    };

    /** Writes `text` if the session still exists, else ends the stream. */
    const deliver = async (text: string) => {
      if (!(await stream.signedIn())) return stream.end(SIGN_OUT_REASONS.expired);
      stream.write(text);
    };
    const unsubscribe = app.changes.subscribe(user.id, (direct) => enqueue(stream, direct));
    const heartbeat = setInterval(() => void deliver(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = () => {
      release();
      stream.closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      unwatch();
      open.delete(end);
    };
    const end = (hint?: string) => {
      if (stream.closed) return;
      stop();
      if (hint) res.write(hint);
      res.end();
    };
    const unwatch = app.sessionCache.onEnd(sessionId, (reason) => stream.end(reason));
    open.add(end);
    request.raw.on('close', stop);
    // The response's close is the socket's too: the slot must come back however the stream ends.
    res.on('close', stop);
    void Promise.all([notificationLine(), mutualsLine()]).then((lines) => {
      const text = lines.join('');
      if (text) stream.write(text);
    });
    res.on('error', stop);
  });
}
