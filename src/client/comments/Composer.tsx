import { Popover } from 'radix-ui';
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { COMMENT_BODY_MAX } from '../../shared/comments';
import { isBlankText } from '../../shared/text';
import { type KeyboardKind, keyboardKind } from '../app/keyboardKind';
import { Avatar } from '../components/ui/Avatar';
import { Button } from '../components/ui/Button';
import { cn } from '../components/ui/cn';
import { Textarea } from '../components/ui/Input';
import { encodeMentions } from './mutations';

export interface Person {
  id: number;
  name: string;
}

/** The `@word` being typed right before the caret, or null. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,30})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/** The send shortcut as this keyboard names it; none on a touch screen, which has no Ctrl (issue 50). */
const SEND_HINT: Record<KeyboardKind, string> = {
  touch: '',
  apple: '⌘+Enter to send',
  other: 'Ctrl+Enter to send',
};
const sendHint = () => SEND_HINT[keyboardKind()];

/**
 * A comment field: grows with its text, Ctrl/Cmd+Enter sends, and `@` opens a list of the people who
 * see the item (↑/↓ to choose, Enter or Tab to pick, Esc to close), announced to screen readers.
 * Picked people are sent by id (`@[id]` in the body); the field shows their names.
 */
export function Composer({
  people,
  onSend,
  initial = '',
  initialPicked = [],
  label = 'Comment',
  submitLabel = 'Send',
  onCancel,
}: {
  people: readonly Person[];
  onSend: (body: string, mentions: Person[]) => unknown;
  initial?: string;
  initialPicked?: Person[];
  label?: string;
  submitLabel?: string;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(initial);
  const [picked, setPicked] = useState<Person[]>(initialPicked);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const field = useRef<HTMLTextAreaElement>(null);
  // Where the caret stood right after a pick put its space: a space typed there next is that space.
  const pickedAt = useRef<number | null>(null);
  const listId = useId();
  const fieldId = useId();
  const hintId = useId();

  const matches = useMemo(
    () =>
      query === null
        ? []
        : people
            .filter(
              (p) =>
                p.name
                  .toLowerCase()
                  .split(/\s+/)
                  .some((w) => w.startsWith(query.query)) || p.name.toLowerCase().startsWith(query.query),
            )
            .slice(0, 8),
    [people, query],
  );
  const open = query !== null && matches.length > 0;
  const trimmed = text.trim();
  const tooLong = trimmed.length > COMMENT_BODY_MAX;

  const readCaret = (value: string, caret: number) => {
    const next = mentionQuery(value, caret);
    setQuery(next);
    if (next?.query !== query?.query) setActive(0);
  };

  const pick = (person: Person) => {
    const el = field.current;
    if (!el || query === null) return;
    const caret = el.selectionStart ?? text.length;
    const rest = text.slice(caret);
    // One space after the name: none added when the text after the caret starts with one already.
    const insert = /^\s/.test(rest) ? `@${person.name}` : `@${person.name} `;
    const value = text.slice(0, query.start) + insert + rest;
    setText(value);
    setPicked((all) => (all.some((p) => p.id === person.id) ? all : [...all, person]));
    setQuery(null);
    const at = query.start + insert.length + (/^\s/.test(rest) ? 1 : 0);
    pickedAt.current = at;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(at, at);
    });
  };

  const submit = async () => {
    if (isBlankText(trimmed) || tooLong) return;
    const { body, mentions } = encodeMentions(trimmed, picked);
    const result = onSend(body, mentions);
    if (onCancel === undefined) {
      const kept = { text, picked };
      setText('');
      setPicked([]);
      setQuery(null);
      // A write that failed gives the text back (unless something new was typed meanwhile).
      if ((await result) === false) {
        setText((now) => (now === '' ? kept.text : now));
        setPicked((now) => (now.length === 0 ? kept.picked : now));
      }
      return;
    }
    await result;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const afterPick = pickedAt.current;
    pickedAt.current = null;
    if (
      event.key === ' ' &&
      afterPick !== null &&
      event.currentTarget.selectionStart === afterPick &&
      event.currentTarget.selectionEnd === afterPick &&
      /\s/.test(event.currentTarget.value[afterPick - 1] ?? '')
    ) {
      // The space one types after a name out of habit: the pick has put it there already.
      event.preventDefault();
      return;
    }
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + matches.length) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        const person = matches[active];
        if (person && !event.ctrlKey && !event.metaKey) {
          event.preventDefault();
          pick(person);
          return;
        }
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setQuery(null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
      return;
    }
    if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      onCancel();
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={fieldId} className="sr-only">
        {label}
      </label>
      <Popover.Root open={open}>
        <Popover.Anchor asChild>
          <div>
            <Textarea
              ref={field}
              id={fieldId}
              value={text}
              rows={2}
              placeholder="Write a comment… Type @ to mention someone"
              aria-describedby={hintId}
              aria-autocomplete="list"
              aria-controls={open ? listId : undefined}
              aria-activedescendant={open ? optionId(active) : undefined}
              aria-invalid={tooLong || undefined}
              className="field-sizing-content max-h-64 resize-none"
              onChange={(event) => {
                setText(event.target.value);
                readCaret(event.target.value, event.target.selectionStart ?? event.target.value.length);
              }}
              onSelect={(event) =>
                readCaret(event.currentTarget.value, event.currentTarget.selectionStart ?? 0)
              }
              onBlur={() => setQuery(null)}
              onKeyDown={onKeyDown}
            />
          </div>
        </Popover.Anchor>
        <Popover.Portal>
          <Popover.Content
            side="top"
            align="start"
            sideOffset={4}
            onOpenAutoFocus={(event) => event.preventDefault()}
            onCloseAutoFocus={(event) => event.preventDefault()}
            className="z-50 w-64 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
          >
            <div id={listId} role="listbox" aria-label="People who can see this item">
              {matches.map((person, i) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the comment field handles the keys (aria-activedescendant).
                <div
                  key={person.id}
                  id={optionId(i)}
                  tabIndex={-1}
                  role="option"
                  aria-selected={i === active}
                  // Pointer down would blur the field first and close the list before the click.
                  onPointerDown={(event) => event.preventDefault()}
                  onMouseMove={() => setActive(i)}
                  onClick={() => pick(person)}
                  className={cn(
                    'flex min-h-9 cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-zinc-800 dark:text-zinc-100',
                    i === active && 'bg-indigo-50 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100',
                  )}
                >
                  <Avatar name={person.name} size="sm" />
                  <span className="min-w-0 truncate">{person.name}</span>
                </div>
              ))}
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <span className="sr-only" aria-live="polite">
        {open
          ? `${matches.length} ${matches.length === 1 ? 'person' : 'people'} found. Use up and down to choose, Enter to pick.`
          : ''}
      </span>
      <div className="flex items-center justify-between gap-2">
        <span id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
          {tooLong ? `At most ${COMMENT_BODY_MAX.toLocaleString('en-US')} characters.` : sendHint()}
        </span>
        <div className="flex gap-2">
          {onCancel ? (
            <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" size="sm" disabled={isBlankText(trimmed) || tooLong}>
            {submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}
