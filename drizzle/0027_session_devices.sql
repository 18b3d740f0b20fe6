-- Devices (ARCHITECTURE §4 'Other ways to sign in': GET /api/sessions). A session's key is its
-- token's hash and never leaves the server: a device is named by a separate random public id. The
-- browser's User-Agent (cut to 512 characters) and the way the person signed in are shown in
-- Preferences so they recognise each device; rows from before this migration read 'phone', the only
-- way there was.
ALTER TABLE "sessions" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "via" text DEFAULT 'phone' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_public_id_idx" ON "sessions" USING btree ("public_id");
