import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Announcement } from '../../shared/fanout';
import { idempotencyKeySchema } from '../../shared/schemas';
import type { Database, Executor } from '../db/client';
import { pipelined, prepared, rows, sql } from '../db/client';
import { type ChangeBus, viewersOfChanges } from '../events/changeBus';
import { outboxSignal } from '../notifications/outboxSignal';
import { writeWebhookEvents } from '../webhooks/events';
import { webhookSignal } from '../webhooks/signal';
import { HttpError, unprocessable } from './errors';

/**
 * Idempotent writes (SYNC.md P1, P2). On PostgreSQL the statements of one write that do not wait on
 * each other's answers go out together on the transaction's connection (db/client.ts `inOrder`): its
 * BEGIN with the key's claim, the write's lock and read, the record of the answer with the read of who
 * sees the change and the COMMIT. The server still runs them in order, so a repeat's write runs and is
 * rolled back with the whole transaction before the recorded answer is read, and a statement that
 * fails aborts the transaction, so the COMMIT behind it rolls back (db/transactions.test.ts).
 */

export interface WriteResult {
  status: number;
  body: unknown;
  /**
   * Users to tell beyond those who see what the write changed: who saw the item before and may no
   * longer (an unassignment, a move), or whom the write concerns otherwise (new mutual contacts).
   */
  formerViewers?: number[];
  /** `body` as JSON, when it was already made for the record: the answer sends it as it is. */
  json?: string;
}

/**
 * A stable text for any JSON value: object keys sorted, so key order never changes a fingerprint.
 * Iterative, with its own stack: a body nested thousands deep (which the JSON parser accepts) must
 * hash like any other, not overflow the call stack into a 5xx.
 */
function canonical(root: unknown): string {
  type Work = { text: string } | { value: unknown };
  const out: string[] = [];
  const stack: Work[] = [{ value: root }];
  for (let work = stack.pop(); work !== undefined; work = stack.pop()) {
    if ('text' in work) {
      out.push(work.text);
      continue;
    }
    const { value } = work;
    let parts: Work[];
    if (Array.isArray(value)) {
      parts = value.flatMap((v, i): Work[] => (i === 0 ? [{ value: v }] : [{ text: ',' }, { value: v }]));
      parts = [{ text: '[' }, ...parts, { text: ']' }];
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
      parts = entries.flatMap(([k, v], i): Work[] => [
        { text: `${i === 0 ? '' : ','}${JSON.stringify(k)}:` },
        { value: v },
      ]);
      parts = [{ text: '{' }, ...parts, { text: '}' }];
    } else {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i] as Work);
  }
  return out.join('');
}

/**
 * Runs a write in one transaction. With an `Idempotency-Key`, the (user, key) record is written in
 * that same transaction, so a repeat gets the recorded answer and never a second effect; the same key
 * with a different request is refused with 422. Concurrent repeats wait on the key's row lock.
 */
export async function runWrite(
  context: { database: Database; changes: ChangeBus },
  request: FastifyRequest,
  userId: number,
  write: (tx: Executor) => Promise<WriteResult>,
): Promise<WriteResult & { replayed: boolean }> {
  const { database, changes } = context;
  let viewers: number[] = [];
  let campaigns: readonly number[] = [];
  let formerViewers: number[] = [];
  /** On a pipelined connection: the viewers' read, sent with the record and the COMMIT behind it. */
  let found: Promise<Announcement> | null = null;
  // Every write tells the users who see what it changed; the bus delivers only what commits.
  let used: Executor | null = null;
  const announced = async (tx: Executor) => {
    used = tx;
    const result = await write(tx);
    // The webhooks' outbox rows of the events the write noted, in its transaction (webhooks/events.ts).
    if (await writeWebhookEvents(tx)) webhookSignal.mark(tx);
    formerViewers = result.formerViewers ?? [];
    if (pipelined(tx)) {
      // Not waited for: it reads what this transaction wrote, whatever follows it. A failure aborts
      // the transaction, so its COMMIT rolls back and the record's failure is thrown (runRecorded).
      found = viewersOfChanges(tx);
      found.catch(() => undefined);
      return result;
    }
    const audience = await viewersOfChanges(tx);
    // The writer too: its own reads must not meet a cached answer while its campaign's members are
    // still being looked up (E4).
    viewers = [...new Set([...audience.users, ...formerViewers, userId])];
    campaigns = audience.campaigns;
    await changes.announce(tx, viewers);
    return result;
  };
  const outcome = await runRecorded(database, request, userId, announced);
  if (outcome.replayed) return outcome;
  // Set inside the callback, which TypeScript cannot follow.
  const pipelinedAudience = found as Promise<Announcement> | null;
  if (pipelinedAudience) {
    const audience = await pipelinedAudience;
    viewers = [...new Set([...audience.users, ...formerViewers, userId])];
    campaigns = audience.campaigns;
  }
  // Committed: entries it wrote for push count now, before the commit's listeners poke the outbox.
  outboxSignal.committed(used);
  webhookSignal.committed(used);
  changes.committed(viewers, campaigns);
  return outcome;
}

// Every write with a key runs both: built once (db/client.ts `prepared`).
const claimKey = prepared(
  (userId: number, key: string, fingerprint: string) =>
    sql`INSERT INTO idempotency_keys (user_id, key, fingerprint, status)
        VALUES (${userId}, ${key}, ${fingerprint}, 0)
        ON CONFLICT DO NOTHING RETURNING key`,
);
const recordAnswer = prepared(
  (status: number, body: string, userId: number, key: string) =>
    sql`UPDATE idempotency_keys SET status = ${status}, body = ${body}::jsonb
        WHERE user_id = ${userId} AND key = ${key}`,
);

async function runRecorded(
  database: Database,
  request: FastifyRequest,
  userId: number,
  write: (tx: Executor) => Promise<WriteResult>,
): Promise<WriteResult & { replayed: boolean }> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    return { ...(await database.db.transaction((tx) => write(tx))), replayed: false };
  }
  const parsedKey = idempotencyKeySchema.safeParse(header);
  if (!parsedKey.success) {
    throw unprocessable({ 'Idempotency-Key': parsedKey.error.issues.map((i) => i.message) });
  }
  const key = parsedKey.data;
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonical(request.body ?? null)}`)
    .digest('hex');

  const answerRepeat = async (tx: Executor) => {
    const [record] = await rows<{ fingerprint: string; status: number; body: unknown }>(
      tx,
      sql`SELECT fingerprint, status, body FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`,
    );
    if (!record || record.fingerprint !== fingerprint) {
      throw new HttpError(422, 'This Idempotency-Key was already used for a different request.', {
        errors: { 'Idempotency-Key': ['Already used for a different request.'] },
      });
    }
    return { status: record.status, body: record.body, replayed: true };
  };
  const recordAndAnswer = async (tx: Executor, result: WriteResult) => {
    const json = JSON.stringify(result.body ?? null);
    await tx.execute(recordAnswer(result.status, json, userId, key));
    const { formerViewers: _, ...recorded } = result;
    return { ...recorded, json, replayed: false };
  };

  /** The pipelined path's record, sent with the COMMIT right behind it (see below). */
  let recording: Promise<unknown> | null = null;
  try {
    const outcome = await database.db.transaction(async (tx) => {
      const claim = rows<{ key: string }>(tx, claimKey(userId, key, fingerprint));
      if (!pipelined(tx)) {
        if ((await claim).length === 0) return answerRepeat(tx);
        return recordAndAnswer(tx, await write(tx));
      }
      // On a pipelined connection (PostgreSQL) the write's first statements go out right behind the
      // claim, one round trip instead of two. The write is always let finish (nothing of it may reach
      // the connection after this transaction ends), then the claim decides: a repeat rolls the whole
      // transaction back, the write's effects with it, and is answered from the record below.
      claim.catch(() => undefined);
      const attempt = write(tx).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      const done = await attempt;
      // The claim's own failure first: the write's is then only 'transaction aborted'.
      if ((await claim).length === 0) throw REPEAT;
      if ('error' in done) throw done.error;
      // Not waited for here: the COMMIT goes out right behind it. A record that fails aborts the
      // transaction, and PostgreSQL then answers that COMMIT by rolling back, so nothing is written;
      // the failure is thrown once the transaction has ended (below), and no change is announced.
      const json = JSON.stringify(done.result.body ?? null);
      recording = tx.execute(recordAnswer(done.result.status, json, userId, key));
      recording.catch(() => undefined);
      const { formerViewers: _, ...recorded } = done.result;
      return { ...recorded, json, replayed: false };
    });
    if (recording) await recording;
    return outcome;
  } catch (error) {
    if (error !== REPEAT) throw error;
    return answerRepeat(database.db);
  }
}

/** Thrown to roll back a write whose key turned out to be a repeat's (see runRecorded). */
const REPEAT = new Error('Idempotency-Key repeat');
