import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyKeySchema } from '../../shared/schemas';
import type { Database, Executor } from '../db/client';
import { pipelined, prepared, rows, sql } from '../db/client';
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
  /**
   * Shared campaigns whose members must hear of the write beyond those who see the items it changed:
   * a template or view shared with them, or unshared from them (SYNC.md L15).
   */
  campaigns?: number[];
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
 * A side effect of every write (ARCHITECTURE §6 'Side effects of a server write are registered, not
 * imported'): app.ts registers the list (the change bus, the push outbox, webhooks), so this funnel
 * names none of them. Called once per write for that write's hooks, which may keep its state.
 */
export type WriteEffect = (write: { userId: number }) => WriteEffectHooks;

/** One write's side effects; each list of hooks runs in the order the effects were registered. */
export interface WriteEffectHooks {
  /** Inside the write's transaction, after the write: what it does commits or rolls back with it. */
  afterWrite?: (tx: Executor, result: WriteResult) => Promise<void>;
  /**
   * Once the transaction ended, before any effect's `committed`: awaits what `afterWrite` sent
   * without waiting (on a pipelined connection, a read that went out with the COMMIT).
   */
  settled?: () => Promise<void>;
  /** After the commit; never for a replay, whose write rolled back or never ran. */
  committed?: (tx: Executor) => void;
}

/**
 * Runs a write in one transaction. With an `Idempotency-Key`, the (user, key) record is written in
 * that same transaction, so a repeat gets the recorded answer and never a second effect; the same key
 * with a different request is refused with 422. Concurrent repeats wait on the key's row lock. The
 * registered write effects run inside the transaction after the write, and after its commit.
 */
export async function runWrite(
  context: { database: Database; writeEffects: readonly WriteEffect[] },
  request: FastifyRequest,
  userId: number,
  write: (tx: Executor) => Promise<WriteResult>,
): Promise<WriteResult & { replayed: boolean }> {
  const { database } = context;
  const effects = context.writeEffects.map((effect) => effect({ userId }));
  let used: Executor | null = null;
  const token = request.session?.token?.id;
  const withEffects = async (tx: Executor) => {
    used = tx;
    // A token's write says so in every feed entry it makes (activities.via_token's default reads this
    // setting): the token's name as it is now, for this transaction only.
    if (token !== undefined)
      await tx.execute(
        sql`SELECT set_config('outpost.via_token', name, true) FROM personal_access_tokens WHERE id = ${token}`,
      );
    const result = await write(tx);
    for (const effect of effects) if (effect.afterWrite) await effect.afterWrite(tx, result);
    return result;
  };
  const outcome = await runRecorded(database, request, userId, withEffects);
  if (outcome.replayed) return outcome;
  for (const effect of effects) if (effect.settled) await effect.settled();
  // Set inside the callback, which TypeScript cannot follow.
  const committed = used as unknown as Executor;
  for (const effect of effects) effect.committed?.(committed);
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
    const { formerViewers: _, campaigns: __, ...recorded } = result;
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
      const { formerViewers: _, campaigns: __, ...recorded } = done.result;
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

/** Sends a write's answer as runWrite gave it: 204 bare, stored JSON as it was, else the body. */
export function sendWrite(reply: FastifyReply, result: WriteResult) {
  if (result.status === 204) return reply.status(204).send();
  if (result.json !== undefined) {
    return reply.status(result.status).type('application/json; charset=utf-8').send(result.json);
  }
  return reply.status(result.status).send(result.body);
}
