const pad = (n: number) => String(n).padStart(2, '0');

/** The device's day `offset` days from today, as the app keys it (YYYY-MM-DD). */
export function dayFromToday(offset: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const words = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** 'Sat 28 Nov': a day as the Calendar and Timeline say it. */
export const dayWords = (day: string) => words.format(new Date(`${day}T00:00:00Z`));
