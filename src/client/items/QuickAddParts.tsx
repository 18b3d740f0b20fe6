/**
 * Quick add reads what you mean (ARCHITECTURE §5), as a form shows it: the reading of its title as
 * typed (TitleReading), the chips under the field, each with its icon, the value in words and a
 * remove button, and the tint over the words they took, so nothing is taken unseen (DESIGN 'Planning,
 * order and people'). A form loads this module (and chrono-node with it) on its title's first focus
 * or keystroke, never with the first screen; a submit before it has arrived waits for it (useTitleReader).
 */
import { AtSign, BellRing, CalendarDays, Flag, Plus, Repeat, Tag, X } from 'lucide-react';
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ItemType } from '../../shared/item';
import type { ItemCreateInput } from '../../shared/schemas';
import { cn, focusRing } from '../components/ui/cn';
import { type LiveQuery, useLive } from '../data/live';
import { canSubmitTitle } from './itemPayload';
import { TYPE_DOT } from './itemStyle';
import { useAssigneeOptions } from './mutations';
import {
  chipFilling,
  type ParentCandidate,
  type QuickAddChip,
  type ReadTitle,
  readTitle,
  shownValues,
  withReading,
} from './quickAddReader';
import type { NewItemFormValues } from './useItemForm';

/** A reading, with the way to remove one of its chips and to save it. */
export interface LiveReading extends ReadTitle {
  /** Removes a chip: its words stay in the title. */
  dismiss: (key: string) => void;
  /** Turns an unsure chip on ('Workshop 2h': the reminder): its words leave the title. */
  accept: (key: string) => void;
  /** The form's create payload with what the words said (withReading). */
  apply: (payload: ItemCreateInput) => ItemCreateInput;
  /** The title that is left may be saved (not blank: 'tomorrow' alone is no title). */
  savable: boolean;
  /** The form's values as its fields show them, with what the chips set (shownValues). */
  over: <V extends NewItemFormValues>(values: V) => V;
  /** The person set this field by hand: the chip that filled it goes, its words back to the title. */
  release: (field: keyof NewItemFormValues) => void;
  /** Read with all it needs: false while a #name's campaigns and tasks are still being looked up. */
  settled: boolean;
}

const NO_PARENTS: ParentCandidate[] = [];
const NOTHING_DISMISSED: ReadonlySet<string> = new Set();

// Read only while the text holds a '#': most titles name no parent and need not list every campaign.
const parentCandidatesQuery: LiveQuery<boolean, ParentCandidate[]> = async (reads, wanted) => {
  if (!wanted) return NO_PARENTS;
  const [campaigns, tasks] = await Promise.all([reads.homeItems('campaign'), reads.homeItems('task')]);
  return [...campaigns, ...tasks].map((i) => ({ id: i.id, type: i.type, title: i.title, status: i.status }));
};

export interface TitleReadingProps {
  text: string;
  type: ItemType;
  /** A campaign in the Create dialog has an end date where the others have a due date. */
  dateField?: 'due_date' | 'end_date';
  /** Whether the form saves an assignee for this type. */
  assignee: boolean;
  /** Receives the reading after every change (null while the text is blank, and when unmounted). */
  onReading: (reading: LiveReading | null) => void;
  /** The title field: the tint lies over it, and focus goes back to it when the last chip goes. */
  inputRef: RefObject<HTMLInputElement | null>;
  /**
   * Places the tint over the field (TitleReading sits in the field's positioned wrapper, under the
   * field): its top and height, and the field's border, padding and font. The defaults fit the
   * quick-add card's borderless 48 px field (those bytes are not the first screen's).
   */
  tintClassName?: string;
  className?: string;
  /** Where the new item goes: inside a campaign, @ reads only people who may be assigned there (M15). */
  parentId?: number | null;
}

/**
 * Reads a form's title as it is typed, from the device alone (its campaigns and tasks, its people, its
 * clock and zone), shows the chips, and hands the reading to the form, which saves it (and tints the
 * words in its field). Removed chips are remembered until the title is emptied (saved or cleared).
 */
export function TitleReading({
  text,
  type,
  dateField = 'due_date',
  assignee,
  onReading,
  inputRef,
  tintClassName = 'top-0 h-12 text-base md:text-[15px]',
  className = 'pb-3',
  parentId = null,
}: TitleReadingProps) {
  const [dismissed, setDismissed] = useState(NOTHING_DISMISSED);
  const [accepted, setAccepted] = useState(NOTHING_DISMISSED);
  const blank = text.trim() === '';
  if (blank && dismissed !== NOTHING_DISMISSED) setDismissed(NOTHING_DISMISSED);
  if (blank && accepted !== NOTHING_DISMISSED) setAccepted(NOTHING_DISMISSED);
  // The people @ may name are those of where the item goes: a '#Name' read in the title moves it, so
  // the next render reads @ against that campaign's people (M16), not the form's place.
  const [readParent, setReadParent] = useState<number | null>(null);
  const people = useAssigneeOptions({ id: 0, type, parent_id: readParent ?? parentId });
  const namesParent = /(?:^|\s)#\S/.test(text);
  const parentsRead = useLive(parentCandidatesQuery, namesParent);
  const parents = parentsRead ?? NO_PARENTS;
  const settled = !namesParent || parentsRead !== undefined;
  const reading = useMemo((): LiveReading | null => {
    if (blank) return null;
    const read = readTitle(text, dismissed, { type, dateField, assignee, parents, people }, accepted);
    const dismiss = (key: string) => setDismissed((d) => new Set(d).add(key));
    return {
      ...read,
      dismiss,
      accept: (key) => setAccepted((a) => new Set(a).add(key)),
      apply: (payload) => withReading(payload, read, dateField),
      savable: canSubmitTitle(read.title),
      over: (values) => shownValues(values, read, dateField),
      release: (field) => {
        const chip = chipFilling(field, read);
        if (chip) dismiss(chip.key);
      },
      settled,
    };
  }, [blank, text, dismissed, accepted, type, dateField, assignee, parents, people, settled]);
  const nextParent = reading?.parent_id ?? null;
  if (nextParent !== readParent) setReadParent(nextParent);
  // Before paint: the chips show with the keystroke that made them.
  useLayoutEffect(() => onReading(reading), [reading, onReading]);
  useLayoutEffect(() => () => onReading(null), [onReading]);
  if (reading === null || reading.chips.length === 0) return null;
  return (
    <>
      <TitleTint text={text} spans={reading.spans} inputRef={inputRef} className={tintClassName} />
      <div className={cn('flex flex-col gap-2', className)}>
        <QuickAddChips
          chips={reading.chips}
          onRemove={reading.dismiss}
          onAccept={reading.accept}
          onEmptied={() => inputRef.current?.focus()}
        />
        {reading.savable ? null : (
          // The form will not save an empty title; say why its button does nothing.
          <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
            Add a title: everything typed so far was read as the chips above.
          </p>
        )}
      </div>
    </>
  );
}

// DESIGN: p1 red, p2 orange, p3 blue, p4 none (a grey flag).
const PRIORITY_FLAG: Record<number, string> = {
  1: 'text-red-600 dark:text-red-400',
  2: 'text-orange-600 dark:text-orange-400',
  3: 'text-blue-600 dark:text-blue-400',
  4: 'text-zinc-500 dark:text-zinc-400',
};

function ChipIcon({ chip }: { chip: QuickAddChip }) {
  const icon = 'size-3.5 shrink-0';
  switch (chip.kind) {
    case 'date':
      return chip.noun.endsWith('reminder') ? (
        <BellRing aria-hidden className={cn(icon, 'text-indigo-600 dark:text-indigo-400')} />
      ) : (
        <CalendarDays aria-hidden className={cn(icon, 'text-indigo-600 dark:text-indigo-400')} />
      );
    case 'repeat':
      return <Repeat aria-hidden className={cn(icon, 'text-indigo-600 dark:text-indigo-400')} />;
    case 'priority':
      return <Flag aria-hidden className={cn(icon, PRIORITY_FLAG[chip.priority ?? 4])} />;
    case 'parent':
      return (
        <span
          aria-hidden
          className={cn('mx-0.5 size-2 shrink-0 rounded-full', TYPE_DOT[chip.parentType ?? 'campaign'])}
        />
      );
    case 'assignee':
      return <AtSign aria-hidden className={cn(icon, 'text-zinc-500 dark:text-zinc-400')} />;
    default:
      return <Tag aria-hidden className={cn(icon, 'text-zinc-500 dark:text-zinc-400')} />;
  }
}

interface QuickAddChipsProps {
  chips: readonly QuickAddChip[];
  onRemove: (key: string) => void;
  /** Turns an unsure chip on. */
  onAccept: (key: string) => void;
  /** Where focus goes when the last chip is removed (the title field). */
  onEmptied: () => void;
  className?: string;
}

/** The parts read from the title, as a labelled list; each remove button says what it removes. */
function QuickAddChips({ chips, onRemove, onAccept, onEmptied, className }: QuickAddChipsProps) {
  const listRef = useRef<HTMLUListElement>(null);
  // After a removal, focus stays in the list (the chip now at that place, else the one before), or
  // goes back to the field: a removed button must not drop focus to the page.
  const refocus = useRef<number | null>(null);
  useEffect(() => {
    const at = refocus.current;
    if (at === null) return;
    refocus.current = null;
    const buttons = listRef.current?.querySelectorAll('button') ?? [];
    const next = buttons[Math.min(at, buttons.length - 1)];
    if (next) next.focus();
    else onEmptied();
  });

  if (chips.length === 0) return null;
  return (
    <ul
      ref={listRef}
      aria-label="Understood from the title"
      className={cn('flex flex-wrap gap-1.5', className)}
    >
      {chips.map((chip, index) =>
        chip.off ? (
          // Unsure ('Workshop 2h'): dashed and muted, its words still in the title; one press takes them.
          <li
            key={chip.key}
            className="inline-flex h-7 max-w-full min-w-0 items-center rounded-full border border-dashed border-zinc-300 text-xs text-zinc-500 dark:border-zinc-600 dark:text-zinc-400"
          >
            <button
              type="button"
              aria-pressed={false}
              aria-label={`Use “${chip.text}” as ${chip.noun}: ${chip.label}`}
              title={`Take “${chip.text}” out of the title as ${chip.noun}`}
              onClick={() => {
                refocus.current = index;
                onAccept(chip.key);
              }}
              className={cn(
                'inline-flex h-full min-w-0 items-center gap-1.5 rounded-full pr-2.5 pl-2 transition-colors duration-150 hover:bg-zinc-100 hover:text-zinc-900 motion-reduce:transition-none dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              <Plus aria-hidden className="size-3.5 shrink-0" />
              <span className="min-w-0 truncate">{chip.label}</span>
            </button>
          </li>
        ) : (
          <li
            key={chip.key}
            className="inline-flex h-7 max-w-full min-w-0 items-center gap-1.5 rounded-full border border-zinc-200 bg-zinc-50 pr-0.5 pl-2.5 text-xs font-medium text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-200"
          >
            <ChipIcon chip={chip} />
            <span className="min-w-0 truncate" title={chip.text}>
              {chip.label}
            </span>
            <button
              type="button"
              aria-label={`Remove ${chip.noun} ${chip.text}`}
              title={`Keep “${chip.text}” in the title`}
              onClick={() => {
                refocus.current = index;
                onRemove(chip.key);
              }}
              className={cn(
                'inline-flex size-6 shrink-0 items-center justify-center rounded-full text-zinc-500 transition-colors duration-150 hover:bg-zinc-200 hover:text-zinc-900 motion-reduce:transition-none dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              <X aria-hidden className="size-3.5" />
            </button>
          </li>
        ),
      )}
    </ul>
  );
}

interface TitleTintProps {
  text: string;
  spans: readonly (readonly [number, number])[];
  /** The field the tint lies over; its horizontal scroll is followed. */
  inputRef: RefObject<HTMLInputElement | null>;
  /** The field's padding, border and font, so the tinted words sit exactly over the typed ones. */
  className?: string;
}

/**
 * A tint over the words the chips took, laid over the field (pointer events pass through, screen
 * readers skip it): the text itself is transparent here, so the field's own text, caret and selection
 * show through the translucent marks.
 */
function TitleTint({ text, spans, inputRef, className }: TitleTintProps) {
  const tintRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const input = inputRef.current;
    const tint = tintRef.current;
    if (!input || !tint) return;
    const follow = () => {
      tint.scrollLeft = input.scrollLeft;
    };
    follow();
    // The field scrolls as the caret moves past its edge; 'scroll' covers most of it, a frame after
    // each key or selection change the rest.
    const later = () => requestAnimationFrame(follow);
    const events = ['scroll', 'input', 'keyup', 'select', 'pointerup', 'focus'] as const;
    for (const e of events) input.addEventListener(e, later);
    return () => {
      for (const e of events) input.removeEventListener(e, later);
    };
  });

  if (spans.length === 0) return null;
  const pieces: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (start > at) pieces.push({ text: text.slice(at, start), marked: false });
    pieces.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false });

  return (
    <div
      ref={tintRef}
      aria-hidden
      className={cn(
        'pointer-events-none absolute inset-x-0 flex items-center overflow-hidden whitespace-pre text-transparent',
        className,
      )}
    >
      <span>
        {pieces.map((p, i) =>
          p.marked ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional and rebuilt every render
            <mark key={i} className="rounded-sm bg-indigo-500/15 text-transparent dark:bg-indigo-400/25">
              {p.text}
            </mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <span key={i}>{p.text}</span>
          ),
        )}
      </span>
    </div>
  );
}
