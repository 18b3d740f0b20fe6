import type { Item } from './item';

/** Deleted items stay restorable this long (ARCHITECTURE §5), then the sweeper purges them. */
export const TRASH_KEEP_DAYS = 30;
export const TRASH_KEEP_MS = TRASH_KEEP_DAYS * 24 * 60 * 60 * 1000;

/** One row of GET /api/trash: the top of a deleted subtree, who deleted it and when. */
export interface TrashEntry extends Item {
  deleted_at: string;
  deleted_by: { id: number; name: string } | null;
}

/** True while a deletion made at `deletedAt` may still be restored, as of `now`. */
export function inTrash(deletedAt: string, now: Date): boolean {
  const at = Date.parse(deletedAt);
  return Number.isFinite(at) && now.getTime() - at < TRASH_KEEP_MS;
}
