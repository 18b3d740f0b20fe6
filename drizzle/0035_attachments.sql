-- Files on items (ARCHITECTURE §4 'Files on items'): the third child of an item after comments and time
-- entries. A row is the file's metadata; the bytes live in the file store (DATA_DIR/files or S3) under
-- their sha256, so two rows naming the same bytes store them once and the purge removes bytes no row
-- names. Named by its uploader's uuid, so a retried upload finds the row the first one wrote. Deletes
-- are soft and `change_xid` stamps every write, so a pull carries attachments under the items' cursor.
CREATE TABLE "attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid NOT NULL,
	"item_id" integer NOT NULL REFERENCES "items"("id"),
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"name" text NOT NULL,
	"type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"width" integer,
	"height" integer,
	"has_thumbnail" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	CONSTRAINT "attachments_size_check" CHECK ("size" >= 0),
	CONSTRAINT "attachments_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "attachments_uuid_key" ON "attachments" USING btree ("user_id","uuid");
--> statement-breakpoint
CREATE INDEX "attachments_item_idx" ON "attachments" USING btree ("item_id","id");
--> statement-breakpoint
CREATE INDEX "attachments_sha256_idx" ON "attachments" USING btree ("sha256");
--> statement-breakpoint
CREATE INDEX "attachments_change_idx" ON "attachments" USING btree ("change_xid","id");
