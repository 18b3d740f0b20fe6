import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Database, rows, sql } from '../db/client';

/** Seconds: from a cached read (~1 ms) to a slow import; Prometheus's default buckets stop at 10 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The route label of a request no route matched: one value, so a scan of random paths adds no series. */
export const UNMATCHED_ROUTE = 'unmatched';
/**
 * What came of an upload: stored (a new file), repeated (its uuid's file was there: nothing stored),
 * too_large (413), refused (any other 4xx: not allowed, not a form, no item), failed (the server or
 * its file store failed: a 5xx). A fixed set, so the label adds five series at most.
 */
export const UPLOAD_RESULTS = ['stored', 'repeated', 'too_large', 'refused', 'failed'] as const;
export type UploadResult = (typeof UPLOAD_RESULTS)[number];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One app's metrics, in a registry of its own (tests build many apps in one process). */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status'>;
  eventStreams: Gauge;
  syncPullRows: Counter;
  /** Webhook sends by what came of them: delivered, retrying (a retry is scheduled), failed, gone (410). */
  webhookDeliveries: Counter<'result'>;
  /** Uploads of files to items by what came of them (UPLOAD_RESULTS). */
  attachmentUploads: Counter<'result'>;
  /** Mails the SMTP server did not take, by what they were: notification, digest, verify, test. */
  emailFailures: Counter<'kind'>;
  /** Records one answered request; `route` is the matched pattern (never the raw path), or undefined. */
  observe(route: string | undefined, method: string, status: number, seconds: number): void;
}

/**
 * The metrics of ARCHITECTURE §4 'Running it', named and labelled by Prometheus's conventions.
 * `defaults` adds prom-client's process
 * metrics (CPU, memory, event-loop lag, handles), which start an event-loop monitor: only for an app
 * that serves /metrics.
 */
export function createMetrics(database: Database, log: (error: unknown) => void, defaults: boolean): Metrics {
  const registry = new Registry();
  if (defaults) collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [...DURATION_BUCKETS],
    registers: [registry],
  });
  const eventStreams = new Gauge({
    name: 'outpost_event_streams',
    help: 'Event streams (GET /api/events) open on this instance.',
    registers: [registry],
  });
  const syncPullRows = new Counter({
    name: 'outpost_sync_pull_rows_total',
    help: 'Rows (items, tombstones, comments) sent in /api/sync pages by this instance.',
    registers: [registry],
  });
  new Gauge({
    name: 'outpost_push_outbox_depth',
    help: 'Notifications waiting to be sent as Web Push (pushed_at null), over every instance.',
    registers: [registry],
    async collect() {
      try {
        const [found] = await rows<{ n: number | string }>(
          database.db,
          sql`SELECT count(*) AS n FROM notifications WHERE pushed_at IS NULL`,
        );
        this.set(Number(found?.n ?? 0));
      } catch (error) {
        // A scrape while the database is away still answers, with the process metrics.
        log(error);
      }
    },
  });
  const webhookDeliveries = new Counter({
    name: 'outpost_webhook_deliveries_total',
    help: 'Webhook deliveries sent by this instance, by result: delivered, retrying, failed, gone.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const attachmentUploads = new Counter({
    name: 'outpost_attachment_uploads_total',
    help: 'File uploads to items on this instance, by result: stored, repeated, too_large, refused, failed.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const emailFailures = new Counter({
    name: 'outpost_email_failures_total',
    help: 'Sends the SMTP server did not take on this instance (each try counts), by kind: notification, digest, verify, test. The log has the server’s answer.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'outpost_email_outbox_depth',
    help: 'Mails waiting to be sent (pending, retries included), over every instance.',
    registers: [registry],
    async collect() {
      try {
        const [row] = await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM email_outbox WHERE status = 'pending'`,
        );
        this.set(row?.n ?? 0);
      } catch (error) {
        log(error);
      }
    },
  });
  new Gauge({
    name: 'outpost_webhook_outbox_depth',
    help: 'Webhook deliveries waiting to be sent (pending, of enabled webhooks), over every instance.',
    registers: [registry],
    async collect() {
      try {
        const [found] = await rows<{ n: number | string }>(
          database.db,
          sql`SELECT count(*) AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
              WHERE d.status = 'pending' AND w.enabled`,
        );
        this.set(Number(found?.n ?? 0));
      } catch (error) {
        log(error);
      }
    },
  });
  new Gauge({
    name: 'outpost_db_pool_waiting',
    help: 'Queries waiting for a database connection on this instance (PostgreSQL: the pool; embedded: the one session).',
    registers: [registry],
    collect() {
      this.set(database.waiting());
    },
  });
  return {
    registry,
    httpDuration,
    eventStreams,
    syncPullRows,
    webhookDeliveries,
    attachmentUploads,
    emailFailures,
    observe(route, method, status, seconds) {
      httpDuration.observe(
        {
          route: route ?? UNMATCHED_ROUTE,
          method: METHODS.has(method) ? method : 'OTHER',
          status: String(status),
        },
        seconds,
      );
    },
  };
}
