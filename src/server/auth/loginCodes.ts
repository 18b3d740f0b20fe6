import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, unprocessable } from '../http/errors';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_WRONG_CODES = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

const hashCode = (phone: string, code: string) =>
  createHash('sha256').update(`${phone}:${code}`).digest('hex');

function lockedError(until: Date, now: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    `Too many wrong codes for this phone. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    {},
    { 'Retry-After': String(seconds) },
  );
}

interface CodeRow {
  code_hash: string | null;
  // Drivers hand timestamps back as text or Date; `at` reads both.
  expires_at: Date | string | null;
  attempts: number;
  locked_until: Date | string | null;
}

const at = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** A fresh 6-digit code from a cryptographic source, stored hashed; refused while the phone is locked. */
export async function issueCode(db: Executor, phone: string, now: Date): Promise<string> {
  const [row] = await rows<CodeRow>(db, sql`SELECT * FROM login_codes WHERE phone = ${phone}`);
  const lockedUntil = at(row?.locked_until ?? null);
  if (lockedUntil && lockedUntil > now) throw lockedError(lockedUntil, now);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expires = new Date(now.getTime() + CODE_TTL_MS);
  await db.execute(
    sql`INSERT INTO login_codes (phone, code_hash, expires_at, attempts, locked_until, updated_at)
        VALUES (${phone}, ${hashCode(phone, code)}, ${expires}, 0, NULL, ${now})
        ON CONFLICT (phone) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at,
          attempts = 0, locked_until = NULL, updated_at = EXCLUDED.updated_at`,
  );
  return code;
}

/** Accepts the phone's current code once; wrong codes count toward a 15-minute lock. */
export async function consumeCode(db: Executor, phone: string, code: string, now: Date): Promise<void> {
  const [row] = await rows<CodeRow>(db, sql`SELECT * FROM login_codes WHERE phone = ${phone}`);
  const lockedUntil = at(row?.locked_until ?? null);
  if (lockedUntil && lockedUntil > now) throw lockedError(lockedUntil, now);
  const expiresAt = at(row?.expires_at ?? null);
  if (!row?.code_hash || !expiresAt || expiresAt <= now) {
    throw unprocessable({ code: ['This code has expired or was never sent. Request a new code.'] });
  }
  const expected = Buffer.from(row.code_hash);
  const given = Buffer.from(hashCode(phone, code.trim()));
  if (expected.length === given.length && timingSafeEqual(expected, given)) {
    // Single use: the code is gone the moment it works.
    await db.execute(sql`DELETE FROM login_codes WHERE phone = ${phone}`);
    return;
  }
  // Counted atomically, so parallel guesses cannot slip past the limit.
  const [counted] = await rows<{ attempts: number }>(
    db,
    sql`UPDATE login_codes SET attempts = attempts + 1, updated_at = ${now} WHERE phone = ${phone} RETURNING attempts`,
  );
  const attempts = counted?.attempts ?? MAX_WRONG_CODES;
  if (attempts >= MAX_WRONG_CODES) {
    const until = new Date(now.getTime() + LOCKOUT_MS);
    await db.execute(
      sql`UPDATE login_codes SET code_hash = NULL, locked_until = ${until}, updated_at = ${now} WHERE phone = ${phone}`,
    );
    throw lockedError(until, now);
  }
  throw unprocessable({ code: [`The code is not correct. ${MAX_WRONG_CODES - attempts} tries left.`] });
}
