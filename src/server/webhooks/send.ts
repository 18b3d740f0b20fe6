import type { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { endpointProblem, publicOnlyLookup } from '../http/outboundUrl';

/** A fresh secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}

/**
 * The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` for
 * each secret, space-separated (the new and the previous one for a day after a rotation).
 */
export function signatureHeader(secrets: readonly string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');
}

/** What a receiver answered: its status (0 when it could not be reached) or what went wrong. */
export interface SendAnswer {
  status: number;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one signed delivery. The URL's rules are checked again here and every address its name
 * resolves to as the connection is made (the socket connects to the address that was checked, so a
 * name that turns into an internal host after the create is refused: DNS rebinding). Redirects are
 * never followed (Node's client does not): a 3xx is the receiver's answer, and a failure.
 */
export async function postDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowLoopback: boolean; timeoutMs: number },
): Promise<SendAnswer> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const problem = endpointProblem(url, options.allowLoopback);
  if (problem) return { status: 0, error: problem.replace('endpoint', 'URL'), durationMs: 0 };
  const target = new URL(url);
  const transport = target.protocol === 'http:' ? http : https;
  const guardedLookup = publicOnlyLookup(options.allowLoopback, 'The URL resolves to a private address.');
  return new Promise<SendAnswer>((resolve) => {
    let settled = false;
    const settle = (answer: Omit<SendAnswer, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, durationMs: took() });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        lookup: guardedLookup as unknown as typeof dnsLookup,
        timeout: options.timeoutMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not needed; a slow one must not hold the slot.
        response.resume();
        response.on('error', () => undefined);
        settle({
          status,
          error:
            status >= 300 && status < 400
              ? `Redirect to ${String(response.headers.location ?? 'nowhere').slice(0, 200)} not followed.`
              : status >= 200 && status < 300
                ? null
                : `The receiver answered ${status}.`,
        });
        request.destroy();
      },
    );
    const timeout = () => request.destroy(new Error(`No answer within ${options.timeoutMs / 1000} s.`));
    const timer = setTimeout(timeout, options.timeoutMs);
    timer.unref();
    request.on('timeout', timeout);
    request.on('error', (error) => settle({ status: 0, error: error.message.slice(0, 300) }));
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}
