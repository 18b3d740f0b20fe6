import { CheckSquare, Flag, ListChecks, Search } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { type ItemType, SERVER_SEARCH_LIMIT } from '../../shared/item';
import { normalizeQuery } from '../../shared/search';
import { focusNewHeading } from '../app/focusHeading';
import { type KeyboardKind, keyboardKind } from '../app/keyboardKind';
import { cn } from '../components/ui/cn';
import { overlayClasses } from '../components/ui/Dialog';
import { SEARCH_DEBOUNCE_MS } from '../components/ui/useDebouncedValue';
import { statusText, TYPE_TEXT } from '../items/itemStyle';
import { type SearchHit, useSearch } from './queries';
import { takeTypeahead } from './typeahead';

/** The spec shows up to 10 results in the dialog. */
export const SEARCH_RESULTS_SHOWN = 10;
/** A search answers with at most this many hits (the server's page, the local cap): 'N+' beyond. */
const COUNT_CAPS = [SERVER_SEARCH_LIMIT, 50];

/** 'Showing 10 of 37 results' when there are more than shown; the count alone otherwise. */
export function resultCountText(shown: number, total: number): string {
  if (total <= shown) return total === 1 ? '1 result' : `${total} results`;
  return `Showing ${shown} of ${total}${COUNT_CAPS.includes(total) ? '+' : ''} results`;
}

/**
 * The footer's hints: the keys that work in the dialog and the one that opens it here (Cmd on Apple
 * keyboards, Ctrl elsewhere); a touch screen has no keys to name.
 */
export function searchHints(kind: KeyboardKind): string[] {
  if (kind === 'touch') return ['Tap a result to open it'];
  const open = kind === 'apple' ? 'Cmd+K' : 'Ctrl+K';
  return ['↑↓ to move', 'Enter to open', 'Esc to close', `Press ${open} to open search anywhere`];
}

const TYPE_ICON: Record<ItemType, typeof Flag> = { campaign: Flag, task: ListChecks, todo: CheckSquare };

/** Where choosing a result goes: the item's page, a todo's parent, or nowhere for an orphan todo. */
export function searchTarget(hit: SearchHit): string | null {
  if (hit.type === 'campaign') return `/campaigns/${hit.id}`;
  if (hit.type === 'task') return `/tasks/${hit.id}`;
  if (hit.parent_id === null || hit.parent_id === 0) return null;
  return hit.parentType === 'campaign' ? `/campaigns/${hit.parent_id}` : `/tasks/${hit.parent_id}`;
}

export default function SearchDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const typedInto = useRef<(typed: string) => void>(() => {});
  /** A result was opened: focus goes to its page's heading, not back to what opened the dialog. */
  const opened = useRef(false);
  const id = useId();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={`${id}-hint`}
          // Radix would focus the input with its text selected: the next key must add to what was
          // typed while the dialog loaded, not replace it.
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            const input = inputRef.current;
            // What was typed since Ctrl/Cmd+K, while this code loaded, goes into the field, and
            // further keys reach it directly once it has focus. Into the element too, not only the
            // state: a key pressed before the next render must add to that text, not replace it.
            const typed = takeTypeahead();
            if (typed) {
              if (input) input.value += typed;
              typedInto.current(typed);
            }
            input?.focus();
            input?.setSelectionRange(input.value.length, input.value.length);
          }}
          onCloseAutoFocus={(event) => {
            if (!opened.current) return;
            opened.current = false;
            event.preventDefault();
          }}
          className="fixed top-[10vh] left-1/2 z-50 flex max-h-[80dvh] w-[calc(100vw-2rem)] -translate-x-1/2 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white text-zinc-900 shadow-xl outline-none data-[state=open]:animate-[dialog-in_180ms_ease-out] motion-reduce:animate-none sm:max-w-xl dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <DialogPrimitive.Title className="sr-only">Search items</DialogPrimitive.Title>
          {/* Its own component: typing and results re-render the panel only, not Radix's layers around it. */}
          <SearchPanel
            id={id}
            inputRef={inputRef}
            typedInto={typedInto}
            onClose={() => onOpenChange(false)}
            onOpened={() => {
              opened.current = true;
            }}
          />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** The dialog's field, results and hint; mounted while the dialog is open, so each opening starts empty. */
function SearchPanel({
  id,
  inputRef,
  typedInto,
  onClose,
  onOpened,
}: {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  typedInto: RefObject<(typed: string) => void>;
  onClose(): void;
  onOpened(): void;
}) {
  const navigate = useNavigate();
  const [keys] = useState(keyboardKind);
  const hints = searchHints(keys);
  const [text, setText] = useState('');
  typedInto.current = (typed) => setText((t) => t + typed);
  const [result, setResult] = useState<{ query: string; hits: SearchHit[]; total: number } | null>(null);
  const [active, setActive] = useState(0);
  const latest = useRef(0);
  const searchItems = useSearch();

  useEffect(() => {
    if (normalizeQuery(text) === null) return;
    // The spec's debounce, with the search started in the timer's own task: a debounced value would
    // first go through a render and an effect, which React runs after the next frame (8-10 ms more).
    const timer = setTimeout(() => {
      const ticket = ++latest.current;
      let shown: SearchHit[] | null = null;
      const show = (hits: SearchHit[]) => {
        // The device's hits again (the server failed): on screen already.
        if (ticket !== latest.current || hits === shown) return;
        // Rendered now, in this task: a scheduled render waits behind whatever else is queued.
        flushSync(() => {
          setResult({ query: text, hits: hits.slice(0, SEARCH_RESULTS_SHOWN), total: hits.length });
          // The server's answer replacing the device's keeps the selection where the keys moved it.
          const first = shown === null;
          shown = hits;
          setActive((a) => (first || a >= Math.min(hits.length, SEARCH_RESULTS_SHOWN) ? 0 : a));
        });
      };
      // Signed in and online, the device's hits show first and the server's answer replaces them.
      searchItems(text, show)
        .then(show)
        .catch((error: unknown) => {
          // The spec: a failed search clears the results and is logged.
          console.error('Search failed', error);
          if (ticket === latest.current) setResult({ query: text, hits: [], total: 0 });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, searchItems]);

  // Derived, so typing shows 'Searching...' at once and stale hits never show for newer text.
  const state =
    normalizeQuery(text) === null
      ? ('idle' as const)
      : result !== null && result.query === text
        ? ('done' as const)
        : ('searching' as const);
  const hits = state === 'done' && result ? result.hits : [];
  const total = state === 'done' && result ? result.total : 0;

  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    const target = searchTarget(hit);
    if (target === null) return;
    const previous = document.querySelector('main h1');
    onOpened();
    onClose();
    navigate(target);
    focusNewHeading(previous);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (hits.length > 0) setActive((a) => (a + 1) % hits.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (hits.length > 0) setActive((a) => (a - 1 + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(hits[active]);
    }
  };

  useEffect(() => {
    document.getElementById(`${id}-opt-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, id]);

  const listId = `${id}-list`;
  return (
    <>
      <div className="flex items-center gap-3 border-b border-zinc-200 px-4 dark:border-zinc-800">
        <Search className="size-5 shrink-0 text-zinc-400" aria-hidden />
        <input
          ref={inputRef}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Search items..."
          aria-label="Search items"
          data-search-input=""
          role="combobox"
          aria-expanded={hits.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={hits.length > 0 ? `${id}-opt-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          className="h-14 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-zinc-400 dark:placeholder:text-zinc-500"
        />
        {keys === 'touch' ? null : (
          <kbd className="hidden rounded border border-zinc-200 px-1.5 py-0.5 text-[11px] text-zinc-500 sm:inline dark:border-zinc-700 dark:text-zinc-400">
            Esc
          </kbd>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {state === 'idle' ? (
          <p className="px-3 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">
            Start typing to search across all your items
          </p>
        ) : state === 'searching' ? (
          <p role="status" className="px-3 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">
            Searching...
          </p>
        ) : hits.length === 0 ? (
          <p role="status" className="px-3 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">
            No items found for "{text.trim()}"
          </p>
        ) : null}
        <div id={listId} role="listbox" aria-label="Results" hidden={hits.length === 0}>
          {hits.map((hit, index) => {
            const Icon = TYPE_ICON[hit.type];
            const selectable = searchTarget(hit) !== null;
            return (
              // Focus stays in the input (combobox pattern); the mouse can still pick an option.
              // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the combobox input
              <div
                key={`${hit.type}-${hit.id}`}
                id={`${id}-opt-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                aria-disabled={!selectable || undefined}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(hit)}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5',
                  index === active && 'bg-zinc-100 dark:bg-zinc-800',
                  !selectable && 'cursor-default',
                )}
              >
                <Icon className={cn('size-4 shrink-0', TYPE_TEXT[hit.type])} aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{hit.title}</p>
                  {hit.parentTitle ? (
                    <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">in {hit.parentTitle}</p>
                  ) : null}
                  {hit.comment ? (
                    // Found by a comment only: the words that matched, so the title alone is no puzzle.
                    // Two lines, not one: on a phone one line cut off the very words searched for.
                    <p
                      className="line-clamp-2 break-words text-xs text-zinc-600 italic dark:text-zinc-400"
                      data-search-comment=""
                    >
                      Comment: {hit.comment}
                    </p>
                  ) : null}
                </div>
                <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">
                  {statusText(hit.status)}
                </span>
              </div>
            );
          })}
        </div>
        {hits.length > 0 ? (
          <p
            role="status"
            className={cn(
              'px-3 pt-2 pb-1 text-xs text-zinc-600 dark:text-zinc-400',
              total <= hits.length && 'sr-only',
            )}
          >
            {resultCountText(hits.length, total)}
          </p>
        ) : null}
      </div>
      <p
        id={`${id}-hint`}
        className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-zinc-200 px-4 py-2 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400"
      >
        {hints.map((hint, n) => (
          <span key={hint} className={cn(n > 0 && n === hints.length - 1 && 'ml-auto')}>
            {hint}
          </span>
        ))}
      </p>
    </>
  );
}
