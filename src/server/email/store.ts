import { EMAIL_KINDS, type EmailKind, emailKindsWith, normalizeEmail } from '../../shared/email';
import { type Executor, rows, sql } from '../db/client';

/** A person's address as stored. */
export interface EmailRow {
  email: string;
  verified: boolean;
}

/** The person's address and whether it is verified; null when they have none. */
export async function emailOf(db: Executor, userId: number): Promise<EmailRow | null> {
  const [row] = await rows<{ email: string; verified: boolean }>(
    db,
    sql`SELECT email, verified_at IS NOT NULL AS verified FROM user_emails WHERE user_id = ${userId}`,
  );
  return row ?? null;
}

/** Whether someone other than `userId` has verified `email` (compared case-blind, as the index does). */
export async function verifiedByOther(db: Executor, userId: number, email: string): Promise<boolean> {
  const found = await rows(
    db,
    sql`SELECT 1 FROM user_emails WHERE lower(email) = lower(${email}) AND verified_at IS NOT NULL
        AND user_id <> ${userId}`,
  );
  return found.length > 0;
}

/**
 * Sets a new, unverified address and its one live verification (the older links stop working):
 * the address takes effect only once the link is opened.
 */
export async function setPendingEmail(
  tx: Executor,
  userId: number,
  email: string,
  tokenHash: string,
): Promise<void> {
  const address = normalizeEmail(email);
  await tx.execute(
    sql`INSERT INTO user_emails (user_id, email, verified_at, updated_at) VALUES (${userId}, ${address}, NULL, now())
        ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, verified_at = NULL, updated_at = now()`,
  );
  await tx.execute(sql`DELETE FROM email_verifications WHERE user_id = ${userId}`);
  await tx.execute(
    sql`INSERT INTO email_verifications (token_hash, user_id, email, expires_at)
        VALUES (${tokenHash}, ${userId}, ${address}, now() + interval '24 hours')`,
  );
}

/**
 * Uses a verification link: its person's address becomes verified when it is still the one the
 * link was made for. Answers that address, or null for an unknown, used or expired link.
 */
export async function useVerification(
  tx: Executor,
  tokenHash: string,
): Promise<{ userId: number; email: string } | null> {
  const [found] = await rows<{ user_id: number; email: string }>(
    tx,
    sql`DELETE FROM email_verifications WHERE token_hash = ${tokenHash} AND expires_at > now()
        RETURNING user_id, email`,
  );
  if (!found) return null;
  const [updated] = await rows<{ email: string }>(
    tx,
    sql`UPDATE user_emails SET verified_at = now(), updated_at = now()
        WHERE user_id = ${found.user_id} AND email = ${found.email} RETURNING email`,
  );
  return updated ? { userId: found.user_id, email: updated.email } : null;
}

/** The address an OIDC provider vouched for becomes the person's, verified, unless another person has it. */
export async function setVerifiedEmail(db: Executor, userId: number, email: string): Promise<boolean> {
  const address = normalizeEmail(email);
  if (await verifiedByOther(db, userId, address)) return false;
  await db.execute(
    sql`INSERT INTO user_emails (user_id, email, verified_at, updated_at) VALUES (${userId}, ${address}, now(), now())
        ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, verified_at = now(), updated_at = now()
        WHERE user_emails.verified_at IS NULL OR user_emails.email <> EXCLUDED.email`,
  );
  return true;
}

/** Removes the person's address and its pending links: no more mail. */
export async function removeEmail(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`DELETE FROM email_verifications WHERE user_id = ${userId}`);
  await db.execute(sql`DELETE FROM user_emails WHERE user_id = ${userId}`);
}

/** A person's switches (their settings over the defaults), digest hour and zone. */
export interface StoredPreferences {
  kinds: Record<EmailKind, boolean>;
  digest_hour: number | null;
  time_zone: string;
}

export async function preferencesOf(db: Executor, userId: number): Promise<StoredPreferences> {
  const [row] = await rows<{ kinds: Record<string, unknown>; digest_hour: number | null; time_zone: string }>(
    db,
    sql`SELECT kinds, digest_hour, time_zone FROM email_preferences WHERE user_id = ${userId}`,
  );
  return {
    kinds: emailKindsWith(row?.kinds ?? {}),
    digest_hour: row?.digest_hour ?? null,
    time_zone: row?.time_zone ?? 'UTC',
  };
}

/** Writes the given fields over the stored ones (the switches merge key by key). */
export async function patchPreferences(
  db: Executor,
  userId: number,
  patch: {
    kinds?: Partial<Record<EmailKind, boolean>>;
    digest_hour?: number | null;
    time_zone?: string;
  },
): Promise<void> {
  const kinds = JSON.stringify(
    Object.fromEntries(
      EMAIL_KINDS.filter((k) => patch.kinds?.[k] !== undefined).map((k) => [k, patch.kinds?.[k]]),
    ),
  );
  const hourGiven = patch.digest_hour !== undefined;
  await db.execute(
    sql`INSERT INTO email_preferences (user_id, kinds, digest_hour, time_zone, updated_at)
        VALUES (${userId}, ${kinds}::jsonb, ${patch.digest_hour ?? null}, ${patch.time_zone ?? 'UTC'}, now())
        ON CONFLICT (user_id) DO UPDATE SET
          kinds = email_preferences.kinds || EXCLUDED.kinds,
          digest_hour = CASE WHEN ${hourGiven} THEN EXCLUDED.digest_hour ELSE email_preferences.digest_hour END,
          time_zone = CASE WHEN ${patch.time_zone !== undefined} THEN EXCLUDED.time_zone ELSE email_preferences.time_zone END,
          updated_at = now()`,
  );
}

/** Turns the digest off: the one thing an unsubscribe link may do. */
export async function stopDigest(db: Executor, userId: number): Promise<void> {
  await db.execute(
    sql`UPDATE email_preferences SET digest_hour = NULL, updated_at = now() WHERE user_id = ${userId}`,
  );
}

/** One message for the outbox, rendered. */
export interface OutboxRow {
  userId: number | null;
  kind: 'notification' | 'digest' | 'verify' | 'test';
  dedupeKey: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** 'skipped' records a digest that had nothing to say (so it is not looked for again that day). */
  status?: 'pending' | 'skipped';
}

/** Adds messages to the outbox; one already there under the same dedupe key is kept, not doubled. Answers the new ids. */
export async function enqueueMail(db: Executor, messages: readonly OutboxRow[]): Promise<number[]> {
  if (messages.length === 0) return [];
  const values = JSON.stringify(
    messages.map((m) => ({
      user_id: m.userId,
      kind: m.kind,
      dedupe_key: m.dedupeKey,
      to_address: m.to,
      subject: m.subject,
      text_body: m.text,
      html_body: m.html,
      headers: m.headers,
      status: m.status ?? 'pending',
    })),
  );
  const made = await rows<{ id: number | string }>(
    db,
    sql`INSERT INTO email_outbox (user_id, kind, dedupe_key, to_address, subject, text_body, html_body, headers, status)
        SELECT r.user_id, r.kind, r.dedupe_key, r.to_address, r.subject, r.text_body, r.html_body, r.headers, r.status
        FROM jsonb_to_recordset(${values}::jsonb) AS r(user_id int, kind text, dedupe_key text, to_address text,
          subject text, text_body text, html_body text, headers jsonb, status text)
        ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
  );
  return made.map((m) => Number(m.id));
}

/** How many mails of `kind` the person asked for in the last hour (verification and test mails are capped). */
export async function recentMails(db: Executor, userId: number, kind: OutboxRow['kind']): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM email_outbox WHERE user_id = ${userId} AND kind = ${kind}
        AND created_at > now() - interval '1 hour'`,
  );
  return row?.n ?? 0;
}
