-- Webhooks (ARCHITECTURE §4 'Webhooks', Standard Webhooks v1) and their outbox.
--
-- The secrets are stored as they are, not hashed: every delivery is signed with HMAC-SHA256 keyed
-- with the secret, so the server must be able to read it (a hash could check a secret, never sign
-- with one). They never leave the server again after the create or rotate answer shows them once:
-- no answer, log line or export carries them. `previous_secret` signs beside the new one for 24 h
-- after a rotation (`rotated_at`), so a receiver can switch without losing a delivery.
CREATE TABLE IF NOT EXISTS "webhooks" (
  "id" serial PRIMARY KEY,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "url" text NOT NULL,
  "events" text[] NOT NULL,
  "campaign_id" integer REFERENCES "items"("id") ON DELETE CASCADE,
  "enabled" boolean NOT NULL DEFAULT true,
  "secret" text NOT NULL,
  "previous_secret" text,
  "rotated_at" timestamp with time zone,
  "disabled_reason" text,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhooks_user_idx" ON "webhooks" ("user_id");
--> statement-breakpoint

-- The outbox: one row per event and webhook, written in the transaction of the change. `payload` is
-- the exact body, so every retry sends the same bytes under the same `webhook_message_id`.
-- `claimed_until` is a sender's lease: a sender killed mid-delivery leaves it to expire, and the
-- delivery is sent again (at least once). `item_id` keeps one item's events in order.
CREATE TABLE IF NOT EXISTS "webhook_deliveries" (
  "id" bigserial PRIMARY KEY,
  "webhook_id" integer NOT NULL REFERENCES "webhooks"("id") ON DELETE CASCADE,
  "event_type" text NOT NULL,
  "webhook_message_id" text NOT NULL,
  "payload" text NOT NULL,
  "item_id" integer,
  "status" text NOT NULL DEFAULT 'pending',
  "attempts" integer NOT NULL DEFAULT 0,
  "last_status_code" integer,
  "last_error" text,
  "next_attempt_at" timestamp with time zone NOT NULL DEFAULT now(),
  "claimed_until" timestamp with time zone,
  "duration_ms" integer,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The log, newest first, per webhook; the sender's look for what is due.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_webhook_idx" ON "webhook_deliveries" ("webhook_id", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_pending_idx" ON "webhook_deliveries" ("next_attempt_at")
  WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_item_idx" ON "webhook_deliveries" ("webhook_id", "item_id", "id")
  WHERE "status" = 'pending';
