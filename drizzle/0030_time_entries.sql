-- Time entries (ARCHITECTURE §4 'Start dates, estimates and time', §5 'Time tracking'). Named by its
-- author's uuid like a comment, so a replayed create finds the row the first one wrote. A running
-- timer has no `ended_at`; at most one per person (the partial unique index below backs the rule the
-- writing transaction applies, SYNC.md X2). Deletes are soft and `change_xid` stamps every write, so
-- a pull carries entries under the items' cursor (X5).
CREATE TABLE "time_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid NOT NULL,
	"item_id" integer NOT NULL REFERENCES "items"("id"),
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	CONSTRAINT "time_entries_order_check" CHECK ("ended_at" IS NULL OR "ended_at" >= "started_at")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "time_entries_uuid_key" ON "time_entries" USING btree ("user_id","uuid");
--> statement-breakpoint
CREATE UNIQUE INDEX "time_entries_running_key" ON "time_entries" USING btree ("user_id")
	WHERE "ended_at" IS NULL AND "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "time_entries_item_idx" ON "time_entries" USING btree ("item_id","started_at");
--> statement-breakpoint
CREATE INDEX "time_entries_user_idx" ON "time_entries" USING btree ("user_id","started_at");
--> statement-breakpoint
CREATE INDEX "time_entries_change_idx" ON "time_entries" USING btree ("change_xid","id");
--> statement-breakpoint
-- Finished minutes on the item and its descendants (§4 `spent_minutes`), kept by the entries' own
-- writes in their transaction like comments_count (X7). Server-owned: no client writes it.
ALTER TABLE "items" ADD COLUMN "spent_minutes" integer DEFAULT 0 NOT NULL;
