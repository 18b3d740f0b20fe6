-- Start dates and estimates (ARCHITECTURE §4 'Start dates, estimates and time'): when the work starts
-- (never after the due date, checked by the API: SYNC.md D10) and how long it should take, in
-- minutes. Both none on every row stored before them.
ALTER TABLE "items" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "estimate_minutes" integer;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_estimate_minutes_range" CHECK ("estimate_minutes" IS NULL OR ("estimate_minutes" >= 0 AND "estimate_minutes" <= 100000));
