/**
 * Where a card held over a board column would land, worked out from where it is rather than from
 * one drop target per card: every card of a column is the same height (CARD_PITCH), so the place is
 * the card's offset from the top of the column's list divided by the pitch. A column is then one
 * drop target, whatever it holds (npm run bench -- board-drag).
 */

/** A board card's height with the gap under it, in pixels (h-14 + pb-2): every card is this tall. */
export const CARD_PITCH = 64;

export interface ColumnPlace {
  /** The place the card takes: for its own column an index of the column as it is (arrayMove's), for another the index it is put in at. */
  index: number;
  /** Where the column shows the card going in: before the card at this index; null when it stays where it is. */
  gap: number | null;
  /** How many places the column has for this card (its own column's length, or one more). */
  of: number;
}

/**
 * The place in a column of `count` cards for a card whose top edge is `offset` pixels below the top of
 * the column's list; `from` is the card's index when the column is its own, null otherwise.
 */
export function placeInColumn(offset: number, count: number, from: number | null): ColumnPlace {
  const of = from === null ? count + 1 : count;
  const slot = Number.isFinite(offset) ? Math.round(offset / CARD_PITCH) : 0;
  const index = Math.min(Math.max(slot, 0), of - 1);
  if (from === null) return { index, gap: index, of };
  // Its own column: the cards after it move up one when it leaves, so going down it lands after them.
  const gap = index === from ? null : index > from ? index + 1 : index;
  return { index, gap, of };
}
