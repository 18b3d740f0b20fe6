import Dexie from 'dexie';
import type { ItemStatus } from '../../../shared/item';
import { hasLabel } from '../../../shared/labels';
import { LIST_INDEX, type OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';

/**
 * /labels/{name} from the device (ARCHITECTURE §4 'Planning fields'): every item of the viewer's
 * scope carrying the label (compared without case), across campaigns, open ones first (started, then
 * pending), then completed, each newest first by the status index's sort key. The device keeps only
 * what the viewer may see, so the scope is the visibility. There is no index by label yet (that
 * would be a Dexie version of its own), so this reads the scope's rows once per change: a page of
 * its own, never a list's first screen.
 */
const OPEN_FIRST: readonly ItemStatus[] = ['in_progress', 'pending', 'completed'];

export async function labelItems(db: OutpostDb, viewer: Viewer, label: string): Promise<LocalItem[]> {
  const scope = viewer.isGuest ? 'g' : 'a';
  const groups = await Promise.all(
    OPEN_FIRST.map((status) =>
      db.items
        .where(LIST_INDEX.status)
        .between([scope, status, Dexie.minKey], [scope, status, Dexie.maxKey])
        .reverse()
        .filter((item) => item._deleted !== 1 && hasLabel(item, label))
        .toArray(),
    ),
  );
  return groups.flat();
}
