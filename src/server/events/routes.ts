import type { FastifyInstance } from 'fastify';
import { currentUser } from '../http/context';

/** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
export const HEARTBEAT_MS = 25_000;

/** Server-sent events: `changed` whenever something the user sees changes, on any instance. */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const open = new Set<() => void>();
  // Streams never end by themselves; closing the server must end them or it would wait forever.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get('/events', async (request, reply) => {
    const user = currentUser(request);
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

    // Several commits in one tick become one event: the client pulls everything anyway.
    let scheduled = false;
    const unsubscribe = app.changes.subscribe(user.id, () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        res.write(`event: changed\ndata: ${Date.now()}\n\n`);
      });
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
    };
    const end = () => {
      stop();
      res.end();
    };
    open.add(end);
    request.raw.on('close', stop);
    res.on('error', stop);
  });
}
