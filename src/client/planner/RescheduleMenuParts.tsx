/**
 * The parts of a row's Reschedule menu that only a press opens: the Radix menu and the 'Pick a date'
 * dialog. Their own chunk, loaded on the first press (RescheduleMenu.tsx), so Today's and Upcoming's
 * first paint pays neither for them nor for a Radix menu root in every row.
 */
import { CalendarClock, CalendarDays, CalendarPlus, Sun, Sunrise } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { addDays, dayLabel, nextWeek } from '../../shared/agenda';
import { Button } from '../components/ui/Button';
import { Dialog, DialogContent, DialogFooter } from '../components/ui/Dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../components/ui/DropdownMenu';
import { Field } from '../components/ui/Field';
import { DateInput } from '../components/ui/Input';
import { type MenuIntent, useReplayMenuIntent } from '../components/ui/lazyMenu';

export interface RescheduleDropdownProps {
  title: string;
  /** The item's due day now (YYYY-MM-DD). */
  due: string | null;
  today: string;
  onPick: (day: string) => void;
  /** The press on the placeholder that loaded this module, replayed on the real trigger. */
  intent: MenuIntent | null;
  triggerClassName: string;
}

const hint = 'ml-auto pl-4 text-xs text-zinc-500 tabular-nums dark:text-zinc-400';

/**
 * Today, tomorrow, next week (the coming Monday) or a day picked in a small dialog. A Radix menu, so
 * it opens with Enter, Space or ↓ and its items are read and reached by keyboard; the day it would
 * already be on is not offered again.
 */
export function RescheduleDropdown({
  title,
  due,
  today,
  onPick,
  intent,
  triggerClassName,
}: RescheduleDropdownProps) {
  const [picking, setPicking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  useReplayMenuIntent(trigger, intent);
  const tomorrow = addDays(today, 1);
  const monday = nextWeek(today);
  const choices = [
    { day: today, label: 'Today', icon: <Sun aria-hidden /> },
    { day: tomorrow, label: 'Tomorrow', icon: <Sunrise aria-hidden /> },
    { day: monday, label: 'Next week', icon: <CalendarPlus aria-hidden /> },
  ].filter((c) => c.day !== due);
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          ref={trigger}
          className={triggerClassName}
          aria-label={`Reschedule ${title}`}
          title="Reschedule"
        >
          <CalendarClock aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-56">
          <DropdownMenuLabel className="text-xs font-medium text-zinc-500 dark:text-zinc-400">
            Reschedule
          </DropdownMenuLabel>
          {choices.map((c) => (
            <DropdownMenuItem key={c.label} onSelect={() => onPick(c.day)}>
              {c.icon}
              {c.label}
              <span className={hint}>{dayLabel(c.day)}</span>
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setPicking(true)}>
            <CalendarDays aria-hidden />
            Pick a date…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {picking ? (
        <PickDateDialog
          title={title}
          initial={due ?? today}
          onClose={() => setPicking(false)}
          onPick={(day) => {
            setPicking(false);
            onPick(day);
          }}
        />
      ) : null}
    </>
  );
}

function PickDateDialog({
  title,
  initial,
  onClose,
  onPick,
}: {
  title: string;
  initial: string;
  onClose: () => void;
  onPick: (day: string) => void;
}) {
  const [day, setDay] = useState(initial);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onPick(day);
  };
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title="Pick a date" description={title} size="sm">
        <form onSubmit={submit} aria-label="Pick a date">
          <Field label="Due date">
            {(control) => (
              <DateInput {...control} value={day} onChange={(e) => setDay(e.target.value)} required />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid}>
              Move
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
