-- Calendar feed (ARCHITECTURE §4): one secret feed URL a person; only its SHA-256 is kept, so a
-- leaked database names no working URL. Making a new one replaces the row, and the old URL is gone.
CREATE TABLE "calendar_tokens" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_tokens_hash_key" ON "calendar_tokens" USING btree ("token_hash");
