-- A change made through a personal access token says so in the feed (issue 62: 'via {token name}').
-- The token's name at the time of the write is kept, so a token revoked or purged later still names
-- the entries it wrote. The default reads a transaction-local setting that runWrite sets for a token's
-- write (src/server/http/idempotency.ts), so every insert into activities in that transaction (an
-- item's, a cascade's, a comment's) carries it without each path passing it along. Set apart from
-- ADD COLUMN: a volatile default there would rewrite every existing row.
ALTER TABLE "activities" ADD COLUMN "via_token" text;--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "via_token" SET DEFAULT NULLIF(current_setting('outpost.via_token', true), '');
