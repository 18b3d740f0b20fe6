-- Templates (ARCHITECTURE §4 'Templates'): a snapshot of a campaign, a task or a task's todos, kept
-- as one zod-checked JSON tree (src/shared/templates.ts), its dates as day offsets from an anchor. A
-- template is its creator's; with `campaign_id` it is shared with that campaign's members. Deletes are
-- soft and `change_xid` stamps every write, so a device's pull can carry templates and their
-- tombstones as it carries comments. `(user_id, uuid)` makes a device's repeated create one template.
CREATE TABLE "templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"campaign_id" integer REFERENCES "items"("id") ON DELETE SET NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"tree" jsonb NOT NULL,
	"node_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	CONSTRAINT "templates_kind_check" CHECK ("kind" IN ('campaign', 'task', 'checklist')),
	CONSTRAINT "templates_node_count_check" CHECK ("node_count" BETWEEN 1 AND 1000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "templates_user_uuid_key" ON "templates" USING btree ("user_id","uuid");
--> statement-breakpoint
CREATE INDEX "templates_campaign_idx" ON "templates" USING btree ("campaign_id") WHERE "campaign_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "templates_change_idx" ON "templates" USING btree ("change_xid","id");
