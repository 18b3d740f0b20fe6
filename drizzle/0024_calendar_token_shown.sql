-- Calendar feed (SYNC.md F9): the current secret is kept so Preferences can show the link in use
-- again (revisiting showed only 'Subscribe', and pressing it killed the working link). The hash stays
-- the look-up key. Whoever reads this column already reads every item the feed would show. A row
-- made before this migration has no token: its link keeps working but cannot be shown.
ALTER TABLE "calendar_tokens" ADD COLUMN "token" text;
