-- A member the owner removed is barred from the campaign's open invite links until the owner adds
-- them again (SYNC.md M11); one who left by themself is not. Departures written before this column
-- are barred when the campaign's activity says the last one was a removal, not a leave.
ALTER TABLE "campaign_departures" ADD COLUMN "barred" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "campaign_departures" d SET "barred" = true
WHERE (SELECT COALESCE((a."metadata"->>'left')::boolean, false) FROM "activities" a
       WHERE a."item_id" = d."campaign_id" AND a."action" = 'member_removed'
         AND a."metadata"->'member'->>'id' = d."user_id"::text
       ORDER BY a."id" DESC LIMIT 1) IS FALSE;
--> statement-breakpoint
-- A deleted campaign's links stay dead when it is restored: the delete revokes them (M11), and the
-- links of campaigns deleted before this migration are revoked here.
UPDATE "campaign_invites" SET "revoked_at" = now()
WHERE "revoked_at" IS NULL
  AND "campaign_id" IN (SELECT "id" FROM "items" WHERE "type" = 'campaign' AND "deleted_at" IS NOT NULL);
