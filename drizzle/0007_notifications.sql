CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"actor_id" integer REFERENCES "users"("id"),
	"kind" text NOT NULL,
	"item_id" integer,
	"item_type" text,
	"item_title" text,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"pushed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "read_at" IS NULL;--> statement-breakpoint
-- The push outbox: entries not yet handed to the push sender, oldest first.
CREATE INDEX "notifications_unpushed_idx" ON "notifications" USING btree ("created_at") WHERE "pushed_at" IS NULL;--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
-- One row per reminder that fired (or was cancelled): the unique key makes "exactly once" hold
-- across instances even when two of them pick the same item.
CREATE TABLE "reminder_claims" (
	"item_id" integer NOT NULL,
	"remind_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_claims_pk" PRIMARY KEY("item_id","remind_at")
);
--> statement-breakpoint
CREATE INDEX "items_remind_at_idx" ON "items" USING btree ("remind_at") WHERE "remind_at" IS NOT NULL AND "deleted_at" IS NULL;
