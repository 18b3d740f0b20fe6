CREATE TABLE "item_revocations" (
	"user_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "item_revocations_user_id_item_id_pk" PRIMARY KEY("user_id","item_id")
);
--> statement-breakpoint
CREATE INDEX "item_revocations_change_idx" ON "item_revocations" USING btree ("user_id","change_xid","item_id");