/**
 * The lists a person keeps beside their items that ride the sync pull (SYNC.md L13–L15): templates
 * and saved views, each their own or shared with a campaign's members. Declared once: the server's
 * page, the page's schema and the device's pull all follow this list.
 */
import type { View } from './filter/views';
import type { Template } from './templates';

/** The lists a sync page carries beside its items and their children, by name (the device's store of the same name). */
export const SYNC_LISTS = ['templates', 'views'] as const;
export type SyncListName = (typeof SYNC_LISTS)[number];

/** A list row the reader no longer has: deleted, or shared with a campaign they no longer see. */
export interface ListTombstone {
  id: number;
  uuid: string;
  deleted_at: string;
}

/** What a sync page carries of each list: live rows and tombstones. */
export interface SyncListChanges {
  templates: Template | ListTombstone;
  views: View | ListTombstone;
}

/** The lists of a sync page (absent on a page from a server that does not send them). */
export type SyncPageLists = { [N in SyncListName]?: SyncListChanges[N][] };

/** Whether a list change is a tombstone rather than a live row. */
export function isListTombstone(change: object): change is ListTombstone {
  return 'deleted_at' in change;
}
