-- Recurrence (ARCHITECTURE §5): the RRULE an occurrence repeats by, and the uuid of its series' first
-- occurrence, from which every next occurrence's uuid is derived (SYNC.md O1).
ALTER TABLE "items" ADD COLUMN "recurrence" varchar(255);--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "series_uuid" uuid;--> statement-breakpoint
CREATE INDEX "items_series_idx" ON "items" USING btree ("series_uuid");
