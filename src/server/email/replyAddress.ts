import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { REPLY_ADDRESS_PATTERN } from '../../shared/email';
import { type Executor, rows, sql } from '../db/client';

const SECRET_NAME = 'email_reply_key';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** The key reply addresses are signed with: generated once and shared by every instance. */
export async function loadReplyKey(db: Executor): Promise<Buffer> {
  const fresh = randomBytes(32).toString('base64');
  // Two instances starting together both generate; the first insert wins and both read it back.
  await db.execute(
    sql`INSERT INTO server_secrets (name, value) VALUES (${SECRET_NAME}, ${fresh}) ON CONFLICT (name) DO NOTHING`,
  );
  const [row] = await rows<{ value: string }>(
    db,
    sql`SELECT value FROM server_secrets WHERE name = ${SECRET_NAME}`,
  );
  return Buffer.from(row?.value ?? fresh, 'base64');
}

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

function mac(key: Buffer, ids: Buffer): Buffer {
  return createHmac('sha256', key).update('reply:').update(ids).digest().subarray(0, 12);
}

/**
 * The local part of a notification mail's Reply-To (`r-` + 32 base32 characters): the person's and
 * the item's ids with a MAC, so a reply names both and nobody can make one for another person.
 */
export function replyLocalPart(key: Buffer, userId: number, itemId: number): string {
  const ids = Buffer.alloc(8);
  ids.writeUInt32BE(userId, 0);
  ids.writeUInt32BE(itemId, 4);
  return `r-${base32(Buffer.concat([ids, mac(key, ids)]))}`;
}

/** The person and item a reply address's local part names; null when it is not one of ours. */
export function readReplyLocalPart(
  key: Buffer,
  localPart: string,
): { userId: number; itemId: number } | null {
  const match = REPLY_ADDRESS_PATTERN.exec(localPart.toLowerCase());
  const bytes = match ? fromBase32(match[1]!) : null;
  if (bytes?.length !== 20) return null;
  const ids = bytes.subarray(0, 8);
  if (!timingSafeEqual(bytes.subarray(8), mac(key, ids))) return null;
  return { userId: ids.readUInt32BE(0), itemId: ids.readUInt32BE(4) };
}
