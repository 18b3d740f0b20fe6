-- Items the sweeper purged before it erased their traces (SYNC.md K26): their feed entries keep who
-- and when but lose the title and details, their notifications lose their line and title, their
-- comments and labels go. The sweeper does the same to every item it purges from now on.
WITH purged AS (
  UPDATE items SET labels = '{}'
  WHERE deleted_at <= now() - interval '30 days'
  RETURNING id
), erased_entries AS (
  UPDATE activities a SET item_title = NULL, description = 'An item erased 30 days after it was deleted',
    metadata = '{}'::jsonb
  FROM purged WHERE a.item_id = purged.id
  RETURNING 1
), erased_notifications AS (
  UPDATE notifications n SET text = 'An item erased 30 days after it was deleted', item_title = NULL
  FROM purged WHERE n.item_id = purged.id
  RETURNING 1
)
DELETE FROM comments c USING purged WHERE c.item_id = purged.id;
