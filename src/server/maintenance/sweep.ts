import type { FastifyBaseLogger } from 'fastify';
import { ITEM_CHILDREN } from '../../shared/itemChildren';
import { TRASH_KEEP_MS } from '../../shared/trash';
import type { FileStore } from '../attachments/fileStore';
import { purgeUnnamedFiles } from '../attachments/purge';
import { LOCKOUT_MS, WRONG_TRIES_FORGOTTEN_AFTER_MS } from '../auth/loginCodes';
import { type Executor, rows, sql } from '../db/client';

/** ARCHITECTURE §4: idempotency keys live at least 7 days. */
export const IDEMPOTENCY_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** A rate bucket is dropped this long after its window started; no limiter's window may be longer. */
export const RATE_BUCKET_KEEP_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement, and statements per table per sweep: a sweep stays short. */
export const SWEEP_BATCH = 5000;
const MAX_BATCHES = 20;
/** Every instance sweeps about this often; the advisory lock lets one at a time do the work. */
export const SWEEP_INTERVAL_MS = 5 * 60 * 1000;
/** Any number shared by all instances; distinct from the migration lock (724001). */
const SWEEP_LOCK = 724002;

export interface SweepOptions {
  /** Sessions unused this long are gone for loadSession already; without it only expiry counts. */
  sessionIdleMinutes?: number;
  batchSize?: number;
}

export interface SweepResult {
  sessions: number;
  idempotencyKeys: number;
  loginCodes: number;
  rateBuckets: number;
  /** Deleted items past the trash's 30 days whose content was erased (their tombstones stay for sync). */
  purgedItems: number;
  /** Webhook deliveries older than WEBHOOK_DELIVERY_KEEP_MS, deleted with their payloads. */
  webhookDeliveries: number;
  /** Finished mails older than MAIL_KEEP_MS, deleted with their words. */
  mails: number;
}

/**
 * How long the webhook delivery log keeps a delivery, whatever its status: the trash's 30 days. A
 * delivery's payload repeats what items and comments said, so it must not outlive the purge that
 * erases them (K26); and a delivery not sent within 30 days (its webhook was off) is not sent at all.
 */
export const WEBHOOK_DELIVERY_KEEP_MS = TRASH_KEEP_MS;

/**
 * How long the mail log keeps a finished mail (sent, given up, or a digest with nothing to say) and a
 * record of mail in: 30 days, like the webhook log. A mail still waiting is never taken.
 */
export const MAIL_KEEP_MS = TRASH_KEEP_MS;

/** What a purged item's feed entries and notifications say instead of what they said (K26). */
export const PURGED_LINE = 'An item erased 30 days after it was deleted';

/**
 * The traces of the items in a CTE `purged` (their ids), erased in the same statement (K26): feed
 * entries keep who and when but lose the title and details, notifications their line and title, and
 * each child kind's rows go or lose their text, as the kind declares (src/shared/itemChildren.ts
 * `purge`: comments go, time entries lose their notes). Also migration 0022's, for items purged before it.
 */
const ERASE_TRACES = sql`erased_entries AS (
    UPDATE activities a SET item_title = NULL, description = ${PURGED_LINE}, metadata = '{}'::jsonb
    FROM purged WHERE a.item_id = purged.id RETURNING 1),
  erased_notifications AS (
    UPDATE notifications n SET text = ${PURGED_LINE}, item_title = NULL
    FROM purged WHERE n.item_id = purged.id RETURNING 1),
  ${sql.join(
    ITEM_CHILDREN.map((child) => {
      const erased = sql.raw(`erased_${child.name}`);
      const table = sql.raw(child.name);
      const itemColumn = sql.raw(child.itemColumn);
      return child.purge.kind === 'delete'
        ? sql`${erased} AS (DELETE FROM ${table} c USING purged WHERE c.${itemColumn} = purged.id RETURNING 1)`
        : sql`${erased} AS (UPDATE ${table} c SET ${sql.raw(child.purge.columns.map((column) => `${column} = ''`).join(', '))}
            FROM purged WHERE c.${itemColumn} = purged.id RETURNING 1)`;
    }),
    sql`,
  `,
  )},
  erased_deliveries AS (
    DELETE FROM webhook_deliveries d USING purged WHERE d.item_id = purged.id RETURNING 1)`;

type Transactional = Executor & { transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> };

/**
 * Deletes what has expired, as of `now`: sessions past their expiry or idle limit (and retired
 * anonymous tokens, which carry their token's expiry), idempotency records older than 7 days, login
 * codes with no live code and no lock that have been quiet long enough to forget their wrong tries,
 * and rate buckets whose window is long over. Live rows stay.
 *
 * In one transaction holding a transaction-level advisory lock, so with many instances only one
 * sweeps at a time (the others get null); in bounded batches by primary key, each batch re-checking
 * its condition, so a row renewed meanwhile (a new code, a touched session) is never taken.
 */
export async function sweepExpired(
  db: Transactional,
  now: Date,
  options: SweepOptions = {},
): Promise<SweepResult | null> {
  const batch = options.batchSize ?? SWEEP_BATCH;
  const idempotencyBefore = new Date(now.getTime() - IDEMPOTENCY_KEEP_MS);
  const quietBefore = new Date(now.getTime() - Math.max(LOCKOUT_MS, WRONG_TRIES_FORGOTTEN_AFTER_MS));
  const bucketsBefore = new Date(now.getTime() - RATE_BUCKET_KEEP_MS);
  const idleBefore =
    options.sessionIdleMinutes === undefined
      ? null
      : new Date(now.getTime() - options.sessionIdleMinutes * 60_000);

  return db.transaction(async (tx) => {
    const [lock] = await rows<{ locked: boolean }>(
      tx,
      sql`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}::bigint) AS locked`,
    );
    if (!lock?.locked) return null;

    const drain = async (statement: () => ReturnType<typeof sql>) => {
      let total = 0;
      for (let i = 0; i < MAX_BATCHES; i++) {
        const deleted = (await rows<{ n: number }>(tx, statement())).length;
        total += deleted;
        if (deleted < batch) break;
      }
      return total;
    };

    const sessionGone =
      idleBefore === null
        ? sql`expires_at <= ${now}`
        : // A retired anonymous token's row (no user) keeps it retired until the token's own expiry.
          sql`(expires_at <= ${now} OR (last_seen_at <= ${idleBefore} AND user_id IS NOT NULL))`;
    const sessions = await drain(
      () => sql`DELETE FROM sessions WHERE ${sessionGone}
        AND id IN (SELECT id FROM sessions WHERE ${sessionGone} LIMIT ${batch})
        RETURNING 1 AS n`,
    );

    const idempotencyKeys = await drain(
      () => sql`DELETE FROM idempotency_keys WHERE created_at <= ${idempotencyBefore}
        AND (user_id, key) IN (
          SELECT user_id, key FROM idempotency_keys WHERE created_at <= ${idempotencyBefore} LIMIT ${batch})
        RETURNING 1 AS n`,
    );

    const codeGone = sql`(locked_until IS NULL OR locked_until <= ${now})
      AND (code_hash IS NULL OR expires_at IS NULL OR expires_at <= ${now})
      AND updated_at <= ${quietBefore}`;
    const loginCodes = await drain(
      () => sql`DELETE FROM login_codes WHERE ${codeGone}
        AND phone IN (SELECT phone FROM login_codes WHERE ${codeGone} LIMIT ${batch})
        RETURNING 1 AS n`,
    );

    // Passkey challenges nobody answered within their 5 minutes.
    await drain(
      () => sql`DELETE FROM webauthn_challenges WHERE expires_at <= ${now}
        AND challenge IN (SELECT challenge FROM webauthn_challenges WHERE expires_at <= ${now} LIMIT ${batch})
        RETURNING 1 AS n`,
    );

    // Single sign-ons started and never finished within their 10 minutes.
    await drain(
      () => sql`DELETE FROM oidc_logins WHERE expires_at <= ${now}
        AND state IN (SELECT state FROM oidc_logins WHERE expires_at <= ${now} LIMIT ${batch})
        RETURNING 1 AS n`,
    );

    const rateBuckets = await drain(
      () => sql`DELETE FROM rate_buckets WHERE window_started_at <= ${bucketsBefore}
        AND key IN (SELECT key FROM rate_buckets WHERE window_started_at <= ${bucketsBefore} LIMIT ${batch})
        RETURNING 1 AS n`,
    );

    // The trash keeps 30 days; after that what the item said is erased, and everything that repeats
    // it: its labels, its feed entries' titles and details, its notifications' lines, its comments,
    // its webhook deliveries' payloads (the deliveries themselves).
    // The row stays as the sync tombstone (id, uuid, deleted_at), untouched in change_xid: devices
    // have already been told, and took its comments away with it (K14).
    const purgeBefore = new Date(now.getTime() - TRASH_KEEP_MS);
    const purgeable = sql`deleted_at <= ${purgeBefore}
      AND (title <> '' OR description IS NOT NULL OR cardinality(labels) > 0)`;
    const purgedItems = await drain(
      () => sql`WITH purged AS (
          UPDATE items SET title = '', description = NULL, remind_at = NULL, labels = '{}' WHERE ${purgeable}
            AND id IN (SELECT id FROM items WHERE ${purgeable} LIMIT ${batch})
          RETURNING id),
        ${ERASE_TRACES}
        SELECT 1 AS n FROM purged`,
    );

    // The delivery log keeps 30 days: older deliveries go, payloads and all, finished or not. Taken
    // from the head of the table (ids grow with time), so a sweep reads at most a batch to learn
    // there is nothing to do, instead of every delivery of the last 30 days. A delivery about a
    // purged item went with it above (erased_deliveries), however young.
    const deliveriesBefore = new Date(now.getTime() - WEBHOOK_DELIVERY_KEEP_MS);
    const webhookDeliveries = await drain(
      () => sql`DELETE FROM webhook_deliveries WHERE id IN (
          SELECT id FROM (SELECT id, created_at FROM webhook_deliveries ORDER BY id LIMIT ${batch}) head
          WHERE created_at <= ${deliveriesBefore})
        RETURNING 1 AS n`,
    );

    // Mails out and in keep 30 days, from the head of their tables as the delivery log above; a
    // verification link that ran out goes at once.
    const mailBefore = new Date(now.getTime() - MAIL_KEEP_MS);
    const mails = await drain(
      () => sql`DELETE FROM email_outbox WHERE id IN (
          SELECT id FROM (SELECT id, created_at, status FROM email_outbox ORDER BY id LIMIT ${batch}) head
          WHERE created_at <= ${mailBefore} AND status <> 'pending')
        RETURNING 1 AS n`,
    );
    await drain(
      () => sql`DELETE FROM inbound_emails WHERE id IN (
          SELECT id FROM (SELECT id, received_at FROM inbound_emails ORDER BY id LIMIT ${batch}) head
          WHERE received_at <= ${mailBefore})
        RETURNING 1 AS n`,
    );
    await drain(
      () => sql`DELETE FROM email_verifications WHERE expires_at <= ${now}
        AND token_hash IN (SELECT token_hash FROM email_verifications WHERE expires_at <= ${now} LIMIT ${batch})
        RETURNING 1 AS n`,
    );
    return { sessions, idempotencyKeys, loginCodes, rateBuckets, purgedItems, webhookDeliveries, mails };
  });
}

/**
 * How often the file store's keys are walked for bytes no row names (attachments/purge.ts): a walk
 * lists every key (an S3 listing is a request per thousand), and bytes wait 30 days for it anyway.
 */
export const FILE_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** A delay around `ms`, give or take a quarter, so instances started together do not sweep together. */
const jittered = (ms: number) => Math.round(ms * (0.75 + Math.random() * 0.5));

/**
 * Sweeps every few minutes (the first time within a minute or two of start-up) on an unref'd timer,
 * so it never keeps the process alive. `stop` cancels the next run and waits for one in progress.
 */
export function startSweeper(options: {
  db: Transactional;
  log: FastifyBaseLogger;
  clock: () => Date;
  sessionIdleMinutes: number;
  intervalMs?: number;
  /** The store whose unnamed bytes go, once an hour (none: files are not swept). */
  files?: FileStore;
}): { stop(): Promise<void> } {
  const interval = options.intervalMs ?? SWEEP_INTERVAL_MS;
  let stopped = false;
  let filesPurgedAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const schedule = (ms: number) => {
    timer = setTimeout(run, jittered(ms));
    timer.unref();
  };
  const run = () => {
    running = sweepExpired(options.db, options.clock(), { sessionIdleMinutes: options.sessionIdleMinutes })
      .then(async (result) => {
        if (result && Object.values(result).some((n) => n > 0)) options.log.info({ swept: result }, 'swept');
        const now = options.clock();
        if (!result || !options.files || stopped || now.getTime() - filesPurgedAt < FILE_PURGE_INTERVAL_MS)
          return;
        filesPurgedAt = now.getTime();
        const files = await purgeUnnamedFiles(options.db, options.files, now);
        if (files.removed > 0 || files.spool > 0) options.log.info({ files }, 'unnamed files removed');
      })
      .catch((error) => {
        if (!stopped) options.log.warn({ err: error }, 'sweeping expired rows failed');
      })
      .finally(() => {
        running = null;
        if (!stopped) schedule(interval);
      });
  };
  schedule(Math.min(interval, 90_000));
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
