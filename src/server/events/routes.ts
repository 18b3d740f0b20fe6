import type { FastifyInstance } from 'fastify';
import { SERVER_EVENTS } from '../../shared/protocol';
import { currentUser } from '../http/context';
import { sessionAlive } from '../http/session';
import { unreadCount } from '../notifications/store';

/** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
export const HEARTBEAT_MS = 25_000;

/**
 * Server-sent events: `changed` whenever something the user sees changes, on any instance, and
 * `notification {unread}` (SYNC.md E1, E2). Every notification's recipient also gets a `changed`, on
 * whichever instance it was written, so the unread count crosses instances the way changes do.
 *
 * A stream lives no longer than its session: sign-out (or a sign-in that replaces the session) on
 * this instance closes it at once; after a sign-out on another instance, the stream looks the session
 * up again before each delivery and at each heartbeat, and ends when it is gone (within the session
 * cache's few seconds).
 */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const open = new Set<() => void>();
  // Streams never end by themselves; closing the server must end them or it would wait forever.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get('/events', async (request, reply) => {
    const user = currentUser(request);
    const sessionId = request.session!.id;
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

    // `notification {unread}` whenever the user's unread count differs from what this stream last
    // said; every notification's recipient also gets a change, so this is asked after each one.
    let lastUnread = -1;
    const notificationLine = async () => {
      try {
        const unread = await unreadCount(app.database.db, user.id);
        if (unread === lastUnread) return '';
        lastUnread = unread;
        return `event: ${SERVER_EVENTS.notification}\ndata: ${JSON.stringify({ unread })}\n\n`;
      } catch (error) {
        request.log.warn({ err: error }, 'event stream could not count unread notifications');
        return '';
      }
    };

    let closed = false;
    /** False once the session is gone; a failed lookup keeps the stream (an event carries no data). */
    const signedIn = async () => {
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
    };
    /** Writes `text` if the session still exists, else ends the stream. */
    const deliver = async (text: string) => {
      if (!(await signedIn())) return end();
      if (!closed) res.write(text);
    };

    // Several commits in one tick become one event: the client pulls everything anyway.
    let scheduled = false;
    const unsubscribe = app.changes.subscribe(user.id, () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(async () => {
        // Changes that arrive during the check are covered by the event that follows it.
        await deliver(`event: changed\ndata: ${Date.now()}\n\n${await notificationLine()}`);
        scheduled = false;
      });
    });
    const heartbeat = setInterval(() => void deliver(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = () => {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      unwatch();
      open.delete(end);
    };
    const end = () => {
      if (closed) return;
      stop();
      res.end();
    };
    const unwatch = app.sessionCache.onEnd(sessionId, end);
    open.add(end);
    request.raw.on('close', stop);
    void notificationLine().then((line) => {
      if (line && !closed) res.write(line);
    });
    res.on('error', stop);
  });
}
