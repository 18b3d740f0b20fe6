import type { FastifyBaseLogger } from 'fastify';
import { EMAIL_KIND_LABELS, emailKindOf, emailKindsWith } from '../../shared/email';
import type { ItemType } from '../../shared/item';
import { itemRoute } from '../../shared/notifications';
import { type Executor, rows, sql } from '../db/client';
import type { EmailConfig } from '../env';
import { SingleDrain } from '../http/singleDrain';
import { visibleTo } from '../items/queries';
import { outboxSignal } from '../notifications/outboxSignal';
import type { Mailer, SendOutcome } from './mailer';
import { type MailItem, notificationReason, renderDigestMail, renderNotificationMail } from './render';
import { replyLocalPart } from './replyAddress';
import { enqueueMail, type OutboxRow } from './store';
import { unsubscribeToken } from './unsubscribeToken';

type Transactional = Executor & { transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> };

/** Notifications older than this when the mailer reaches them are not mailed: news that late is noise. */
const STALE_MS = 60 * 60 * 1000;
/** Notifications turned into mail per statement. */
const TRANSFER_BATCH = 200;
/** Mails one instance has with the SMTP server at once (the pool holds 3 connections). */
const MAX_IN_FLIGHT = 10;
/** Most send results one statement records. */
const RECORD_BATCH = 200;
/** After a commit anywhere, the mailer looks at most this often (a claim query, not one per commit). */
const SOON_MS = 1000;

/** What came of one send, as the outbox row records it. */
interface MailResult {
  id: string;
  status: 'sent' | 'pending' | 'failed';
  attempts: number;
  error: string | null;
  retry_s: number;
  lease: string;
}

/** Items a digest lists; past them it says how many more. */
const DIGEST_ITEMS = 50;

/** What the mailer needs besides the database. */
export interface EmailOutboxOptions {
  config: EmailConfig;
  /** `https://outpost.example.com`, for links. */
  origin: string;
  replyKey: () => Promise<Buffer>;
  /** Null when SMTP_URL is not set: nothing is sent, notifications are only marked. */
  mailer: Mailer | null;
  clock: () => Date;
  /** Told of each send the SMTP server did not take (the metrics' outpost_email_failures_total). */
  onFailure: (kind: string) => void;
}

interface Claimed {
  id: number | string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string>;
  attempts: number;
  lease: string;
}

interface Transferred {
  id: number;
  user_id: number;
  kind: string;
  text: string;
  item_id: number | null;
  item_type: ItemType | null;
  item_title: string | null;
  fresh: boolean;
  /** The person's verified address; null without one (the entry is only marked). */
  email: string | null;
  kinds: Record<string, unknown> | null;
}

/**
 * For each of `itemIds`, the titles of its parent and grandparent that `userId` may see, outermost
 * first: a breadcrumb never names a campaign the reader is not in.
 */
async function visibleAncestors(
  db: Executor,
  userId: number,
  itemIds: readonly number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (itemIds.length === 0) return out;
  const list = `{${itemIds.join(',')}}`;
  const found = await rows<{ child: number; depth: number; title: string }>(
    db,
    sql`WITH up AS (
          SELECT c.id AS child, 1 AS depth, c.parent_id AS ancestor FROM items c WHERE c.id = ANY(${list}::int[])
          UNION ALL
          SELECT c.id, 2, p.parent_id FROM items c JOIN items p ON p.id = c.parent_id WHERE c.id = ANY(${list}::int[]))
        SELECT up.child, up.depth, i.title FROM up JOIN items i ON i.id = up.ancestor
        WHERE i.deleted_at IS NULL AND ${visibleTo(userId)}
        ORDER BY up.child, up.depth DESC`,
  );
  for (const row of found) out.set(row.child, [...(out.get(row.child) ?? []), row.title]);
  return out;
}

/**
 * The email outbox (ARCHITECTURE §4 'Email'), on every instance at once, with the webhook outbox's
 * rules: notifications committed with `emailed_at` null are claimed (`FOR UPDATE SKIP LOCKED`) and
 * turned into rendered outbox rows in the same transaction, so each is mailed at most once and none
 * is lost to a crash; outbox rows are sent under a lease, retried on the schedule, and every failure
 * is counted and logged with the SMTP server's answer. The digest's row is keyed by person and local
 * day, so exactly one goes out a day across instances and restarts.
 */
export class EmailOutbox {
  private readonly drains = new SingleDrain(() => this.drain(), {
    failed: (error) => {
      if (!this.stopped) this.log.warn({ err: error }, 'email outbox drain failed');
    },
    rerun: () => this.poke(true),
  });
  private stopped = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  private seenWrites = outboxSignal.writes;
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly toRecord: {
    result: MailResult;
    resolve: (written: boolean) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private recording: Promise<void> | null = null;
  private soon: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly db: Transactional,
    private readonly options: EmailOutboxOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts the tick: due digests, retries, and work another instance left behind. */
  start(): void {
    const { tickMs } = this.options.config;
    if (tickMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      void this.runDigests(this.options.clock()).catch((error) => {
        if (!this.stopped) this.log.warn({ err: error }, 'email digests could not be prepared');
      });
      this.poke(true);
    }, tickMs);
    this.timer.unref();
  }

  /** Asks for a drain soon when this process committed notifications (or always with `force`). */
  poke(force = false): void {
    if (this.stopped) return;
    if (!force && outboxSignal.writes === this.seenWrites) return;
    this.seenWrites = outboxSignal.writes;
    this.drains.run();
  }

  /**
   * After any commit (here or, through the change bus, on another instance): a look within a second,
   * however many commits there were meanwhile. Notifications do not say whether their person has an
   * address (that lookup would be write-path work), so the mailer asks, at most once a second.
   */
  pokeSoon(): void {
    if (this.stopped || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.poke(true);
    }, SOON_MS);
    this.soon.unref();
  }

  /** Resolves once the outbox has nothing to do right now (tests). */
  async settled(): Promise<void> {
    while (this.drains.current || this.inFlight.size > 0 || this.recording) {
      await this.drains.current;
      await Promise.allSettled([...this.inFlight]);
      await this.recording;
    }
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const moved = await this.transfer();
      if (moved < TRANSFER_BATCH) break;
    }
    if (!this.options.mailer) return;
    while (!this.stopped) {
      const room = MAX_IN_FLIGHT - this.inFlight.size;
      if (room <= 0) return;
      const claimed = await this.claim(room);
      for (const mail of claimed) this.track(this.deliver(mail, true).then(() => undefined));
      if (claimed.length < room) return;
    }
  }

  private track(sending: Promise<void>): void {
    const tracked: Promise<void> = sending
      .catch((error) => {
        if (!this.stopped) this.log.warn({ err: error }, 'a mail could not be recorded');
      })
      .finally(() => {
        this.inFlight.delete(tracked);
        this.poke(true);
      });
    this.inFlight.add(tracked);
  }

  /**
   * Claims committed notifications not yet looked at and writes the mails they make, in one
   * transaction. Without a mailer they are only marked: nothing waits to be sent.
   */
  private async transfer(): Promise<number> {
    // Read before the transaction: the embedded database has one connection, which the transaction holds.
    const key =
      this.options.mailer && this.options.config.inbound.domain ? await this.options.replyKey() : null;
    const mailing = this.options.mailer !== null;
    const batch = this.options.config.batchMs / 1000;
    return this.db.transaction(async (tx) => {
      const claimed = await rows<Transferred>(
        tx,
        sql`WITH c AS (
              UPDATE notifications n SET emailed_at = now()
              WHERE n.id IN (SELECT id FROM notifications WHERE emailed_at IS NULL
                AND (${mailing} = false OR kind <> 'assigned' OR updated_at <= now() - make_interval(secs => ${batch}))
                ORDER BY created_at, id LIMIT ${TRANSFER_BATCH} FOR UPDATE SKIP LOCKED)
              RETURNING n.id, n.user_id, n.kind, n.text, n.item_id, n.item_type, n.item_title, n.created_at)
            SELECT c.id, c.user_id, c.kind, c.text, c.item_id, c.item_type, c.item_title,
              c.created_at > now() - make_interval(secs => ${STALE_MS / 1000}) AS fresh, e.email, p.kinds
            FROM c LEFT JOIN user_emails e ON e.user_id = c.user_id AND e.verified_at IS NOT NULL
            LEFT JOIN email_preferences p ON p.user_id = c.user_id`,
      );
      if (!this.options.mailer) return claimed.length;
      const wanted = claimed.filter((c) => {
        const kind = emailKindOf(c.kind);
        return c.email !== null && c.fresh && kind !== null && emailKindsWith(c.kinds ?? {})[kind];
      });
      if (wanted.length > 0) await enqueueMail(tx, await this.notificationMails(tx, wanted, key));
      return claimed.length;
    });
  }

  private async notificationMails(
    tx: Executor,
    entries: readonly Transferred[],
    key: Buffer | null,
  ): Promise<OutboxRow[]> {
    const { origin, config } = this.options;
    const out: OutboxRow[] = [];
    const byUser = new Map<number, Transferred[]>();
    for (const e of entries) byUser.set(e.user_id, [...(byUser.get(e.user_id) ?? []), e]);
    for (const [userId, own] of byUser) {
      const itemIds = own.map((e) => e.item_id).filter((id): id is number => id !== null);
      const ancestors = await visibleAncestors(tx, userId, itemIds);
      for (const e of own) {
        const kind = emailKindOf(e.kind) ?? 'assigned';
        const item =
          e.item_id !== null && e.item_type !== null
            ? { id: e.item_id, type: e.item_type, title: e.item_title ?? '' }
            : null;
        const canReply = key !== null && item !== null && e.kind !== 'deleted' && e.kind !== 'removed';
        const rendered = renderNotificationMail({
          text: e.text,
          item: item ? { ...item, breadcrumb: ancestors.get(item.id) ?? [] } : null,
          url: `${origin}${item ? itemRoute(item) : '/notifications'}`,
          reason: notificationReason(EMAIL_KIND_LABELS[kind].label),
          preferencesUrl: `${origin}/preferences#email`,
          canReply,
        });
        const headers: Record<string, string> = {
          'Auto-Submitted': 'auto-generated',
          'X-Outpost-Kind': e.kind,
        };
        // One thread per item in the reader's mail program.
        if (item) headers.References = `<item-${item.id}@${new URL(origin).hostname}>`;
        if (canReply && key && item)
          headers['Reply-To'] = `${replyLocalPart(key, userId, item.id)}@${config.inbound.domain}`;
        out.push({
          userId,
          kind: 'notification',
          dedupeKey: `notification:${e.id}`,
          to: e.email ?? '',
          ...rendered,
          headers,
        });
      }
    }
    return out;
  }

  /**
   * Writes the digests due at `at`: for each person whose chosen local hour it is and who has no
   * digest for that local day yet, the row keyed `digest:{person}:{day}` (ON CONFLICT DO NOTHING, so
   * two instances, or one restarted within the hour, write one). A day with nothing overdue or due
   * writes a 'skipped' row and sends nothing.
   */
  async runDigests(at: Date): Promise<number> {
    if (!this.options.mailer) return 0;
    const instant = at.toISOString();
    const due = await rows<{ user_id: number; email: string; today: string }>(
      this.db,
      sql`SELECT p.user_id, e.email,
            to_char((${instant}::timestamptz AT TIME ZONE p.time_zone)::date, 'YYYY-MM-DD') AS today
          FROM email_preferences p JOIN user_emails e ON e.user_id = p.user_id AND e.verified_at IS NOT NULL
          WHERE p.digest_hour IS NOT NULL
            AND extract(hour FROM ${instant}::timestamptz AT TIME ZONE p.time_zone) = p.digest_hour
            AND NOT EXISTS (SELECT 1 FROM email_outbox o WHERE o.dedupe_key = 'digest:' || p.user_id || ':'
              || to_char((${instant}::timestamptz AT TIME ZONE p.time_zone)::date, 'YYYY-MM-DD'))
          ORDER BY p.user_id LIMIT 500`,
    );
    let written = 0;
    for (const person of due) {
      const row = await this.digestOf(person.user_id, person.email, person.today);
      written += (await enqueueMail(this.db, [row])).length;
    }
    if (written > 0) this.poke(true);
    return written;
  }

  private async digestOf(userId: number, email: string, today: string): Promise<OutboxRow> {
    const { origin } = this.options;
    const me = sql`${userId}`;
    const found = await rows<{ id: number; type: ItemType; title: string; due: string; priority: number }>(
      this.db,
      sql`SELECT i.id, i.type, i.title, to_char(i.due_date, 'YYYY-MM-DD') AS due, i.priority FROM items i
          WHERE (i.user_id = ${me} OR i.assigned_to = ${me}) AND i.deleted_at IS NULL AND i.status <> 'completed'
            AND i.due_date IS NOT NULL AND i.due_date <= ${today}::date AND ${visibleTo(userId)}
          ORDER BY i.due_date, i.priority, i.sort_key COLLATE "C", i.id LIMIT ${DIGEST_ITEMS + 1}`,
    );
    const dedupeKey = `digest:${userId}:${today}`;
    if (found.length === 0)
      return {
        userId,
        kind: 'digest',
        dedupeKey,
        to: email,
        subject: '',
        text: '',
        html: '',
        headers: {},
        status: 'skipped',
      };
    const [counted] = await rows<{ n: number }>(
      this.db,
      sql`SELECT count(*)::int AS n FROM items i
          WHERE (i.user_id = ${me} OR i.assigned_to = ${me}) AND i.deleted_at IS NULL AND i.status <> 'completed'
            AND i.due_date IS NOT NULL AND i.due_date <= ${today}::date AND ${visibleTo(userId)}`,
    );
    const shown = found.slice(0, DIGEST_ITEMS);
    const ancestors = await visibleAncestors(
      this.db,
      userId,
      shown.map((i) => i.id),
    );
    const items: (MailItem & { id: number })[] = shown.map((i) => ({
      id: i.id,
      title: i.title,
      type: i.type,
      url: `${origin}${itemRoute(i)}`,
      due_date: i.due,
      priority: i.priority,
      breadcrumb: ancestors.get(i.id) ?? [],
    }));
    const unsubscribeUrl = `${origin}/api/email/unsubscribe?token=${unsubscribeToken(await this.options.replyKey(), userId)}`;
    const dayLabel = new Intl.DateTimeFormat('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${today}T12:00:00Z`));
    const rendered = renderDigestMail({
      today,
      dayLabel,
      overdue: items.filter((i) => (i.due_date ?? '') < today),
      dueToday: items.filter((i) => i.due_date === today),
      more: Math.max(0, (counted?.n ?? shown.length) - shown.length),
      todayUrl: `${origin}/today`,
      unsubscribeUrl,
      preferencesUrl: `${origin}/preferences#email`,
    });
    return {
      userId,
      kind: 'digest',
      dedupeKey,
      to: email,
      ...rendered,
      headers: {
        'Auto-Submitted': 'auto-generated',
        'X-Outpost-Kind': 'digest',
        // RFC 2369 and RFC 8058: mail programs offer one-click unsubscribe, which POSTs here.
        'List-Unsubscribe': `<${unsubscribeUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'List-Id': `Outpost daily digest <digest.${new URL(origin).hostname}>`,
      },
    };
  }

  private claim(limit: number): Promise<Claimed[]> {
    const lease = this.options.config.leaseMs / 1000;
    return rows<Claimed>(
      this.db,
      sql`UPDATE email_outbox o SET claimed_until = now() + make_interval(secs => ${lease})
          WHERE o.id IN (SELECT id FROM email_outbox WHERE status = 'pending' AND next_attempt_at <= now()
            AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING o.id, o.kind, o.to_address, o.subject, o.text_body, o.html_body, o.headers, o.attempts,
            o.claimed_until::text AS lease`,
    );
  }

  /** Sends one claimed mail and records the answer while the claim is still this sender's. */
  private async deliver(mail: Claimed, retry: boolean): Promise<SendOutcome> {
    const mailer = this.options.mailer;
    if (!mailer)
      return { ok: false, permanent: false, error: 'This server does not send email.', code: null };
    const { 'Reply-To': replyTo, ...headers } = mail.headers;
    const outcome = await mailer.send({
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
      headers,
      ...(replyTo ? { replyTo } : {}),
    });
    const attempts = mail.attempts + 1;
    const schedule = this.options.config.retryScheduleMs;
    const retryIn = !outcome.ok && retry && !outcome.permanent ? schedule[attempts - 1] : undefined;
    const status = outcome.ok ? 'sent' : retryIn !== undefined ? 'pending' : 'failed';
    const written = await this.record({
      id: String(mail.id),
      status,
      attempts,
      error: outcome.ok ? null : outcome.error,
      retry_s: (retryIn ?? 0) / 1000,
      lease: mail.lease,
    });
    if (!written) this.log.info({ mail: mail.id }, 'a mail outlived its claim; its result is dropped');
    else if (status === 'pending' && retryIn !== undefined) this.wakeIn(retryIn);
    if (!outcome.ok) {
      this.options.onFailure(mail.kind);
      this.log.warn(
        {
          mail: String(mail.id),
          kind: mail.kind,
          attempt: attempts,
          smtp: outcome.error,
          retrying: status === 'pending',
        },
        'the SMTP server did not take a mail',
      );
    }
    return outcome;
  }

  /**
   * Records a send's answer; answers that arrive while a write of earlier ones is under way go in
   * the next one, so 50 mails sent together are one statement and one commit, not fifty (each commit
   * is a WAL flush the writes of everyone else wait behind). Resolves whether the claim was still ours.
   */
  private record(result: MailResult): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ result, resolve, reject });
      if (!this.recording) this.startRecording();
    });
  }

  private startRecording(): void {
    this.recording = this.recordWaiting().finally(() => {
      this.recording = null;
      if (this.toRecord.length > 0) this.startRecording();
    });
  }

  private async recordWaiting(): Promise<void> {
    while (this.toRecord.length > 0) {
      const batch = this.toRecord.splice(0, RECORD_BATCH);
      try {
        const updated = await rows<{ id: string }>(
          this.db,
          sql`UPDATE email_outbox o SET status = r.status, attempts = r.attempts, claimed_until = NULL,
                last_error = r.error, sent_at = CASE WHEN r.status = 'sent' THEN now() ELSE o.sent_at END,
                next_attempt_at = now() + make_interval(secs => r.retry_s)
              FROM jsonb_to_recordset(${JSON.stringify(batch.map((b) => b.result))}::jsonb)
                AS r(id bigint, status text, attempts int, error text, retry_s double precision, lease text)
              WHERE o.id = r.id AND o.status = 'pending' AND o.claimed_until::text = r.lease
              RETURNING o.id::text AS id`,
        );
        const written = new Set(updated.map((u) => u.id));
        for (const waiting of batch) waiting.resolve(written.has(waiting.result.id));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
  }

  /** Looks again when a retry is due (the tick would too, later; a crash leaves it to another instance's). */
  private wakeIn(ms: number): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.poke(true);
    }, ms + 20);
    timer.unref();
    this.retryTimers.add(timer);
  }

  /**
   * Writes a mail already claimed by this sender and sends it now, answering what the SMTP server
   * said (no retries). Written unclaimed, another instance's look after the commit could take it
   * first and this one would have nothing to send (a fresh-clone CI caught exactly that).
   */
  async sendNew(message: OutboxRow): Promise<SendOutcome> {
    const lease = this.options.config.leaseMs / 1000;
    const [mail] = await rows<Claimed>(
      this.db,
      sql`INSERT INTO email_outbox (user_id, kind, dedupe_key, to_address, subject, text_body, html_body, headers, claimed_until)
          VALUES (${message.userId}, ${message.kind}, ${message.dedupeKey}, ${message.to}, ${message.subject},
            ${message.text}, ${message.html}, ${JSON.stringify(message.headers)}::jsonb, now() + make_interval(secs => ${lease}))
          RETURNING id, kind, to_address, subject, text_body, html_body, headers, attempts,
            claimed_until::text AS lease`,
    );
    if (!mail) return { ok: false, permanent: false, error: 'The mail could not be written.', code: null };
    const sending = this.deliver(mail, false);
    this.track(sending.then(() => undefined));
    return sending;
  }

  /** Stops the tick and the drains; waits for the mails in flight (each has a timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    await this.drains.current;
    await Promise.allSettled([...this.inFlight]);
    await this.recording;
    this.options.mailer?.close();
  }
}
