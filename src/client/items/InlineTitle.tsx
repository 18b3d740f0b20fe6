import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { TITLE_MAX_LENGTH } from '../../shared/item';
import { isBlankTitle } from '../../shared/text';
import { cn, focusRing } from '../components/ui/cn';

export interface InlineTitleProps {
  value: string;
  /** False for completed todos: their title is shown, not edited. */
  editable: boolean;
  /** Called with the trimmed new title, only when it is not blank and differs. */
  onSave: (title: string) => void | Promise<void>;
  /** Lets a parent (a Rename menu entry) open the editor. */
  editing?: boolean;
  onEditingChange?: (editing: boolean) => void;
  className?: string;
  /** Accessible name of the read-only button, e.g. 'Edit title: Buy tape'. */
  label?: string;
  /** When false, a click on the text does not start editing (the title is a link elsewhere). */
  clickToEdit?: boolean;
  /** Wrap long titles (page headings) instead of cutting them to one line (list rows). */
  wrap?: boolean;
  children?: React.ReactNode;
}

/**
 * The title to show while a rename is being saved: the new one from the Enter that committed it, in
 * the same frame, not a moment later when the stored row comes back. Once the save settles the stored
 * title shows again (the new one, or the old one if the save was refused).
 */
export function useSavingTitle(
  stored: string,
  save: (title: string) => unknown,
): [shown: string, onSave: (title: string) => Promise<void>] {
  const [saving, setSaving] = useState<string | null>(null);
  const onSave = useCallback(
    async (title: string) => {
      setSaving(title);
      try {
        await save(title);
      } finally {
        setSaving(null);
      }
    },
    [save],
  );
  return [saving ?? stored, onSave];
}

/**
 * A title that turns into a text field on click. Enter (without Shift) or blur saves when the trimmed
 * text is non-empty and changed; Escape cancels.
 */
export function InlineTitle({
  value,
  editable,
  onSave,
  editing: editingProp,
  onEditingChange,
  className,
  label,
  clickToEdit = true,
  wrap = false,
  children,
}: InlineTitleProps) {
  const fit = wrap ? 'break-words whitespace-normal' : 'truncate';
  const [editingState, setEditingState] = useState(false);
  const editing = editable && (editingProp ?? editingState);
  const [draft, setDraft] = useState(value);
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  /** Set by Enter and Escape (not by a blur, where focus went somewhere on purpose). */
  const keyEnded = useRef(false);
  // Escape and Enter end editing themselves; the blur that follows must not save a second time.
  const settled = useRef(false);

  const setEditing = (next: boolean) => {
    setEditingState(next);
    onEditingChange?.(next);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the draft restarts from the stored title only when editing begins
  useEffect(() => {
    if (editing) {
      settled.current = false;
      setDraft(value);
      inputRef.current?.focus();
      inputRef.current?.select();
    }
    // Enter or Escape removed the focused field: focus goes back to the title, never to the page body.
    else if (keyEnded.current) {
      keyEnded.current = false;
      const active = document.activeElement;
      if (!active || active === document.body) buttonRef.current?.focus();
    }
  }, [editing]);

  const commit = () => {
    if (settled.current) return;
    settled.current = true;
    const next = draft.trim();
    setEditing(false);
    if (!isBlankTitle(next) && next !== value && next.length <= TITLE_MAX_LENGTH) void onSave(next);
  };

  const cancel = () => {
    settled.current = true;
    setDraft(value);
    setEditing(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      keyEnded.current = true;
      commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      keyEnded.current = true;
      cancel();
    }
  };

  if (editing) {
    return (
      <input
        ref={inputRef}
        aria-label="Title"
        value={draft}
        maxLength={TITLE_MAX_LENGTH}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={commit}
        className={cn(
          // Inherit the surrounding type (row or page heading), but never below 16 px so phones do not zoom.
          'w-full min-w-0 rounded-md border border-indigo-500 bg-white px-1.5 py-0.5 [font-family:inherit] [font-weight:inherit] text-[max(16px,1em)] outline-none ring-2 ring-indigo-500/30 dark:bg-zinc-900',
          className,
        )}
      />
    );
  }

  if (!editable || !clickToEdit) {
    return <span className={cn('block min-w-0', fit, className)}>{children ?? value}</span>;
  }

  return (
    <button
      ref={buttonRef}
      type="button"
      onClick={() => setEditing(true)}
      aria-label={label ?? `Edit title: ${value}`}
      className={cn(
        'block min-w-0 max-w-full cursor-text rounded-sm text-left hover:text-zinc-950 dark:hover:text-white',
        fit,
        focusRing,
        className,
      )}
    >
      {children ?? value}
    </button>
  );
}
