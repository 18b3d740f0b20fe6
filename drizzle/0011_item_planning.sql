-- Planning fields (ARCHITECTURE §4): priority (1–4, 1 the most urgent, 4 none), labels (up to 10,
-- compared without case by the API) and sort_key, the place among siblings (§5 'Order'). sort_key
-- compares by code unit (COLLATE "C"), as fractional indexes must: a linguistic collation would put
-- 'a' before 'B'. Its default only serves raw inserts (seeds, benches); the API always gives a key.
ALTER TABLE "items" ADD COLUMN "priority" smallint DEFAULT 4 NOT NULL;
--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_priority_check" CHECK ("priority" BETWEEN 1 AND 4);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "labels" text[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_labels_check" CHECK (cardinality("labels") <= 10);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "sort_key" text COLLATE "C" DEFAULT 'a0' NOT NULL;
--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_sort_key_check" CHECK ("sort_key" ~ '^[0-9A-Za-z]{1,64}$');
--> statement-breakpoint
-- Existing items keep the order they were made in (by id), per list: a parent's children, and each
-- owner's top level. The k-th key (from 0) is fractional-indexing's k-th integer key, the sequence
-- generateNKeysBetween(null, null, n) gives ('a0'…'az', 'b00'…'bzz', 'c000'…, 'd0000'…), so later
-- keys between and after them are computed by the same library. The rows are stamped as changed, so
-- every device pulls them once more and learns their keys.
WITH ranked AS (
  SELECT id, (row_number() OVER (
    PARTITION BY parent_id, CASE WHEN parent_id IS NULL THEN user_id END ORDER BY id) - 1)::bigint AS k
  FROM items
), digits AS (
  SELECT id,
    CASE WHEN k < 62 THEN 'a' WHEN k < 3906 THEN 'b' WHEN k < 242234 THEN 'c' ELSE 'd' END AS head,
    CASE WHEN k < 62 THEN k WHEN k < 3906 THEN k - 62 WHEN k < 242234 THEN k - 3906 ELSE k - 242234 END AS n,
    CASE WHEN k < 62 THEN 1 WHEN k < 3906 THEN 2 WHEN k < 242234 THEN 3 ELSE 4 END AS width
  FROM ranked
)
UPDATE "items" i SET
  "sort_key" = d.head || (
    SELECT string_agg(
      substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
        ((d.n / (62::bigint ^ p)::bigint) % 62)::int + 1, 1), '' ORDER BY p DESC)
    FROM generate_series(0, d.width - 1) p),
  "change_xid" = pg_current_xact_id()::text::bigint
FROM digits d WHERE d.id = i.id;
--> statement-breakpoint
-- A new item goes after its last sibling: these find that sibling's key in one index step.
CREATE INDEX "items_sibling_order_idx" ON "items" USING btree ("parent_id", "sort_key");
--> statement-breakpoint
CREATE INDEX "items_top_order_idx" ON "items" USING btree ("user_id", "sort_key") WHERE "parent_id" IS NULL;
