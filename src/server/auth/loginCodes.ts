import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { type Executor, rows, sql } from '../db/client';
import { HttpError, unprocessable } from '../http/errors';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_WRONG_CODES = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;
/**
 * Wrong tries are forgotten only when the phone's row has been quiet this long (no code request, no
 * try) and holds no live code or lock: a new code keeps the count, so asking for codes buys no
 * guesses. The sweeper (maintenance/sweep.ts) deletes such rows by the same rule.
 */
export const WRONG_TRIES_FORGOTTEN_AFTER_MS = LOCKOUT_MS;

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

const expiredError = () =>
  unprocessable({ code: ['This code has expired or was never sent. Request a new code.'] });

// Drivers hand timestamps back as text or Date; `at` reads both.
const at = (value: Date | string | null | undefined): Date | null =>
  value === null || value === undefined ? null : new Date(value);

async function lockedUntil(db: Executor, phone: string, now: Date): Promise<Date | null> {
  const [row] = await rows<{ locked_until: Date | string | null }>(
    db,
    sql`SELECT locked_until FROM login_codes WHERE phone = ${phone}`,
  );
  const until = at(row?.locked_until);
  return until && until > now ? until : null;
}

/**
 * A fresh 6-digit code from a cryptographic source, stored hashed; refused while the phone is locked.
 * One statement, so a code request racing a lock cannot lift it. The count of wrong tries carries
 * over to the new code (see WRONG_TRIES_FORGOTTEN_AFTER_MS); a lock that has passed resets it.
 */
export async function issueCode(db: Executor, phone: string, now: Date): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expires = new Date(now.getTime() + CODE_TTL_MS);
  const quietSince = new Date(now.getTime() - WRONG_TRIES_FORGOTTEN_AFTER_MS);
  const issued = await rows<{ phone: string }>(
    db,
    sql`INSERT INTO login_codes (phone, code_hash, expires_at, attempts, locked_until, updated_at)
        VALUES (${phone}, ${hashCode(phone, code)}, ${expires}, 0, NULL, ${now})
        ON CONFLICT (phone) DO UPDATE SET
          code_hash = EXCLUDED.code_hash,
          expires_at = EXCLUDED.expires_at,
          attempts = CASE
            WHEN login_codes.locked_until IS NOT NULL OR login_codes.updated_at <= ${quietSince} THEN 0
            ELSE login_codes.attempts END,
          locked_until = NULL,
          updated_at = EXCLUDED.updated_at
        WHERE login_codes.locked_until IS NULL OR login_codes.locked_until <= ${now}
        RETURNING phone`,
  );
  if (issued.length === 0) {
    throw lockedError((await lockedUntil(db, phone, now)) ?? new Date(now.getTime() + LOCKOUT_MS), now);
  }
  return code;
}

/**
 * Accepts the phone's current code once; wrong codes count toward a 15-minute lock.
 *
 * The try is counted before the code is compared, in one conditional UPDATE: PostgreSQL serialises
 * concurrent updates of the row and re-checks `attempts < 5` after each, so however many requests
 * arrive at once, at most five are ever compared with a code. The fifth counted try locks the phone in
 * the same statement; if it is the right code, the row (and the lock) goes with the sign-in.
 */
export async function consumeCode(db: Executor, phone: string, code: string, now: Date): Promise<void> {
  const until = new Date(now.getTime() + LOCKOUT_MS);
  const [counted] = await rows<{ code_hash: string; attempts: number }>(
    db,
    sql`UPDATE login_codes SET
          attempts = attempts + 1,
          locked_until = CASE WHEN attempts + 1 >= ${MAX_WRONG_CODES} THEN ${until}::timestamptz ELSE NULL END,
          updated_at = ${now}
        WHERE phone = ${phone} AND attempts < ${MAX_WRONG_CODES}
          AND code_hash IS NOT NULL AND expires_at > ${now}
          AND (locked_until IS NULL OR locked_until <= ${now})
        RETURNING code_hash, attempts`,
  );
  if (!counted) {
    const locked = await lockedUntil(db, phone, now);
    if (locked) throw lockedError(locked, now);
    throw expiredError();
  }

  const expected = Buffer.from(counted.code_hash);
  const givenHash = hashCode(phone, code.trim());
  const given = Buffer.from(givenHash);
  if (expected.length === given.length && timingSafeEqual(expected, given)) {
    // Single use: only the request that deletes the row signs in; a parallel one with the same code,
    // or one whose code was replaced meanwhile, finds nothing to delete.
    const used = await rows<{ phone: string }>(
      db,
      sql`DELETE FROM login_codes WHERE phone = ${phone} AND code_hash = ${givenHash} RETURNING phone`,
    );
    if (used.length === 0) throw expiredError();
    return;
  }

  const attempts = counted.attempts;
  if (attempts >= MAX_WRONG_CODES) {
    // The lock is already set; the code goes too, so it cannot outlive the lock.
    await db.execute(
      sql`UPDATE login_codes SET code_hash = NULL WHERE phone = ${phone} AND attempts >= ${MAX_WRONG_CODES}`,
    );
    throw lockedError(until, now);
  }
  const left = MAX_WRONG_CODES - attempts;
  throw unprocessable({ code: [`The code is not correct. ${left} ${left === 1 ? 'try' : 'tries'} left.`] });
}
