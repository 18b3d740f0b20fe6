import { ITEM_CHILDREN } from '../../shared/itemChildren';

/**
 * The sync cursor, and why no change is ever skipped.
 *
 * Every write stamps the rows it touches with its transaction id (`change_xid`, from
 * `pg_current_xact_id()`). Transaction ids are handed out in increasing order, but transactions
 * commit in any order: a plain "changed since" sequence could let a reader pass id 11 while id 10 is
 * still uncommitted, and 10 would be lost when it commits. So a pull only returns rows whose
 * `change_xid` is below the snapshot's xmin (`pg_snapshot_xmin(pg_current_snapshot())`): every
 * transaction below xmin has already finished, so nothing can appear there later. The cursor is the
 * position (xid, id) of the last row returned; when a pull drains, it jumps to (xmin, 0), since all
 * rows under xmin have been read. Rows written by still-open transactions wait for the next pull.
 * A row changed again gets a newer xid and is simply sent again, which the client's merge absorbs.
 *
 * A pull that starts from the empty cursor also carries `since`, its first page's xmin, until it
 * passes it: every membership granted below it was in force when that first page was read, so the
 * pull meets the granted trees' rows among the item changes and needs no grant rows for them (M2).
 * Without it a member's first sync of a shared campaign sent every item of it twice.
 *
 * An item's children ride the same cursor (K13, X5): within one transaction id every item row comes
 * before every child row, and the child kinds follow one another in declaration order
 * (src/shared/itemChildren.ts), so a position is (xid, kind, id), and `child` is the rank of the kind
 * it is among (written with the kind's mark: `_id` a comment's, `~id` a time entry's). Items and each
 * kind number their ids apart, and one order over them all never skips any.
 */
export interface CursorPosition {
  xid: bigint;
  id: number;
  since?: bigint;
  /**
   * The position is a child's, of the kind of this rank (1 for the first declared): every item row of
   * `xid` has been sent, and every row of the kinds before it.
   */
  child?: number;
}

const PREFIX = 'c1';
const MAX_BIGINT = 9_223_372_036_854_775_807n;
const MAX_INTEGER = 2_147_483_647;

export function encodeCursor(position: CursorPosition): string {
  const since = position.since === undefined ? '' : `.${position.since.toString(36)}`;
  const kind = position.child === undefined ? '' : (ITEM_CHILDREN[position.child - 1]?.cursorMark ?? '');
  return `${PREFIX}.${position.xid.toString(36)}.${kind}${position.id.toString(36)}${since}`;
}

/** The position a cursor names; the empty cursor is the very beginning (a full bootstrap). */
export function decodeCursor(cursor: string | undefined): CursorPosition | null {
  if (cursor === undefined || cursor === '') return { xid: 0n, id: 0 };
  const match = /^c1\.([0-9a-z]{1,14})\.([^0-9a-z.]?)([0-9a-z]{1,7})(?:\.([0-9a-z]{1,14}))?$/.exec(cursor);
  if (!match) return null;
  // A kind's mark (none: an item's position); a mark no kind declares was never ours.
  const child = match[2] ? ITEM_CHILDREN.findIndex((c) => c.cursorMark === match[2]) + 1 : 0;
  if (match[2] && child === 0) return null;
  const big = (text: string) =>
    [...text].reduce((acc, ch) => acc * 36n + BigInt(Number.parseInt(ch, 36)), 0n);
  const xid = big(match[1]!);
  const id = Number.parseInt(match[3]!, 36);
  const since = match[4] === undefined ? undefined : big(match[4]);
  // Beyond PostgreSQL's bigint and integer the query would fail: such a cursor was never ours.
  if (xid > MAX_BIGINT || id > MAX_INTEGER || (since !== undefined && since > MAX_BIGINT)) return null;
  return {
    xid,
    id,
    ...(since === undefined ? {} : { since }),
    ...(child > 0 ? { child } : {}),
  };
}
