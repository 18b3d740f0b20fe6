CREATE TABLE "rate_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "item_type" text;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "item_title" text;--> statement-breakpoint
CREATE INDEX "rate_buckets_window_idx" ON "rate_buckets" USING btree ("window_started_at");--> statement-breakpoint
-- Entries written before this migration get the item as it is now; later ones record it when written.
UPDATE "activities" a SET "item_type" = i."type", "item_title" = i."title" FROM "items" i WHERE i."id" = a."item_id";