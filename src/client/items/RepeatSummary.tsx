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
    // Its words are read whole ('Every day', not 'Ev…', issue 50): the parent's name and the assignee
    // give way first; only a long rule is cut, at the width of a short one.
    <span className="inline-flex max-w-44 shrink-0 items-center gap-1" data-repeat="">
      <Repeat className="size-3 shrink-0" aria-hidden />
      <span className="sr-only">Repeats:</span>
      <span className="truncate">{text}</span>
    </span>
  );
}
