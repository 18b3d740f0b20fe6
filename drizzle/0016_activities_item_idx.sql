-- An item's history (GET /api/items/{id}/history, newest first, a page at a time) and its count read
-- the feed by item: without this index each read scanned every feed entry of every item.
CREATE INDEX "activities_item_idx" ON "activities" USING btree ("item_id","id");
