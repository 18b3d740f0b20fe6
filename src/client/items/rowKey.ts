/**
 * What a list keys an item's row by (React's key, dnd-kit's id, the row focus is remembered on): its
 * uuid, stable for the item's life. Its id is not: an item created on the device has a temporary id
 * until the server answers its create (a guest's until the upgrade), and the swap (tempIds.ts) can land
 * while the row is focused or being dragged; a row keyed by id would remount then, losing both. An item
 * without a uuid is keyed by its id, as text (never a uuid's shape).
 */
export const rowKeyOf = (row: { id: number; uuid?: string | null }): string => row.uuid ?? String(row.id);
