/**
 * The Repeat control of the quick-add card, the Create dialog and the item's details: a Radix select
 * of Does not repeat, Daily, Weekdays, Weekly (on the due date's weekday), Monthly (same day), Yearly
 * and Custom (every N days, weeks on chosen weekdays, or months). It edits an RRULE string; loaded
 * on first use (React.lazy), so the first screen does not carry it.
 */
import { Check, ChevronDown, Repeat } from 'lucide-react';
import { Select } from 'radix-ui';
import { useEffect, useId, useState } from 'react';
import {
  customRule,
  parseRecurrence,
  presetOf,
  presetRule,
  type RepeatPreset,
  WEEKDAY_CODES,
  WEEKDAY_SHORT,
  type WeekdayCode,
  weekdayOf,
} from '../../shared/recurrenceRule';
import { ordinal } from '../../shared/recurrenceText';
import { cn, focusRing } from '../components/ui/cn';
import { inputClasses } from '../components/ui/Input';
import { localToday } from './itemPayload';

const WEEKDAY_NAMES: Record<WeekdayCode, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

type CustomFreq = 'DAILY' | 'WEEKLY' | 'MONTHLY';
const UNITS: Record<CustomFreq, [string, string]> = {
  DAILY: ['day', 'days'],
  WEEKLY: ['week', 'weeks'],
  MONTHLY: ['month', 'months'],
};

/** What each choice reads in the list, for an item due `due`. */
function choiceLabel(preset: RepeatPreset, due: string): string {
  switch (preset) {
    case 'none':
      return 'Does not repeat';
    case 'daily':
      return 'Daily';
    case 'weekdays':
      return 'Weekdays (Mon–Fri)';
    case 'weekly':
      return `Weekly on ${WEEKDAY_NAMES[weekdayOf(due)]}`;
    case 'monthly':
      return `Monthly on the ${ordinal(Number(due.slice(8, 10)))}`;
    case 'yearly':
      return 'Yearly';
    case 'custom':
      return 'Custom…';
  }
}

/** The custom fields a stored rule shows (a yearly rule reads as every 12 months). */
function customOf(
  rule: string | null,
  due: string,
): { freq: CustomFreq; interval: number; days: WeekdayCode[] } {
  const parsed = rule === null ? null : parseRecurrence(rule);
  if (!parsed?.ok) return { freq: 'WEEKLY', interval: 1, days: [weekdayOf(due)] };
  const { freq, interval, byDay } = parsed.rule;
  const days = byDay.filter((d) => d.n === null).map((d) => d.day);
  if (freq === 'YEARLY') return { freq: 'MONTHLY', interval: interval * 12, days: [] };
  return { freq, interval, days: freq === 'WEEKLY' && days.length === 0 ? [weekdayOf(due)] : days };
}

export interface RepeatControlProps {
  /** The rule (null: does not repeat). */
  value: string | null;
  /** The due date the presets count from; today when the item has none yet. */
  due: string | null;
  onChange(rule: string | null): void;
  /** The id the caller's <label> points at (the select's trigger). */
  id?: string;
  /** A form's choice follows its due date (Weekly on its weekday); a saved item's rule is left alone. */
  followDue?: boolean;
  triggerClassName?: string;
  disabled?: boolean;
  /** Open the list as it mounts (a placeholder trigger was pressed while this module loaded). */
  defaultOpen?: boolean;
  /** Called once the list opened for `defaultOpen`, so a later mount (the card reopened) stays closed. */
  onOpened?: () => void;
}

/** The Repeat select and, for Custom, its every-N and weekday fields. */
export default function RepeatControl({
  value,
  due,
  onChange,
  id,
  followDue = false,
  triggerClassName,
  disabled,
  defaultOpen,
  onOpened,
}: RepeatControlProps) {
  const day = due ?? localToday();
  const ownId = useId();
  const triggerId = id ?? `${ownId}-repeat`;
  const [mode, setMode] = useState<RepeatPreset>(() => presetOf(value, day));
  const custom = customOf(value, day);

  useEffect(() => {
    if (defaultOpen) onOpened?.();
  }, [defaultOpen, onOpened]);

  // The rule changed elsewhere (another device, Undo): show what it is now, unless Custom is open.
  useEffect(() => {
    setMode((current) => {
      const now = presetOf(value, day);
      return current === 'custom' && now !== 'none' ? current : now;
    });
  }, [value, day]);

  // In a form, Weekly and Monthly mean the due date's weekday and day: they follow it as it changes.
  useEffect(() => {
    if (!followDue || value === null) return;
    if (mode === 'weekly' || mode === 'monthly') {
      const next = presetRule(mode, day);
      if (next !== value) onChange(next);
    }
  }, [followDue, mode, day, value, onChange]);

  const choose = (next: string) => {
    const preset = next as RepeatPreset;
    setMode(preset);
    if (preset === 'none') onChange(null);
    else if (preset === 'custom') onChange(customRule(custom.freq, custom.interval, custom.days));
    else onChange(presetRule(preset, day));
  };

  const setCustom = (patch: Partial<typeof custom>) => {
    const next = { ...custom, ...patch };
    if (next.freq === 'WEEKLY' && next.days.length === 0) next.days = [weekdayOf(day)];
    onChange(customRule(next.freq, next.interval, next.freq === 'WEEKLY' ? next.days : []));
  };

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Select.Root value={mode} onValueChange={choose} disabled={disabled} defaultOpen={defaultOpen}>
        <Select.Trigger
          id={triggerId}
          data-repeat-trigger=""
          className={cn(
            inputClasses(),
            'inline-flex h-9 w-auto min-w-0 items-center gap-1.5 text-left text-sm',
            triggerClassName,
          )}
        >
          <Repeat className="size-4 shrink-0 text-zinc-400 dark:text-zinc-500" aria-hidden />
          <span className="min-w-0 truncate">
            <Select.Value />
          </span>
          <Select.Icon className="ml-auto">
            <ChevronDown className="size-4 text-zinc-400" aria-hidden />
          </Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content
            // The quick-add card stays open while focus is in this list (it lives in a portal).
            data-keep-open=""
            position="popper"
            sideOffset={4}
            className="z-50 min-w-48 overflow-hidden rounded-lg border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
          >
            <Select.Viewport>
              {(['none', 'daily', 'weekdays', 'weekly', 'monthly', 'yearly', 'custom'] as const).map((p) => (
                <Select.Item
                  key={p}
                  value={p}
                  className="relative flex h-9 cursor-default select-none items-center rounded-md pr-2 pl-7 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800"
                >
                  <Select.ItemIndicator className="absolute left-2 inline-flex">
                    <Check className="size-4" aria-hidden />
                  </Select.ItemIndicator>
                  <Select.ItemText>{choiceLabel(p, day)}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
      {mode === 'custom' ? (
        <fieldset className="flex flex-wrap items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
          <legend className="sr-only">Custom repeat</legend>
          <label htmlFor={`${triggerId}-every`}>Every</label>
          <input
            id={`${triggerId}-every`}
            type="number"
            min={1}
            max={999}
            inputMode="numeric"
            value={custom.interval}
            disabled={disabled}
            onChange={(e) => setCustom({ interval: Number(e.target.value) || 1 })}
            className={cn(inputClasses(), 'h-9 w-16 text-sm')}
          />
          <label htmlFor={`${triggerId}-unit`} className="sr-only">
            Unit
          </label>
          <select
            id={`${triggerId}-unit`}
            value={custom.freq}
            disabled={disabled}
            onChange={(e) => setCustom({ freq: e.target.value as CustomFreq })}
            className={cn(inputClasses(), 'h-9 w-auto text-sm')}
          >
            {(Object.keys(UNITS) as CustomFreq[]).map((f) => (
              <option key={f} value={f}>
                {UNITS[f][custom.interval === 1 ? 0 : 1]}
              </option>
            ))}
          </select>
          {custom.freq === 'WEEKLY' ? (
            <fieldset className="flex flex-wrap gap-1">
              <legend className="sr-only">On these weekdays</legend>
              {WEEKDAY_CODES.map((d) => {
                const on = custom.days.includes(d);
                return (
                  <button
                    key={d}
                    type="button"
                    aria-pressed={on}
                    aria-label={WEEKDAY_NAMES[d]}
                    disabled={disabled}
                    onClick={() =>
                      setCustom({ days: on ? custom.days.filter((x) => x !== d) : [...custom.days, d] })
                    }
                    className={cn(
                      'h-8 min-w-10 rounded-full border px-2 text-xs font-medium',
                      focusRing,
                      on
                        ? 'border-zinc-900 bg-zinc-900 text-white dark:border-zinc-100 dark:bg-zinc-100 dark:text-zinc-900'
                        : 'border-zinc-200 text-zinc-600 hover:border-zinc-300 dark:border-zinc-700 dark:text-zinc-400',
                    )}
                  >
                    {WEEKDAY_SHORT[d]}
                  </button>
                );
              })}
            </fieldset>
          ) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
