-- Comments on items (ARCHITECTURE §4 'Comments'). A comment is named by its author's uuid, as an item
-- is: a replayed create finds the row the first one wrote. `mentions` holds user ids (a mention is
-- stored by id and shown by name). Deletes are soft, and `change_xid` stamps every write, so a pull
-- can carry comments under the items' cursor (SYNC.md L1).
CREATE TABLE "comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid NOT NULL,
	"item_id" integer NOT NULL REFERENCES "items"("id"),
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"body" text NOT NULL,
	"mentions" integer[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "comments_uuid_key" ON "comments" USING btree ("user_id","uuid");
--> statement-breakpoint
-- An item's timeline, oldest first, one index scan a page.
CREATE INDEX "comments_item_idx" ON "comments" USING btree ("item_id","id");
--> statement-breakpoint
CREATE INDEX "comments_change_idx" ON "comments" USING btree ("change_xid","id");
--> statement-breakpoint
-- Who muted which item: no `commented` or `updated` notifications for it (§5 'Notifications').
CREATE TABLE "item_mutes" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"item_id" integer NOT NULL REFERENCES "items"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "item_mutes_pk" PRIMARY KEY("user_id","item_id")
);
--> statement-breakpoint
CREATE INDEX "item_mutes_item_idx" ON "item_mutes" USING btree ("item_id");
--> statement-breakpoint
-- A `mentioned` or `commented` notification opens the item scrolled to its comment.
ALTER TABLE "notifications" ADD COLUMN "comment_id" integer;
