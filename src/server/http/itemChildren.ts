import type { ItemChildChanges, ItemChildName } from '../../shared/itemChildren';
import type { Executor } from '../db/client';

/** What every child row has, whatever its kind (src/shared/itemChildren.ts). */
export interface ChildRow {
  id: number;
  uuid: string;
  item_id: number;
  deleted_at: Date | string | null;
}

/**
 * What a child kind's resource gives the rest of the server (ARCHITECTURE §6 'Children of an item are
 * declared once'): app.ts registers one per declared kind, so the sync page and the webhooks read
 * every kind through these and import no resource.
 */
export interface ItemChildServer<N extends ItemChildName = ItemChildName, Row extends ChildRow = ChildRow> {
  /** The rows `ids` (live and deleted), for a sync page; the page's statement chose them by sight (K13). */
  syncRows(db: Executor, ids: readonly number[]): Promise<Row[]>;
  /** A live row as a sync page carries it: the API's shape with its item's uuid. */
  syncJson(row: Row): Exclude<ItemChildChanges[N], { deleted_at: string }>;
  /** The child's data in a webhook event (`{ comment }`, `{ time_entry }`), or null when it is gone. */
  webhookData(tx: Executor, id: number): Promise<Record<string, unknown> | null>;
}

/** Every declared child kind's part, by name: a kind declared without one does not compile. */
export type ItemChildServers = { [N in ItemChildName]: ItemChildServer<N, ChildRow> };

/** A kind's part with its own row type, as the registry holds it (the row type is the kind's business). */
export function childServer<N extends ItemChildName, Row extends ChildRow>(
  part: ItemChildServer<N, Row>,
): ItemChildServer<N, ChildRow> {
  return part as unknown as ItemChildServer<N, ChildRow>;
}
