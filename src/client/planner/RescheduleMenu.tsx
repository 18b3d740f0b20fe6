import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { cn, focusRing } from '../components/ui/cn';
import {
  closedTriggerAria,
  lazyModule,
  type MenuIntent,
  placeholderTriggerHandlers,
} from '../components/ui/lazyMenu';

export interface RescheduleMenuProps {
  title: string;
  /** The item's due day now (YYYY-MM-DD). */
  due: string | null;
  today: string;
  onPick: (day: string) => void;
}

const trigger = cn(
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-zinc-500 transition-colors duration-150 hover:bg-zinc-100 hover:text-zinc-900 motion-reduce:transition-none dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 [&_svg]:size-4',
  focusRing,
);

// The menu and its dialog load on the first press (RescheduleMenuParts.tsx): a Radix menu root in every
// row of Today and Upcoming was most of what drawing their rows cost.
const parts = lazyModule(() => import('./RescheduleMenuParts'));

/**
 * A row's 'Reschedule' menu: today, tomorrow, next week or a picked day (RescheduleMenuParts.tsx). Until
 * it is first pressed it is a plain button with the Radix trigger's look, name and ARIA; the press loads
 * the menu, which opens as Radix opens it (lazyMenu.ts). The row itself is never drawn again for it.
 */
export function RescheduleMenu(props: RescheduleMenuProps) {
  const [loaded, setLoaded] = useState(parts.current);
  const [intent, setIntent] = useState<MenuIntent | null>(null);
  const open = (pressed: MenuIntent) => {
    if (intent) return;
    setIntent(pressed);
    parts.load().then(setLoaded, () => setIntent(null));
  };
  if (loaded) return <loaded.RescheduleDropdown {...props} intent={intent} triggerClassName={trigger} />;
  return (
    <button
      type="button"
      className={trigger}
      aria-label={`Reschedule ${props.title}`}
      title="Reschedule"
      {...closedTriggerAria}
      {...placeholderTriggerHandlers(open)}
    >
      <CalendarClock aria-hidden />
    </button>
  );
}
