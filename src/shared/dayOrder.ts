import { generateNKeysBetween } from 'fractional-indexing';
import { compareWithinDay, priorityOf, type WithinDay } from './agenda';
import type { KeyWrite } from './order';
import { asPriority, type Priority } from './planning';
import { keyBetween, type RandomBit, SORT_KEY_MAX_LENGTH } from './sortKey';

/**
 * Reordering a day's items by hand (Today's 'Today' group, SYNC.md O6): the day is in priority order,
 * then manual order (src/shared/agenda.ts compareWithinDay), so a drop is a new priority when the row
 * lands among another priority's rows, and a key among that priority's rows. The rows come from many
 * parents and their keys also order them there, so a drop writes the moved row alone whenever one key
 * can do it; only equal or unusable neighbours' keys re-key the fewest rows next to the drop, with
 * keys just above the one below so those rows barely move inside their own parents.
 */

/** What a day's row needs for its place: what the order within a day reads. */
export type DayRow = WithinDay;

/** A drop on a day: the keys to write (the moved row's first) and its new priority when it changes. */
export interface DayMove {
  writes: KeyWrite[];
  /** Set when the drop puts the row among another priority's rows: written with its key. */
  priority?: Priority;
}

const fits = (keys: readonly string[]) => keys.every((k) => k.length > 0 && k.length <= SORT_KEY_MAX_LENGTH);

/**
 * The smallest run of `group` (one priority's rows in order, without the moved row) around place `at`
 * that can take fresh keys with the moved row `id` inside it at `at`: one new key when the neighbours'
 * keys leave room, else the rows of the run too.
 */
function placeInGroup(
  group: readonly DayRow[],
  moved: DayRow,
  at: number,
  random: RandomBit | undefined,
  openEnd: boolean,
): KeyWrite[] {
  const n = group.length;
  const below = at > 0 ? (group[at - 1] as DayRow) : null;
  const above = at < n ? (group[at] as DayRow) : null;
  const low = below?.sort_key || null;
  // Rows not read yet may follow the last one read: a key just above it stays before them.
  const high = above ? above.sort_key || '' : openEnd && low !== null ? `${low}1` : null;
  if (high !== '') {
    if (low !== null && low === high) {
      // Equal keys (a collision, or two parents' keys alike): the row's own uuid may fall between.
      const same = { ...moved, sort_key: low };
      if (compareWithinDay(below as DayRow, same) < 0 && compareWithinDay(same, above as DayRow) < 0)
        return [{ id: moved.id, sort_key: low }];
    } else {
      try {
        const key = keyBetween(low, high, random);
        if (fits([key])) return [{ id: moved.id, sort_key: key }];
      } catch {
        // A neighbour's key is no fractional index: a run of rows takes fresh keys below.
      }
    }
  }
  // Runs of `size` rows, the ones after the drop first (then before it), from the drop outwards.
  for (let size = 1; size <= n; size++) {
    for (let before = 0; before <= size; before++) {
      const start = at - before;
      const end = start + size;
      if (start < 0 || end > n) continue;
      const lower = start > 0 ? (group[start - 1] as DayRow).sort_key || null : null;
      let upper = end < n ? (group[end] as DayRow).sort_key || '' : null;
      // (Past the last row read, `lower` + '1' below is also what keeps unread rows after.)
      if (upper === '' || (upper === null && lower === null && openEnd)) continue;
      // Just above the key below, so the re-keyed rows keep their places among their own siblings
      // (a sibling would need a key starting with `lower` + '0' to be passed).
      if (lower !== null && (upper === null || upper > `${lower}1`)) upper = `${lower}1`;
      let keys: string[];
      try {
        if (lower !== null && upper !== null && lower >= upper) continue;
        keys = generateNKeysBetween(lower, upper, size + 1);
      } catch {
        continue;
      }
      if (!fits(keys)) continue;
      const ids = group.slice(start, end).map((r) => r.id);
      ids.splice(before, 0, moved.id);
      return movedFirst(
        ids.map((id, i) => ({ id, sort_key: keys[i] as string })),
        moved.id,
      );
    }
  }
  // Only when every run was refused (unusable keys up to an open end): the whole group, fresh keys.
  const keys = generateNKeysBetween(null, null, n + 1);
  const ids = group.map((r) => r.id);
  ids.splice(at, 0, moved.id);
  return movedFirst(
    ids.map((id, i) => ({ id, sort_key: keys[i] as string })),
    moved.id,
  );
}

/** The moved row's write first: the toast and the announcement speak of it. */
function movedFirst(writes: KeyWrite[], id: number): KeyWrite[] {
  return [...writes.filter((w) => w.id === id), ...writes.filter((w) => w.id !== id)];
}

/**
 * The writes that move row `id` of `list` (a day in its order, compareWithinDay) to place `toIndex`
 * of it after the move (as dnd-kit's arrayMove counts); null when it stays. Among another priority's
 * rows it takes the priority of the row it was dropped on (unless a neighbour shares its own).
 */
export function planDayMove(
  list: readonly DayRow[],
  id: number,
  toIndex: number,
  random?: RandomBit,
  /** The day holds more rows than `list` (a screen's first page): they follow its last row. */
  more = false,
): DayMove | null {
  const from = list.findIndex((r) => r.id === id);
  if (from < 0 || list.length < 2) return null;
  const to = Math.max(0, Math.min(toIndex, list.length - 1));
  if (to === from) return null;
  const moved = list[from] as DayRow;
  const others = list.filter((r) => r.id !== id);
  const before = to > 0 ? (others[to - 1] as DayRow) : null;
  const after = to < others.length ? (others[to] as DayRow) : null;
  const own = priorityOf(moved);
  // Dragged up, the row lands above the one it was dropped on; dragged down, below it.
  const over = (to < from ? after : before) as DayRow;
  const keeps = (before && priorityOf(before) === own) || (after && priorityOf(after) === own);
  const priority = keeps ? own : priorityOf(over);
  const group = others.filter((r) => priorityOf(r) === priority);
  const at = others.slice(0, to).filter((r) => priorityOf(r) === priority).length;
  // Rows not read yet come after the last one read, so only its priority's group may go on.
  const openEnd = more && priorityOf(list[list.length - 1] as DayRow) === priority;
  const writes = placeInGroup(group, moved, at, random, openEnd);
  return priority === own ? { writes } : { writes, priority: asPriority(priority) };
}
