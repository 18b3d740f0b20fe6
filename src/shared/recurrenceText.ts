/**
 * A stored repeat rule in words, for the cards on the first screen: a small reader of the canonical
 * RRULE the schemas store (recurrenceRule.ts formats it), so a list renders without the validator,
 * zod or rrule.
 */

const UNIT: Record<string, string> = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const DAY_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** 1st, 2nd, 23rd; 'last' and '2nd to last' for counts from the end. */
export function ordinal(n: number): string {
  if (n === -1) return 'last';
  if (n < 0) return `${ordinal(-n)} to last`;
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

/** The rule in words for a card: 'Every 2 weeks on Mon, Thu', 'Every weekday'; null for none or nonsense. */
export function recurrenceSummary(rule: string | null | undefined): string | null {
  if (!rule) return null;
  const parts = new Map(
    rule
      .toUpperCase()
      .replace(/^RRULE:/, '')
      .split(';')
      .map((p): [string, string] => [p.split('=')[0] ?? '', p.split('=')[1] ?? '']),
  );
  const unit = UNIT[parts.get('FREQ') ?? ''];
  if (!unit) return null;
  const interval = Number(parts.get('INTERVAL') ?? 1) || 1;
  const byDay = (parts.get('BYDAY') ?? '')
    .split(',')
    .filter(Boolean)
    .map((d) => ({ n: d.length > 2 ? Number(d.slice(0, -2)) : null, i: DAYS.indexOf(d.slice(-2)) }))
    .filter((d) => d.i >= 0)
    .sort((a, b) => a.i - b.i);
  const weekdays = byDay.length === 5 && byDay.every((d, k) => d.n === null && d.i === k);
  let out =
    interval === 1 && weekdays && unit !== 'day'
      ? 'Every weekday'
      : interval === 1
        ? `Every ${unit}`
        : `Every ${interval} ${unit}s`;
  if (byDay.length > 0 && !(interval === 1 && weekdays))
    out += ` on ${byDay.map((d) => `${d.n === null ? '' : `${ordinal(d.n)} `}${DAY_SHORT[d.i]}`).join(', ')}`;
  const monthDays = (parts.get('BYMONTHDAY') ?? '').split(',').filter(Boolean).map(Number);
  if (monthDays.length > 0) out += ` on the ${monthDays.map(ordinal).join(', ')}`;
  const count = parts.get('COUNT');
  if (count) out += count === '1' ? ', once more' : `, ${count} times`;
  const until = /^(\d{4})(\d{2})(\d{2})/.exec(parts.get('UNTIL') ?? '');
  if (until) out += ` until ${until[1]}-${until[2]}-${until[3]}`;
  return out;
}
