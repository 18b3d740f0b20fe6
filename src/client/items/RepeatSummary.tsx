import { Repeat } from 'lucide-react';
import { recurrenceSummary } from '../../shared/recurrenceText';

/**
 * A card's repeat icon and its rule in words ('Every 2 weeks on Mon, Thu'). Its own chunk, loaded
 * only once a row on screen repeats: most lists have none, and the first screen does not pay for it.
 */
export default function RepeatSummary({ rule }: { rule: string }) {
  const text = recurrenceSummary(rule);
  if (!text) return null;
  return (
    <span className="inline-flex min-w-0 shrink items-center gap-1 truncate" data-repeat="">
      <Repeat className="size-3 shrink-0" aria-hidden />
      <span className="sr-only">Repeats:</span>
      <span className="truncate">{text}</span>
    </span>
  );
}
