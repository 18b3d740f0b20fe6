// The time report's CSV, apart from the time entries' rules (timeEntries.ts), which the data layer
// loads with Home: papaparse is only for the report's download and the server's answer.
import Papa from 'papaparse';
import { csvCell } from './csvCell';
import type { TimeReportRow } from './timeEntries';

export const TIME_CSV_COLUMNS = [
  'date',
  'start',
  'end',
  'person',
  'campaign',
  'task',
  'item',
  'minutes',
  'note',
] as const;

/** The report as RFC 4180 CSV, every text cell under the CSV injection rule (§5 'Import and export'). */
export function timeReportCsv(rows: readonly TimeReportRow[]): string {
  return Papa.unparse(
    {
      fields: [...TIME_CSV_COLUMNS],
      data: rows.map((r) =>
        [r.date, r.start, r.end, r.person, r.campaign, r.task, r.item, String(r.minutes), r.note].map(
          csvCell,
        ),
      ),
    },
    { newline: '\r\n' },
  );
}
