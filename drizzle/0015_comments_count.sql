-- How many live comments each item has (ARCHITECTURE §4 'Comments': "Items carry comments_count").
-- Kept by the comment's own create and delete, in their transaction, as `comments_count ± 1` on the
-- item's row: the row lock serialises parallel comments on one item, so none is lost (SYNC.md K10),
-- and a row list shows the count without counting comments per row. Server-owned: no client writes it.
ALTER TABLE "items" ADD COLUMN "comments_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_comments_count_check" CHECK ("comments_count" >= 0);
--> statement-breakpoint
-- Items that already have comments: their count, stamped as changed so every device pulls it once.
UPDATE "items" i SET "comments_count" = c.n, "change_xid" = pg_current_xact_id()::text::bigint
FROM (SELECT "item_id", count(*)::int AS n FROM "comments" WHERE "deleted_at" IS NULL GROUP BY "item_id") c
WHERE c."item_id" = i."id";
