import { readQuickAdd } from '../quickAdd';

/**
 * The readings both engines share: dates in words (quick add's), people by name, and text compared
 * without case, so the device's evaluator and the server's SQL agree on every value.
 */

/** Lower case with runs of white space as one space, trimmed: how names and words compare. */
export function folded(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

const dateCache = new Map<string, string | null>();

/**
 * The day (YYYY-MM-DD) the words name, counted from `today` as quick add reads them ('tomorrow',
 * 'next friday', 'dec 3', '2026-12-03'); null unless the words are one date and nothing else.
 */
export function readFilterDate(words: string, today: string): string | null {
  const key = `${today}|${words}`;
  const known = dateCache.get(key);
  if (known !== undefined) return known;
  let day: string | null = null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(today)) {
    // Noon UTC: the day is `today` whatever zone the words are read in.
    const reading = readQuickAdd(words, { now: new Date(`${today}T12:00:00Z`), timeZone: 'UTC' });
    const oneDate =
      reading.title.trim() === '' &&
      reading.recurrence === null &&
      reading.start_date === null &&
      reading.parts.length > 0 &&
      reading.parts.every((p) => p.kind === 'date' && !p.off);
    day = oneDate ? reading.due_date : null;
  }
  // Reading words is slow next to a comparison: a list evaluates the same few phrases for every item.
  if (dateCache.size > 1000) dateCache.clear();
  dateCache.set(key, day);
  return day;
}

/** A person whose name is `name` answers to `query`: the whole name or its first word, without case. */
export function personMatches(name: string, query: string): boolean {
  const n = folded(name);
  const q = folded(query);
  return q !== '' && (n === q || n.split(' ')[0] === q);
}

/** The words of a `search:`, folded: each must appear in the title, the description or a comment. */
export function searchWords(words: string): string[] {
  return folded(words).split(' ').filter(Boolean);
}
