import { keyBetween } from '../../shared/sortKey';
import { type Executor, prepared, rows, sql } from '../db/client';

/**
 * Manual order on the server (ARCHITECTURE §5 'Order'): where an item goes when its writer names no
 * place. Its siblings are the live items under the same parent, or, at the top level, the same
 * owner's top-level items; it goes after the greatest key among them. One step down
 * items_sibling_order_idx or items_top_order_idx (migration 0011): the column compares by code unit.
 */
const lastChildKey = prepared(
  (parentId: number) =>
    sql`SELECT sort_key FROM items WHERE parent_id = ${parentId} AND deleted_at IS NULL
        ORDER BY sort_key DESC LIMIT 1`,
);
const lastTopKey = prepared(
  (owner: number) =>
    sql`SELECT sort_key FROM items WHERE user_id = ${owner} AND parent_id IS NULL AND deleted_at IS NULL
        ORDER BY sort_key DESC LIMIT 1`,
);

/** A key after the last sibling's, for a new (or moved) item under `parentId`, or at `owner`'s top level. */
export async function keyAfterLastSibling(
  tx: Executor,
  parentId: number | null,
  owner: number,
): Promise<string> {
  const [last] = await rows<{ sort_key: string }>(
    tx,
    parentId === null ? lastTopKey(owner) : lastChildKey(parentId),
  );
  return keyBetween(last?.sort_key ?? null, null);
}
