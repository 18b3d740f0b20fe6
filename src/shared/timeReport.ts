import { type TimeReportRow, weekOf } from './timeEntries';
import { entryMinutes, type SpentEntry } from './timeRollup';

/**
 * The time report (ARCHITECTURE §5 'Time tracking'): the device's entries summed by person, item,
 * campaign and week under the report's filters. Apart from the roll-up (timeRollup.ts), which every
 * row with spent time needs; only the report's screen loads this. Framework-free.
 */

/**
 * An entry as the report reads it: with its item's title, its campaign (null when none) and the
 * task its item is or lies under (absent or null when none).
 */
export interface ReportEntry extends SpentEntry {
  item_title: string;
  campaign: { id: number; title: string } | null;
  task_title?: string | null;
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
      start: new Date(e.started_at).toISOString(),
      end: e.ended_at === null ? '' : new Date(e.ended_at).toISOString(),
      person: e.user_name,
      campaign: e.campaign?.title ?? '',
      task: e.task_title ?? '',
      item: e.item_title,
      minutes: entryMinutes(e, now),
      note: e.note,
    }));
}
