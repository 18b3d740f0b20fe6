import type { FastifyBaseLogger } from 'fastify';
import { nextRetryDelay, outcomeOf, ROTATION_OVERLAP_MS } from '../../shared/webhooks';
import { type Executor, rows, sql } from '../db/client';
import type { AppConfig } from '../env';
import { SingleDrain } from '../http/singleDrain';
import { postDelivery, type SendAnswer, signatureHeader } from './send';
import { webhookSignal } from './signal';

type Transactional = Executor & { transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> };

export type WebhookOptions = AppConfig['webhooks'];

/** A claimed delivery with what sending it needs. */
interface Claimed {
  id: number | string;
  webhook_id: number;
  webhook_message_id: string;
  payload: string;
  attempts: number;
  /** The lease as the database wrote it: a result is recorded only while the lease is still ours. */
  lease: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  rotated_at: Date | string | null;
}

/** Deliveries one instance sends at once, over every webhook. */
const MAX_IN_FLIGHT = 50;
/** Most answers one statement records. */
const RECORD_BATCH = 200;
/** The longest the sender sleeps without looking (a safety net for rows other instances left). */
const MAX_SLEEP_MS = 30_000;

const CLAIMED_COLUMNS = sql`d.id, d.webhook_id, d.webhook_message_id, d.payload, d.attempts,
  d.claimed_until::text AS lease, w.url, w.secret, w.previous_secret, w.rotated_at`;

/** A send's answer waiting to be recorded, and the deliver() that waits for it. */
interface ToRecord {
  delivery: Claimed;
  answer: SendAnswer;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What one send came to: delivered, tried again later, given up, or disabled by a 410. */
export type DeliveryResult = 'delivered' | 'retrying' | 'failed' | 'gone';

/**
 * Sends the webhook outbox (ARCHITECTURE §4 'Webhooks'), on every instance at once. A delivery is
 * claimed with `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so two senders never send it
 * at the same time, and one killed while sending leaves a lease that runs out: the delivery is sent
 * again (at least once). The webhooks' rows are locked while their deliveries in flight are counted,
 * so no endpoint gets more than `maxPerEndpoint` at once; a delivery waits while an earlier one for
 * the same item is pending, so one item's events arrive in order. Woken by this process's commits
 * that wrote deliveries (webhookSignal), by a finished delivery, and by a timer for the next retry.
 */
export class WebhookOutbox {
  private readonly drains = new SingleDrain(() => this.drain(), {
    failed: (error) => {
      if (!this.stopped) this.log.warn({ err: error }, 'webhook outbox drain failed');
    },
    rerun: () => this.poke(true),
    idle: () => void this.sleep(),
  });
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  private seenWrites = webhookSignal.writes;
  private readonly toRecord: ToRecord[] = [];
  private recording: Promise<void> | null = null;

  constructor(
    private readonly db: Transactional,
    private readonly options: WebhookOptions,
    private readonly log: FastifyBaseLogger,
    /** Told what came of each send (the metrics' outpost_webhook_deliveries_total). */
    private readonly onResult: (result: DeliveryResult) => void = () => {},
  ) {}

  /** Asks for a drain soon when this process wrote deliveries (or always with `force`). */
  poke(force = false): void {
    if (this.stopped) return;
    if (!force && webhookSignal.writes === this.seenWrites) return;
    this.seenWrites = webhookSignal.writes;
    this.drains.run();
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const room = MAX_IN_FLIGHT - this.inFlight.size;
      if (room <= 0) return;
      const claimed = await this.claim(room);
      for (const delivery of claimed) this.track(this.deliver(delivery).then(() => undefined));
      if (claimed.length < room) return;
    }
  }

  private track(sending: Promise<void>): void {
    const tracked: Promise<void> = sending
      .catch((error) => {
        if (!this.stopped) this.log.warn({ err: error }, 'a webhook delivery could not be recorded');
      })
      .finally(() => {
        this.inFlight.delete(tracked);
        // A slot of its endpoint, or the next event of its item, is free now.
        this.poke(true);
      });
    this.inFlight.add(tracked);
  }

  /** Claims up to `limit` due deliveries, at most maxPerEndpoint in flight per webhook over all instances. */
  private claim(limit: number): Promise<Claimed[]> {
    return this.db.transaction(async (tx) => {
      const candidates = await rows<{ id: number | string; webhook_id: number }>(
        tx,
        sql`SELECT d.id, d.webhook_id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
            WHERE d.status = 'pending' AND w.enabled AND d.next_attempt_at <= now()
              AND (d.claimed_until IS NULL OR d.claimed_until < now())
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                WHERE d.item_id IS NOT NULL AND e.webhook_id = d.webhook_id AND e.item_id = d.item_id
                  AND e.status = 'pending' AND e.id < d.id)
            ORDER BY d.id LIMIT ${limit * 2} FOR UPDATE OF d SKIP LOCKED`,
      );
      if (candidates.length === 0) return [];
      const hookIds = [...new Set(candidates.map((c) => c.webhook_id))].sort((a, b) => a - b);
      const hookList = `{${hookIds.join(',')}}`;
      // Counting the deliveries in flight under the webhooks' locks: two senders claiming for one
      // endpoint at once count one after the other, never both below the cap. NO KEY UPDATE, which
      // a write's outbox rows do not wait on: their foreign key takes KEY SHARE on the same rows.
      await tx.execute(
        sql`SELECT id FROM webhooks WHERE id = ANY(${hookList}::int[]) ORDER BY id FOR NO KEY UPDATE`,
      );
      const busy = await rows<{ webhook_id: number; n: number }>(
        tx,
        sql`SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries
            WHERE webhook_id = ANY(${hookList}::int[]) AND status = 'pending' AND claimed_until >= now()
            GROUP BY webhook_id`,
      );
      const used = new Map(busy.map((b) => [b.webhook_id, b.n]));
      const picked: string[] = [];
      for (const c of candidates) {
        if (picked.length >= limit) break;
        const n = used.get(c.webhook_id) ?? 0;
        if (n >= this.options.maxPerEndpoint) continue;
        used.set(c.webhook_id, n + 1);
        picked.push(String(c.id));
      }
      if (picked.length === 0) return [];
      return rows<Claimed>(
        tx,
        sql`WITH c AS (
              UPDATE webhook_deliveries SET claimed_until = now() + make_interval(secs => ${this.options.leaseMs / 1000})
              WHERE id = ANY(${`{${picked.join(',')}}`}::bigint[]) RETURNING *)
            SELECT ${CLAIMED_COLUMNS} FROM c d JOIN webhooks w ON w.id = d.webhook_id ORDER BY d.id`,
      );
    });
  }

  /** Sends one claimed delivery and records the answer (while the claim is still this sender's). */
  private async deliver(delivery: Claimed): Promise<SendAnswer> {
    const answer = await this.send(delivery);
    await this.record(delivery, answer);
    return answer;
  }

  private send(delivery: Claimed): Promise<SendAnswer> {
    const now = new Date();
    const secrets = [delivery.secret];
    if (
      delivery.previous_secret &&
      delivery.rotated_at &&
      now.getTime() - new Date(delivery.rotated_at).getTime() < ROTATION_OVERLAP_MS
    )
      secrets.push(delivery.previous_secret);
    return postDelivery(
      delivery.url,
      {
        'webhook-id': delivery.webhook_message_id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signatureHeader(secrets, delivery.webhook_message_id, now, delivery.payload),
        'user-agent': 'Outpost-Webhooks/1',
      },
      delivery.payload,
      this.options,
    );
  }

  /**
   * Records a send's answer. Answers that arrive while a write of earlier ones is under way wait and
   * go in the next one, so under load a sender writes its results a batch a statement, not a commit
   * a delivery (at 1,000 deliveries a second the commits were what made deliveries queue).
   */
  private record(delivery: Claimed, answer: SendAnswer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ delivery, answer, resolve, reject });
      if (!this.recording) this.startRecording();
    });
  }

  private startRecording(): void {
    this.recording = this.recordWaiting().finally(() => {
      this.recording = null;
      // Answers that came in after the last batch was taken.
      if (this.toRecord.length > 0) this.startRecording();
    });
  }

  private async recordWaiting(): Promise<void> {
    while (this.toRecord.length > 0) {
      const batch = this.toRecord.splice(0, RECORD_BATCH);
      try {
        await this.recordBatch(batch);
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
  }

  /** Writes the answers of a batch in one statement, each only while its claim is still this sender's. */
  private async recordBatch(batch: readonly ToRecord[]): Promise<void> {
    const results = batch.map(({ delivery, answer }) => {
      const outcome = outcomeOf(answer.status);
      const attempts = delivery.attempts + 1;
      const retryIn = outcome === 'failed' ? nextRetryDelay(attempts, this.options.retryScheduleMs) : null;
      const status =
        outcome === 'delivered'
          ? 'delivered'
          : outcome === 'failed' && retryIn !== null
            ? 'pending'
            : 'failed';
      return {
        id: String(delivery.id),
        webhook_id: delivery.webhook_id,
        status,
        gone: outcome === 'gone',
        attempts,
        code: answer.status === 0 ? null : answer.status,
        error:
          outcome === 'gone' ? 'The receiver answered 410 Gone: the webhook was disabled.' : answer.error,
        duration_ms: Math.round(answer.durationMs),
        retry_s: (retryIn ?? 0) / 1000,
        lease: delivery.lease,
      };
    });
    const updated = await rows<{ id: number | string }>(
      this.db,
      sql`UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempts, last_status_code = r.code,
            last_error = r.error, duration_ms = r.duration_ms, claimed_until = NULL,
            next_attempt_at = CASE WHEN r.status = 'pending'
              THEN now() + make_interval(secs => r.retry_s) ELSE d.next_attempt_at END
          FROM jsonb_to_recordset(${JSON.stringify(results)}::jsonb) AS r(id bigint, status text,
            attempts int, code int, error text, duration_ms int, retry_s double precision, lease text)
          WHERE d.id = r.id AND d.status = 'pending' AND d.claimed_until::text = r.lease
          RETURNING d.id`,
    );
    const written = new Set(updated.map((u) => String(u.id)));
    const gone: number[] = [];
    for (const result of results) {
      if (!written.has(result.id)) {
        this.log.info(
          { delivery: result.id },
          'a webhook delivery outlived its claim; its result is dropped',
        );
        continue;
      }
      this.onResult(
        result.gone ? 'gone' : result.status === 'pending' ? 'retrying' : (result.status as DeliveryResult),
      );
      if (result.gone) gone.push(result.webhook_id);
    }
    if (gone.length > 0) {
      await this.db.execute(
        sql`UPDATE webhooks SET enabled = false, disabled_reason = 'The receiver answered 410 Gone.'
            WHERE id = ANY(${`{${[...new Set(gone)].join(',')}}`}::int[])`,
      );
    }
  }

  /** Sends a delivery the caller has just written and claimed (the test event), and waits for it. */
  async sendNow(deliveryId: number): Promise<void> {
    const [delivery] = await rows<Claimed>(
      this.db,
      sql`SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
          WHERE d.id = ${deliveryId}`,
    );
    if (!delivery) return;
    const sending = this.deliver(delivery);
    this.track(sending.then(() => undefined));
    await sending;
  }

  /**
   * A manual Retry: sends delivery `deliveryId` now, whatever its status, and records only what the
   * receiver answered. Delivered is delivered; any other answer leaves the status, the attempt count
   * and the next automatic try as they were (the schedule is the automatic retries', and a person
   * pressing Retry must not spend or move it); a 410 disables the webhook as ever. A delivery a
   * sender holds right now is not sent twice: that send is the retry.
   */
  async sendManually(deliveryId: number): Promise<void> {
    const [delivery] = await rows<Claimed>(
      this.db,
      sql`WITH c AS (
            UPDATE webhook_deliveries SET claimed_until = now() + make_interval(secs => ${this.options.leaseMs / 1000})
            WHERE id = ${deliveryId} AND (claimed_until IS NULL OR claimed_until < now()) RETURNING *)
          SELECT ${CLAIMED_COLUMNS} FROM c d JOIN webhooks w ON w.id = d.webhook_id`,
    );
    if (!delivery) return;
    const sending = this.send(delivery).then((answer) => this.recordManual(delivery, answer));
    this.track(sending);
    await sending;
  }

  private async recordManual(delivery: Claimed, answer: SendAnswer): Promise<void> {
    const outcome = outcomeOf(answer.status);
    const [row] = await rows<{ status: string }>(
      this.db,
      sql`UPDATE webhook_deliveries SET
            status = CASE ${outcome}::text WHEN 'delivered' THEN 'delivered' WHEN 'gone' THEN 'failed' ELSE status END,
            last_status_code = ${answer.status === 0 ? null : answer.status},
            last_error = ${outcome === 'gone' ? 'The receiver answered 410 Gone: the webhook was disabled.' : answer.error},
            duration_ms = ${Math.round(answer.durationMs)}, claimed_until = NULL
          WHERE id = ${delivery.id} AND claimed_until::text = ${delivery.lease}
          RETURNING status`,
    );
    if (!row) {
      this.log.info(
        { delivery: delivery.id },
        'a webhook delivery outlived its claim; its result is dropped',
      );
      return;
    }
    this.onResult(
      outcome === 'gone' ? 'gone' : row.status === 'pending' ? 'retrying' : (row.status as DeliveryResult),
    );
    if (outcome === 'gone')
      await this.db.execute(
        sql`UPDATE webhooks SET enabled = false, disabled_reason = 'The receiver answered 410 Gone.'
            WHERE id = ${delivery.webhook_id}`,
      );
  }

  /** Sleeps until the next delivery is due (a retry, or a lease that runs out), at most MAX_SLEEP_MS. */
  private async sleep(): Promise<void> {
    if (this.stopped) return;
    let wait = MAX_SLEEP_MS;
    try {
      const [next] = await rows<{ ms: number | string | null }>(
        this.db,
        sql`SELECT extract(epoch FROM min(greatest(d.next_attempt_at, coalesce(d.claimed_until, d.next_attempt_at))) - now()) * 1000 AS ms
            FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
            WHERE d.status = 'pending' AND w.enabled`,
      );
      if (next?.ms !== null && next?.ms !== undefined) {
        const ms = Number(next.ms);
        // Due already but not claimed: it waits for a slot or an earlier event, which a finished
        // delivery (here or elsewhere) frees; look again shortly rather than spin.
        wait = Math.min(MAX_SLEEP_MS, ms <= 0 ? 1000 : Math.ceil(ms) + 5);
      }
    } catch (error) {
      if (!this.stopped) this.log.warn({ err: error }, 'webhook outbox could not look for its next delivery');
    }
    if (this.stopped || this.drains.current) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.poke(true);
    }, wait);
    this.timer.unref();
  }

  /** Stops sending; waits for the drain under way and the deliveries in flight (each has a timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.drains.current;
    await Promise.allSettled([...this.inFlight]);
    await this.recording;
  }
}
