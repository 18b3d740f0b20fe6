import type { DBCoreMutateRequest, DBCoreTable, Table } from 'dexie';
import { dayOrderKey, daysBetween } from '../../../shared/agenda';
import type { ItemStatus } from '../../../shared/item';
import { DEFAULT_PRIORITY } from '../../../shared/planning';
import { LIST_KEYS, type ListOrder, updatedKey } from '../../../shared/sort';
import type { LocalItem } from './types';

/**
 * The maintained list keys behind every list screen's index (db.ts LIST_INDEX), so a screen reads its
 * first rows and its counts by range instead of loading every item of a status, type or user.
 *
 * - `_scope`: whose list a row can be on: 'g' guest data (`local`), 'a' account data (pending or
 *   synced), 'x' marked deleted (on no list). One value per scope, so one range reads a scope.
 * - `_sk`: the key the row's status lists sort by (src/shared/sort.ts): Queue created_at, Active
 *   updated_at || created_at, Completed completed_at || updated_at || created_at.
 * - `_uk`: updated_at || created_at, the order of 'assigned to me' whatever the status.
 * - `_asg`: assigned_to when someone other than the creator is assigned, absent otherwise (then the row
 *   is not in the assigned indexes), so 'created by or assigned to me' is two disjoint ranges whose
 *   counts add up.
 * - `_due`: the due day (YYYY-MM-DD) of an open item (not completed, not marked deleted), absent
 *   otherwise: Today and Upcoming read `[_scope+_due]` up to their last day, and a completed item,
 *   however old, is never on the way.
 * - `_pri`: the priority (1–4, 4 when unset) of a row that has `_due`, absent otherwise: the agenda
 *   indexes (db.ts AGENDA_INDEX) lead with the owner and priority, so Today and Upcoming read only the
 *   rows their first page shows, in their order, and count the rest without reading them.
 * - `_ord`: the manual order within a day (src/shared/agenda.ts dayOrderKey: sort_key, a space, uuid)
 *   of a row that has `_due`, absent otherwise: the agenda indexes end in it, so a day's rows of one
 *   priority come in manual order. A row without a sort_key or uuid still has one (it reads as ''),
 *   so it is indexed and, with the id IndexedDB appends, ordered as the shared rule orders it.
 * - `_sd`: the reach and start day of an open dated row that spans days or repeats, absent
 *   otherwise (calendarKey): the calendar indexes (db.ts CALENDAR_INDEX) read such rows up to a
 *   range's last day, since one due after the range can still start in it or repeat into it; rows
 *   on one day are read by the agenda indexes' due day. The reach leads so that a range reads, per
 *   reach, only the spans that start close enough before it to end in it: without it every span that
 *   ever started before the range's end was read, thousands on a device of 100,000 items.
 *
 * They depend on the row alone (and `_top`), so they are computed on the final value of every put to
 * `items` (the store's side effects, sideEffects.ts, call withListKeys): no write path has to remember them.
 */
export type ListScope = 'g' | 'a' | 'x';

/** The fields withKeys derives from the others at every put. */
export const LIST_KEY_FIELDS = ['_scope', '_sk', '_uk', '_asg', '_due', '_pri', '_ord', '_sd'] as const;

export interface ListKeys {
  _scope: ListScope;
  _sk: string;
  _uk: string;
  _asg?: number;
  _due?: string;
  _pri?: number;
  _ord?: string;
  _sd?: string;
}

type KeyedRow = Pick<
  LocalItem,
  | 'status'
  | 'created_at'
  | 'updated_at'
  | 'completed_at'
  | '_deleted'
  | '_syncStatus'
  | 'user_id'
  | 'assigned_to'
  | 'due_date'
  | 'priority'
  | 'sort_key'
  | 'uuid'
  | 'start_date'
  | 'recurrence'
> &
  Partial<ListKeys>;

/** The order of each status's lists (Queue, Active, Completed and My List's tabs). */
export const STATUS_ORDER = {
  pending: 'queue',
  in_progress: 'active',
  completed: 'completed',
} as const satisfies Record<ItemStatus, ListOrder>;

/** Whose lists a row can be on: 'g' guest data, 'a' account data, 'x' marked deleted (on none). */
export function scopeOf(row: Pick<LocalItem, '_deleted' | '_syncStatus'>): ListScope {
  return row._deleted === 1 ? 'x' : row._syncStatus === 'local' ? 'g' : 'a';
}

/**
 * How far a span may reach, in days from its start, by calendarKey's reach digit: a span of n days
 * (start to due) has the first whose reach is at least n. A longer span or a repeating row has the
 * unbounded reach `SPAN_UNBOUNDED`: a range reads all of those that start before its end.
 */
export const SPAN_REACH = [4, 16, 64, 256, 1024, 4096] as const;
export const SPAN_UNBOUNDED = 'z';

/** The calendar key `_sd` of a span from `start` to `due` (or a repeating row): its reach, a space, its start day. */
export function calendarKey(start: string, due: string, repeats: boolean): string {
  const days = daysBetween(start, due);
  const reach = repeats ? -1 : SPAN_REACH.findIndex((r) => days <= r);
  return `${reach < 0 ? SPAN_UNBOUNDED : reach} ${start}`;
}

/** A row's list keys from its own fields. */
export function listKeysOf(row: KeyedRow): ListKeys {
  const keys: ListKeys = {
    _scope: scopeOf(row),
    _sk: LIST_KEYS[STATUS_ORDER[row.status] ?? 'queue'](row as LocalItem),
    _uk: updatedKey(row as LocalItem),
  };
  if (typeof row.assigned_to === 'number' && row.assigned_to !== row.user_id) keys._asg = row.assigned_to;
  if (row.due_date && row.status !== 'completed' && keys._scope !== 'x') {
    keys._due = row.due_date.slice(0, 10);
    keys._pri = row.priority ?? DEFAULT_PRIORITY;
    keys._ord = dayOrderKey(row);
    const start = row.start_date ? row.start_date.slice(0, 10) : null;
    if ((start !== null && start < keys._due) || row.recurrence)
      keys._sd = calendarKey(start ?? keys._due, keys._due, !!row.recurrence);
  }
  return keys;
}

function hasKeys(row: KeyedRow, keys: ListKeys): boolean {
  return (
    row._scope === keys._scope &&
    row._sk === keys._sk &&
    row._uk === keys._uk &&
    row._asg === keys._asg &&
    row._due === keys._due &&
    row._pri === keys._pri &&
    row._ord === keys._ord &&
    row._sd === keys._sd
  );
}

/** `row` with its list keys set (the same object when they already are). */
export function withKeys<T extends KeyedRow>(row: T): T {
  const keys = listKeysOf(row);
  if (hasKeys(row, keys)) return row;
  const out = { ...row, ...keys };
  if (keys._asg === undefined) delete out._asg;
  if (keys._due === undefined) delete out._due;
  if (keys._pri === undefined) delete out._pri;
  if (keys._ord === undefined) delete out._ord;
  if (keys._sd === undefined) delete out._sd;
  return out;
}

/** The items table with every put's values given their list keys. */
export function withListKeys(table: DBCoreTable): DBCoreTable {
  return {
    ...table,
    mutate(req: DBCoreMutateRequest) {
      if (req.type !== 'put' && req.type !== 'add') return table.mutate(req);
      return table.mutate({ ...req, values: (req.values as KeyedRow[]).map(withKeys) });
    },
  };
}

/** Rewrites every item whose list keys are wrong or missing (the version 6 upgrade, the repair at open). */
export async function recomputeListKeys(items: Table<LocalItem, number>): Promise<number> {
  const rows = await items.toArray();
  const changed = rows.filter((r) => withKeys(r) !== r).map(withKeys);
  // Chunks keep one request from holding a copy of the whole table twice.
  for (let i = 0; i < changed.length; i += 5_000) await items.bulkPut(changed.slice(i, i + 5_000));
  return changed.length;
}
