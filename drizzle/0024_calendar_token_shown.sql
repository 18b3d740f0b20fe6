-- Calendar feed (SYNC.md F9): the server keeps only the SHA-256 of a feed's secret (migration 0010),
-- never the secret itself: a leaked database names no working URL. Preferences shows the link in use
-- on the device that made it (the URL is kept there) and, elsewhere, that a link is active and since
-- when, from `created_at`. This migration only records that contract on the table; a column holding
-- the secret, which an unreleased draft of it added, is dropped wherever it exists.
ALTER TABLE "calendar_tokens" DROP COLUMN IF EXISTS "token";
--> statement-breakpoint
COMMENT ON TABLE "calendar_tokens" IS 'One calendar feed per person: only the SHA-256 of its secret token (never the token), and when it was made (SYNC.md F9).';
