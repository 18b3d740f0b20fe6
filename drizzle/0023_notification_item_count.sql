-- How many items one `assigned` entry stands for: one person's run of assignments to another (a batch
-- create, an import, many edits within a minute) is one entry, 'Alex assigned you 1,000 items' (P8).
ALTER TABLE "notifications" ADD COLUMN "item_count" integer DEFAULT 1 NOT NULL;
