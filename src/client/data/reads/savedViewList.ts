/**
 * The saved views' names for the header's nav, apart from the view page's reads (./viewQueries.ts):
 * every signed-in screen shows the list, and it needs neither the filter language nor its date reader.
 */
import type { View } from '../../../shared/filter/views';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';

/** The saved views the device keeps (the list last fetched), by name. */
export async function savedViews(db: OutpostDb, _viewer: Viewer): Promise<View[]> {
  const views = await db.views.toArray();
  return views.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}
