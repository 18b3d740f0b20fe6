-- Planning fields (ARCHITECTURE §4): the IANA zone whose wall clock a repeating reminder keeps
-- (§5 'Recurrence', SYNC.md O5). Items from before it read as UTC, which is how they were stepped.
ALTER TABLE "items" ADD COLUMN "time_zone" varchar(64) DEFAULT 'UTC' NOT NULL;
