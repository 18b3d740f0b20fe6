import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One push the receiver got, decrypted. */
export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  payload: unknown;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * Decrypts an `aes128gcm` Web Push body (RFC 8188 framing, RFC 8291 keys) with the subscriber's
 * private key and auth secret: the test's proof that the server encrypts for the browser, not for us.
 */
export function decryptPush(body: Buffer, ecdh: ReturnType<typeof createECDH>, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(senderKey);
  const receiverKey = ecdh.getPublicKey();
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverKey, senderKey, Buffer.from([1])]);
  const ikm = hmac(hmac(authSecret, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02 and optional zero padding.
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end--;
  if (plain[end - 1] !== 2) throw new Error('push record has no final delimiter');
  return plain.subarray(0, end - 1).toString('utf8');
}

/**
 * A push service on 127.0.0.1 for tests: `/ok/...` answers 201 and records the decrypted payload,
 * `/gone/...` answers 410, `/missing/...` 404, `/hang/...` never answers. `subscription(kind)` makes a browser-like
 * subscription (fresh P-256 keys and auth secret) whose endpoint is on this receiver.
 */
export async function startPushReceiver() {
  const received: ReceivedPush[] = [];
  const hits: string[] = [];
  const keys = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const hanging = new Set<http.ServerResponse>();
  // Paths already refused once ('busy' answers 429, 'flaky' 503, each on its first request only).
  const refusedOnce = new Set<string>();
  // Requests being answered now, over all paths and per path, and the most seen at once.
  let open = 0;
  const openPerPath = new Map<string, number>();
  const peak = { all: 0, perPath: 0 };
  let counter = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      hits.push(path);
      if (path.startsWith('/busy/') && !refusedOnce.has(path)) {
        refusedOnce.add(path);
        response.writeHead(429, { 'retry-after': '1' }).end();
        return;
      }
      if (path.startsWith('/flaky/') && !refusedOnce.has(path)) {
        refusedOnce.add(path);
        response.writeHead(503).end();
        return;
      }
      if (path.startsWith('/hang/')) {
        hanging.add(response);
        return;
      }
      if (path.startsWith('/gone/')) {
        response.writeHead(410).end();
        return;
      }
      if (path.startsWith('/missing/')) {
        response.writeHead(404).end();
        return;
      }
      const accept = () => {
        const key = keys.get(path);
        try {
          if (!key) throw new Error(`no subscription at ${path}`);
          const text = decryptPush(Buffer.concat(chunks), key.ecdh, key.auth);
          received.push({ path, headers: request.headers, payload: JSON.parse(text) });
          response.writeHead(201).end();
        } catch (error) {
          response.writeHead(400).end(String(error));
        }
      };
      if (!path.startsWith('/slow/')) return accept();
      // A slow push service: each request is held a moment, so concurrent ones overlap and are counted.
      open++;
      openPerPath.set(path, (openPerPath.get(path) ?? 0) + 1);
      peak.all = Math.max(peak.all, open);
      peak.perPath = Math.max(peak.perPath, openPerPath.get(path) ?? 0);
      setTimeout(() => {
        open--;
        openPerPath.set(path, (openPerPath.get(path) ?? 1) - 1);
        accept();
      }, 100);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    hits,
    /** The most 'slow' requests answered at once, over all paths and to one path. */
    peak,
    subscription(kind: 'ok' | 'gone' | 'missing' | 'hang' | 'busy' | 'flaky' | 'slow' = 'ok') {
      counter += 1;
      const path = `/${kind}/${counter}`;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(path, { ecdh, auth });
      return {
        endpoint: `http://127.0.0.1:${port}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it holds or `ms` pass. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
