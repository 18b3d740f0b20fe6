/**
 * The labels editor (ARCHITECTURE §4 'Planning fields'): the item's labels as chips, each with a
 * remove button, and a field where a label and Enter adds one. What may be stored is the shared
 * patch schema's to say (itemPatchSchema), so the messages are the server's 422s word for word. It
 * loads with the detail pages and the row's 'Labels…' dialog, never on a list's first screen.
 */
import { X } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { labelHref, withoutLabel } from '../../shared/labels';
import { LABELS_MAX } from '../../shared/planning';
import { itemPatchSchema } from '../../shared/schemas';
import { cn, focusRing } from '../components/ui/cn';

/** The schema's first message about these labels, or null when they may be stored. */
export function labelsProblem(labels: readonly string[]): string | null {
  const parsed = itemPatchSchema.safeParse({ labels });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'These labels cannot be saved.');
}

export interface LabelsEditorProps {
  labels: readonly string[];
  onChange: (labels: string[]) => void;
  /** The field's id (a fact card's label points at it). */
  inputId?: string;
  /** Names the field and the chips' remove buttons ('Add a label to Buy milk'). */
  title: string;
  className?: string;
  /** Inside a fact card, whose own ring shows the focus: the field draws none of its own (not two). */
  inCard?: boolean;
}

export function LabelsEditor({
  labels: stored,
  onChange,
  inputId,
  title,
  className,
  inCard = false,
}: LabelsEditorProps) {
  // What was just written, until the item read back from the device (a new list) replaces it: a
  // second label typed before the first write shows on the row adds to the first, not to the old list.
  const [written, setWritten] = useState<{ over: readonly string[]; labels: string[] } | null>(null);
  const labels = written && written.over === stored ? written.labels : stored;
  const change = (next: string[]) => {
    setWritten({ over: stored, labels: next });
    onChange(next);
  };
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ownId = useId();
  const id = inputId ?? ownId;
  const errorId = `${id}-error`;
  const add = () => {
    const label = draft.trim();
    if (label === '') return;
    // The schema trims and checks the whole list: a repeat ignoring case, the tenth, # @ or a comma.
    const next = [...labels, label];
    const why = labelsProblem(next);
    setProblem(why);
    if (why) return;
    setDraft('');
    change(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // Enter adds here, never submits a surrounding form or closes a dialog.
    event.preventDefault();
    add();
  };
  const full = labels.length >= LABELS_MAX;
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      {labels.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={`Labels of ${title}`}>
          {labels.map((label) => (
            <li
              key={label}
              className="inline-flex max-w-full items-center gap-0.5 rounded-md bg-zinc-100 py-0.5 pr-0.5 pl-2 text-sm text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
            >
              <Link
                to={labelHref(label)}
                className={cn('min-w-0 truncate rounded-sm hover:underline', focusRing)}
              >
                {label}
              </Link>
              <button
                type="button"
                className={cn(
                  'inline-flex size-6 shrink-0 items-center justify-center rounded text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100',
                  focusRing,
                )}
                aria-label={`Remove label ${label}`}
                onClick={() => {
                  setProblem(null);
                  change(withoutLabel(labels, label));
                }}
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        id={id}
        type="text"
        value={draft}
        enterKeyHint="done"
        autoComplete="off"
        placeholder={full ? `${LABELS_MAX} labels (the most)` : 'Add a label, then Enter'}
        aria-label={inputId ? undefined : `Add a label to ${title}`}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errorId : undefined}
        className={cn(
          'h-9 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2.5 text-base text-zinc-900 placeholder:text-zinc-500 md:text-sm dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100 dark:placeholder:text-zinc-400',
          inCard ? 'outline-none' : focusRing,
          problem && 'border-red-600 dark:border-red-400',
        )}
        onChange={(e) => {
          setDraft(e.target.value);
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
      />
      {problem ? (
        <p id={errorId} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
