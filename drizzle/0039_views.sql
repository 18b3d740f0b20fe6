-- Saved views (ARCHITECTURE §4 'Saved views and the filter language'): a named query in the filter
-- language with the grammar it was written under (older rows are migrated when read), a sort, and
-- `campaign_id` to share it with that campaign's members. Deletes are soft so a device's kept list
-- can learn of them; `(user_id, uuid)` makes a device's repeated create one view.
CREATE TABLE "views" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"campaign_id" integer REFERENCES "items"("id") ON DELETE SET NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"grammar" smallint NOT NULL,
	"sort" text DEFAULT 'due' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "views_name_check" CHECK (char_length("name") BETWEEN 1 AND 100),
	CONSTRAINT "views_query_check" CHECK (char_length("query") <= 500),
	CONSTRAINT "views_sort_check" CHECK ("sort" IN ('due', 'priority', 'title', 'manual'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "views_user_uuid_key" ON "views" USING btree ("user_id","uuid");
--> statement-breakpoint
CREATE INDEX "views_campaign_idx" ON "views" USING btree ("campaign_id") WHERE "campaign_id" IS NOT NULL;
