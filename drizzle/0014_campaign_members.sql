-- Shared campaigns (ARCHITECTURE §4 'Campaign members and invites', §5 'Roles'). The campaign's creator
-- is its owner implicitly (items.user_id of the campaign): no row, so every campaign ever created is
-- owned without a backfill, and the owner can be neither removed nor demoted. A row here is an editor
-- or a viewer. change_xid is the grant's transaction id: a new member's (or a new role's) next pull
-- sends the campaign's whole tree from it, whatever its rows' own change_xid (SYNC.md M2).
CREATE TABLE "campaign_members" (
	"campaign_id" integer NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"role" text NOT NULL CHECK ("role" IN ('editor', 'viewer')),
	"added_by" integer,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"change_xid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	CONSTRAINT "campaign_members_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "campaign_members_user_idx" ON "campaign_members" USING btree ("user_id","campaign_id");
--> statement-breakpoint
CREATE INDEX "campaign_members_grant_idx" ON "campaign_members" USING btree ("user_id","change_xid","campaign_id");
--> statement-breakpoint
-- Who was removed from (or left) a campaign and not added back: they no longer see its tree, not
-- even the items they created in it (those stay with the campaign, SYNC.md M4).
CREATE TABLE "campaign_departures" (
	"user_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"departed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_departures_pk" PRIMARY KEY("user_id","campaign_id")
);
--> statement-breakpoint
-- Invite links: only the SHA-256 of the token is kept; uses are counted by one conditional UPDATE.
CREATE TABLE "campaign_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"campaign_id" integer NOT NULL,
	"role" text NOT NULL CHECK ("role" IN ('editor', 'viewer')),
	"inviter_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "campaign_invites_uses_check" CHECK ("uses" >= 0 AND "uses" <= "max_uses")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_invites_token_key" ON "campaign_invites" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "campaign_invites_campaign_idx" ON "campaign_invites" USING btree ("campaign_id","created_at");
