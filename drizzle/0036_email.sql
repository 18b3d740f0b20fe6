-- Email out and in (ARCHITECTURE §4 'Email'). A person's address is theirs once verified (by a mailed
-- link, or an OIDC sign-in's verified claim); one verified address belongs to one person, so a
-- sender names at most one account. Notifications carry `emailed_at` as the push outbox carries
-- `pushed_at`: the write path adds no email work, and the mailer turns pending entries into outbox
-- rows. The outbox keeps each message rendered, so a retry sends the same words; `dedupe_key` makes
-- one digest a person a day (and one mail a notification) across instances and restarts.
CREATE TABLE "user_emails" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"verified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "user_emails_verified_key" ON "user_emails" USING btree (lower("email")) WHERE "verified_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "email_verifications" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "email_verifications_user_idx" ON "email_verifications" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "email_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"kinds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"digest_hour" smallint,
	"time_zone" varchar(64) DEFAULT 'UTC' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_preferences_digest_hour_check" CHECK ("digest_hour" BETWEEN 0 AND 23)
);
--> statement-breakpoint
CREATE INDEX "email_preferences_digest_idx" ON "email_preferences" USING btree ("digest_hour") WHERE "digest_hour" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer REFERENCES "users"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"dedupe_key" text,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "email_outbox_status_check" CHECK ("status" IN ('pending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_dedupe_key" ON "email_outbox" USING btree ("dedupe_key");
--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "emailed_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "notifications" SET "emailed_at" = "created_at";
--> statement-breakpoint
CREATE INDEX "notifications_unemailed_idx" ON "notifications" USING btree ("created_at") WHERE "emailed_at" IS NULL;
--> statement-breakpoint
-- A campaign's secret address for mail in; rotating replaces the token, so the old address bounces.
CREATE TABLE "campaign_inbound" (
	"campaign_id" integer PRIMARY KEY NOT NULL REFERENCES "items"("id") ON DELETE CASCADE,
	"token" text NOT NULL,
	"rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_inbound_token_key" ON "campaign_inbound" USING btree ("token");
--> statement-breakpoint
-- What came in by mail and what came of it: a task, a comment, or nothing and why. A message that
-- made something is recorded under its Message-ID and address, so a provider's redelivery makes
-- nothing twice.
CREATE TABLE "inbound_emails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"message_id" text,
	"from_address" text,
	"to_address" text,
	"outcome" text NOT NULL,
	"reason" text,
	"item_id" integer,
	CONSTRAINT "inbound_emails_outcome_check" CHECK ("outcome" IN ('task', 'comment', 'refused'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_emails_made_key" ON "inbound_emails" USING btree ("message_id", "to_address") WHERE "outcome" <> 'refused';
