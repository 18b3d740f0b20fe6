import { minutesOf, type TimeReportRow, weekOf } from './timeEntries';

/**
 * Spent time from time entries (ARCHITECTURE §5 'Time tracking', SYNC.md X11): rolled up from an
 * item to its task and campaign, and summed for the time report, on the device from its own entries
 * (so an entry made offline counts at once). Framework-free.
 */

/** What the roll-up and the report read of an entry. */
export interface SpentEntry {
  item_id: number;
  user_id: number;
  user_name: string;
  started_at: string;
  ended_at: string | null;
  note: string;
}

/** Minutes of one entry: a running one counts up to `now`. */
export const entryMinutes = (e: Pick<SpentEntry, 'started_at' | 'ended_at'>, now: number): number =>
  minutesOf(e.started_at, e.ended_at, now);

/**
 * X11: minutes spent per item, each entry counted on its item and on every ancestor `parentOf` knows
 * (a todo's task and campaign); an item with none is absent. A cycle in `parentOf` stops at the first repeat.
 */
export function rollupSpent(
  entries: readonly Pick<SpentEntry, 'item_id' | 'started_at' | 'ended_at'>[],
  parentOf: (id: number) => number | null | undefined,
  now: number,
): Map<number, number> {
  const spent = new Map<number, number>();
  for (const entry of entries) {
    const minutes = entryMinutes(entry, now);
    const seen = new Set<number>();
    for (let id: number | null | undefined = entry.item_id; id != null && !seen.has(id); id = parentOf(id)) {
      seen.add(id);
      spent.set(id, (spent.get(id) ?? 0) + minutes);
    }
  }
  return spent;
}

/** How far spent is along the estimate, for the bar: its share (0–1) and whether it went past. */
export function spentProgress(
  spent: number,
  estimate: number | null | undefined,
): { share: number; over: boolean } | null {
  if (estimate == null || estimate <= 0) return null;
  return { share: Math.min(1, spent / estimate), over: spent > estimate };
}

/** An entry as the report reads it: with its item's title and its campaign (null when none). */
export interface ReportEntry extends SpentEntry {
  item_title: string;
  campaign: { id: number; title: string } | null;
}

/** The report's filters (§4 GET /api/time_entries): UTC days, both included. */
export interface ReportFilters {
  from?: string | undefined;
  to?: string | undefined;
  campaignId?: number | undefined;
  userId?: number | undefined;
}

/** Whether an entry passes the report's filters. */
export function inReport(entry: ReportEntry, f: ReportFilters): boolean {
  const day = entry.started_at.slice(0, 10);
  if (f.from && day < f.from) return false;
  if (f.to && day > f.to) return false;
  if (f.campaignId !== undefined && entry.campaign?.id !== f.campaignId) return false;
  if (f.userId !== undefined && entry.user_id !== f.userId) return false;
  return true;
}

/** One line of a report's sums: a key, what it shows, and its minutes. */
export interface ReportSum {
  key: string;
  label: string;
  minutes: number;
}

/** The report: its total and its sums by campaign, person and week (Monday, UTC), largest first. */
export interface TimeReport {
  total: number;
  entries: number;
  byCampaign: ReportSum[];
  byPerson: ReportSum[];
  byWeek: ReportSum[];
}

function sums(map: Map<string, ReportSum>, order: 'minutes' | 'key'): ReportSum[] {
  return [...map.values()].sort((a, b) =>
    order === 'key'
      ? a.key < b.key
        ? 1
        : a.key > b.key
          ? -1
          : 0
      : b.minutes - a.minutes || a.label.localeCompare(b.label),
  );
}

function add(map: Map<string, ReportSum>, key: string, label: string, minutes: number): void {
  const found = map.get(key);
  if (found) found.minutes += minutes;
  else map.set(key, { key, label, minutes });
}

/** The time report of `entries` under `filters` (weeks newest first, the rest largest first). */
export function timeReport(entries: readonly ReportEntry[], filters: ReportFilters, now: number): TimeReport {
  const byCampaign = new Map<string, ReportSum>();
  const byPerson = new Map<string, ReportSum>();
  const byWeek = new Map<string, ReportSum>();
  let total = 0;
  let count = 0;
  for (const entry of entries) {
    if (!inReport(entry, filters)) continue;
    const minutes = entryMinutes(entry, now);
    total += minutes;
    count++;
    add(
      byCampaign,
      entry.campaign ? String(entry.campaign.id) : 'none',
      entry.campaign?.title ?? 'No campaign',
      minutes,
    );
    add(byPerson, String(entry.user_id), entry.user_name, minutes);
    const week = weekOf(entry.started_at);
    add(byWeek, week, `Week of ${week}`, minutes);
  }
  return {
    total,
    entries: count,
    byCampaign: sums(byCampaign, 'minutes'),
    byPerson: sums(byPerson, 'minutes'),
    byWeek: sums(byWeek, 'key'),
  };
}

/** The report's lines for its CSV (shared/timeEntries.ts timeReportCsv), newest first, as the server's. */
export function reportRowsOf(
  entries: readonly ReportEntry[],
  filters: ReportFilters,
  now: number,
): TimeReportRow[] {
  return entries
    .filter((e) => inReport(e, filters))
    .sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0))
    .map((e) => ({
      date: e.started_at.slice(0, 10),
      person: e.user_name,
      campaign: e.campaign?.title ?? '',
      item: e.item_title,
      minutes: entryMinutes(e, now),
      note: e.note,
    }));
}
