/**
 * What a quick-add field shows of its reading (DESIGN 'Planning, order and people'): the chips under
 * the field, each with its icon, the value in words and a remove button, and the tint over the words
 * they took, so nothing is taken unseen. Loaded with the reader (useQuickAddReading.ts), never with
 * the first screen.
 */
import { BellRing, CalendarDays, Flag, Repeat, Tag, UserRound, X } from 'lucide-react';
import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';
import { cn, focusRing } from '../components/ui/cn';
import { TYPE_DOT } from './itemStyle';
import type { QuickAddChip } from './quickAddReader';

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
      return <UserRound aria-hidden className={cn(icon, 'text-zinc-500 dark:text-zinc-400')} />;
    default:
      return <Tag aria-hidden className={cn(icon, 'text-zinc-500 dark:text-zinc-400')} />;
  }
}

export interface QuickAddChipsProps {
  chips: readonly QuickAddChip[];
  onRemove: (key: string) => void;
  /** Where focus goes when the last chip is removed (the title field). */
  onEmptied: () => void;
  className?: string;
}

/** The parts read from the title, as a labelled list; each remove button says what it removes. */
export function QuickAddChips({ chips, onRemove, onEmptied, className }: QuickAddChipsProps) {
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
      {chips.map((chip, index) => (
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
      ))}
    </ul>
  );
}

export interface TitleTintProps {
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
export function TitleTint({ text, spans, inputRef, className }: TitleTintProps) {
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
        'pointer-events-none absolute inset-0 flex items-center overflow-hidden whitespace-pre text-transparent',
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
