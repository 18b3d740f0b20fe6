/** Saved views and the filter page, live from the device through the one door (data/reads/viewQueries.ts). */
import type { View, ViewSort } from '../../shared/filter/views';
import { type LiveQuery, useLive } from '../data/live';
import type { ViewResult } from '../data/reads/viewQueries';

export type { ViewResult };

const viewItemsQuery: LiveQuery<{ query: string; today: string; sort: ViewSort }, ViewResult> = (
  reads,
  { query, today, sort },
) => reads.viewItems(query, today, sort);
const savedViewsQuery: LiveQuery<null, View[]> = (reads) => reads.savedViews();

/** The device's items matching `query` on `today`, live: an item synced from elsewhere shows at once. */
export function useViewItems(query: string, today: string, sort: ViewSort): ViewResult | undefined {
  return useLive(viewItemsQuery, { query, today, sort });
}

/** The saved views the device keeps (the list last fetched), by name, live. */
export function useSavedViews(): View[] | undefined {
  return useLive(savedViewsQuery, null);
}
