import { createHmac, timingSafeEqual } from 'node:crypto';

function mac(key: Buffer, userId: number): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${userId}`).digest().subarray(0, 16);
}

/**
 * The token of a digest's unsubscribe link (RFC 8058 one-click): the person's id with a MAC, so the
 * link works without signing in and only ever for that person's digest.
 */
export function unsubscribeToken(key: Buffer, userId: number): string {
  return `${userId}.${mac(key, userId).toString('base64url')}`;
}

/** The person an unsubscribe token names; null when it is not one of ours. */
export function readUnsubscribeToken(key: Buffer, token: string): number | null {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const given = Buffer.from(match[2]!, 'base64url');
  if (!Number.isSafeInteger(userId) || given.length !== 16) return null;
  return timingSafeEqual(given, mac(key, userId)) ? userId : null;
}
