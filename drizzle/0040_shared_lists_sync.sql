-- Saved views ride the sync pull as templates do (ARCHITECTURE §4: views sync and work offline):
-- every write stamps the row with its transaction id, so a device's pull carries the views (and
-- their tombstones) that changed after its cursor.
ALTER TABLE "views" ADD COLUMN "change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;
--> statement-breakpoint
CREATE INDEX "views_change_idx" ON "views" USING btree ("change_xid","id");
--> statement-breakpoint
-- The campaigns a template or view was shared with and no longer is (SYNC.md L14): their members'
-- devices still hold it, and their next pull must carry its tombstone.
ALTER TABLE "views" ADD COLUMN "left_campaigns" integer[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "left_campaigns" integer[] DEFAULT '{}' NOT NULL;
