import type { ContactCandidate } from '../../shared/csv';
import { phonesToSend } from '../../shared/csv';
import type { Mutual } from '../../shared/item';
import { normalizePhone } from '../../shared/phone';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The 'Contacts imported' toast's text: how many were sent and how many of them are on Outpost as
 * mutual contacts, e.g. 'Sent 3 contacts — 1 is on Outpost'. `onOutpost` null: not known (the
 * mutuals could not be read after the import). None mutual never says 'none on Outpost': a person who
 * uses Outpost but has not added your number is not shown, and whether a number has an account is
 * theirs to tell (issue 50).
 */
export function importSummary(sent: number, onOutpost: number | null): string {
  const head = `Sent ${plural(sent, 'contact', 'contacts')}`;
  if (onOutpost === null) return head;
  if (onOutpost === 0)
    return `${head} — no mutual contacts yet. People who use Outpost show up here once they add your number too.`;
  return `${head} — ${onOutpost} ${onOutpost === 1 ? 'is' : 'are'} on Outpost`;
}

/** How many of the sent contacts are now mutual contacts (phones compared in E.164). */
export function mutualsAmong(candidates: readonly ContactCandidate[], mutuals: readonly Mutual[]): number {
  const mine = new Set(mutuals.map((m) => normalizePhone(m.phone) ?? m.phone));
  return phonesToSend(candidates).filter((p) => mine.has(normalizePhone(p) ?? p)).length;
}
