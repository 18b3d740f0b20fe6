-- Issue 62: a write reads only the webhooks of the people who can see what it changed
-- (webhooks/hearing.ts), looked up by owner and scoped by campaign, instead of every enabled
-- webhook of every user. The owner-and-campaign index serves that look-up and the owner's own list
-- (its leading column), so it replaces the owner-only index.
CREATE INDEX IF NOT EXISTS "webhooks_owner_campaign_idx" ON "webhooks" ("user_id", "campaign_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "webhooks_user_idx";
