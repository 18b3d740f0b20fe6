import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a test receiver got. */
export interface ReceivedWebhook {
  /** The request's path, e.g. `/hook/3`: which webhook it was sent for when each has its own. */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The body as JSON. */
  json: {
    type: string;
    timestamp: string;
    actor: { id: number; name: string } | null;
    data: Record<string, unknown>;
  };
  headers: http.IncomingHttpHeaders;
}

/** How the receiver answers a request: a status (and headers), or `hang` to never answer. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on 127.0.0.1 for tests, as a real one would be: it keeps every request and
 * answers what `respond` says (204 by default). `verify` checks a request's signature with the
 * Standard Webhooks package, as receivers are told to.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let respond: (request: ReceivedWebhook, index: number) => Answer = () => ({ status: 204 });
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: ReceivedWebhook['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: '', timestamp: '', actor: null, data: {} };
      }
      const entry: ReceivedWebhook = {
        path: req.url ?? '',
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body,
        json,
        headers: req.headers,
      };
      received.push(entry);
      const answer = respond(entry, received.length - 1);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next: (request: ReceivedWebhook, index: number) => Answer) {
      respond = next;
    },
    /** The payload when the request's signature verifies with `secret`; throws otherwise. */
    verify(request: ReceivedWebhook, secret: string): unknown {
      return new Webhook(secret).verify(request.body, {
        'webhook-id': request.id,
        'webhook-timestamp': request.timestamp,
        'webhook-signature': request.signature,
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
