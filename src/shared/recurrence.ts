import type { Weekday } from 'rrule';
import * as rruleModule from 'rrule';
import { v5 as uuidV5 } from 'uuid';
import type { ItemType } from './item';
import { formatRecurrence, parseRecurrence, type RecurrenceRule } from './recurrenceRule';

/**
 * The next occurrence of a repeating item (ARCHITECTURE §5, SYNC.md O1). One pure function that the
 * client runs at once (offline, as a guest) and the server runs in the completing transaction: the
 * same input gives the same item, uuid included, so both sides and every device meet on one row.
 */

// Bundlers load rrule's ES module; Node's own loader gets its UMD build, whose names only the
// CommonJS default export carries.
const RRule =
  rruleModule.RRule ??
  (Reflect.get(rruleModule, 'default') as { RRule: typeof rruleModule.RRule } | undefined)!.RRule;
type RRule = InstanceType<typeof RRule>;

const FREQ = { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY, YEARLY: RRule.YEARLY };
const WEEKDAY: Record<string, Weekday> = {
  MO: RRule.MO,
  TU: RRule.TU,
  WE: RRule.WE,
  TH: RRule.TH,
  FR: RRule.FR,
  SA: RRule.SA,
  SU: RRule.SU,
};

/** What an occurrence carries into the next one. */
export interface OccurrenceSource {
  uuid: string | null;
  series_uuid: string | null;
  title: string;
  description: string | null;
  type: ItemType;
  parent_id: number | null;
  assigned_to: number | null;
  due_date: string | null;
  remind_at: string | null;
  recurrence: string | null;
}

/** The create of the next occurrence: a pending item with its derived uuid. */
export interface NextOccurrence {
  uuid: string;
  series_uuid: string;
  title: string;
  description: string | null;
  type: ItemType;
  status: 'pending';
  parent_id: number | null;
  assigned_to: number | null;
  due_date: string;
  remind_at: string | null;
  recurrence: string;
}

const utcDay = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * The rule as an `rrule` object starting on `due` (dates are UTC midnights, so a date never shifts
 * with the device's time zone). COUNT is left out: each occurrence carries what is left of it.
 */
export function toRRule(rule: RecurrenceRule, due: string): RRule {
  return new RRule({
    freq: FREQ[rule.freq],
    interval: rule.interval,
    byweekday:
      rule.byDay.length > 0
        ? rule.byDay.map((d) => (d.n === null ? WEEKDAY[d.day]! : WEEKDAY[d.day]!.nth(d.n)))
        : null,
    bymonthday: rule.byMonthDay.length > 0 ? rule.byMonthDay : null,
    until: rule.until === null ? null : utcDay(rule.until),
    dtstart: utcDay(due),
  });
}

/** The rule's first date strictly after `due` (YYYY-MM-DD), or null when the series has ended. */
export function nextDueDate(rule: RecurrenceRule, due: string): string | null {
  if (rule.count !== null && rule.count <= 1) return null;
  const next = toRRule(rule, due).after(utcDay(due), false);
  return next ? next.toISOString().slice(0, 10) : null;
}

/** The uuid of a series' occurrence due on `due`: a UUID v5 in the series' namespace (O1). */
export function occurrenceUuid(seriesUuid: string, due: string): string {
  return uuidV5(due, seriesUuid);
}

/** The occurrence that completing `item` brings, or null when it does not repeat or its series has ended. */
export function nextOccurrence(item: OccurrenceSource): NextOccurrence | null {
  if (item.recurrence === null || item.due_date === null || item.uuid === null) return null;
  const parsed = parseRecurrence(item.recurrence);
  if (!parsed.ok) return null;
  const due = nextDueDate(parsed.rule, item.due_date);
  if (due === null) return null;
  const series = item.series_uuid ?? item.uuid;
  const shift = utcDay(due).getTime() - utcDay(item.due_date).getTime();
  const { count } = parsed.rule;
  return {
    uuid: occurrenceUuid(series, due),
    series_uuid: series,
    title: item.title,
    description: item.description,
    type: item.type,
    status: 'pending',
    parent_id: item.parent_id,
    assigned_to: item.assigned_to,
    due_date: due,
    remind_at: item.remind_at === null ? null : new Date(Date.parse(item.remind_at) + shift).toISOString(),
    recurrence: formatRecurrence({ ...parsed.rule, count: count === null ? null : count - 1 }),
  };
}
