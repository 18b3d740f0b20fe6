/** Saved views (issue 66.3): the server's routes, and the device's copy of the list for offline use. */
import type { View, ViewSort } from '../../../shared/filter/views';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import { defineCommands } from './map';

/** What 'Save view' sends: the query in the current grammar. */
export interface ViewDraft {
  name: string;
  query: string;
  sort?: ViewSort;
  campaign_id?: number | null;
  uuid: string;
}

export const commands = defineCommands<{ api: ApiClient; db: OutpostDb }>()({
  /** Fetches the list and keeps it on the device (replaced whole: a view deleted elsewhere goes). */
  'views.refresh': async (c) => {
    const views = (await c.api.get<{ views: View[] }>('/views')).data.views;
    await c.db.transaction('rw', c.db.views, async () => {
      await c.db.views.clear();
      await c.db.views.bulkPut(views);
    });
    return views;
  },
  /** Saves a view on the server (online only) and keeps it on the device. */
  'views.create': async (c, draft: ViewDraft) => {
    const view = (await c.api.post<View>('/views', draft)).data;
    await c.db.views.put(view);
    return view;
  },
  /** Changes a saved view on the server (online only: its name, query, order, whom it is for) and keeps it. */
  'views.update': async (c, change: { id: number } & Partial<Omit<ViewDraft, 'uuid'>>) => {
    const { id, ...fields } = change;
    const view = (await c.api.patch<View>(`/views/${id}`, fields)).data;
    await c.db.views.put(view);
    return view;
  },
  'views.remove': async (c, id: number) => {
    await c.api.delete(`/views/${id}`);
    await c.db.views.delete(id);
  },
});
