/**
 * The detail pages' editable facts: description, assignee, priority, labels, due date, end date,
 * reminder, repeat and the parent (Move to…). Each saves on its own as it changes; the fact cards keep the spec's labels.
 */
import { FolderInput, Pencil } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { durationInput, ESTIMATE_HELP, parseDuration } from '../../shared/duration';
import type { ItemType } from '../../shared/item';
import type { ItemPatchInput } from '../../shared/schemas';
import { Button } from '../components/ui/Button';
import { cn, focusRing } from '../components/ui/cn';
import { Textarea } from '../components/ui/Input';
import { LinkedText } from '../components/ui/LinkedText';
import { AssigneeOptions } from './AssigneeOptions';
import { fromLocalDateTime, isCommittableDateTime, isCommittableDay, toLocalDateTime } from './editing';
import { useItemEdits } from './editMutations';
import { localToday } from './itemPayload';
import { itemHref, priorityName, TYPE_LABEL } from './itemStyle';
import { useAssigneeOptions, useItemMutations } from './mutations';
import { type LocalItem, useViewer } from './queries';

const MoveToDialog = lazy(() => import('./MoveToDialog'));
const RepeatControl = lazy(() => import('./RepeatControl'));
// The editor checks labels with the shared zod schema: its own chunk, after the page's first paint.
const LabelsEditor = lazy(() => import('./LabelsEditor').then((m) => ({ default: m.LabelsEditor })));

const card =
  'min-w-0 rounded-lg border border-zinc-200 bg-white px-3 py-2.5 transition-colors focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/30 dark:border-zinc-800 dark:bg-zinc-900 dark:focus-within:border-indigo-400';
const labelText = 'text-xs text-zinc-500 dark:text-zinc-400';
const strong = 'text-zinc-900 dark:text-zinc-100';
/** An empty date reads as a quiet placeholder. */
const quiet = 'text-zinc-500 dark:text-zinc-400';
/** A bare control inside a fact card: 16 px on phones (no zoom on focus), the card shows focus. */
const bare =
  'mt-0.5 block w-full min-w-0 cursor-pointer appearance-none rounded-sm border-0 bg-transparent p-0 text-base font-medium outline-none md:text-sm [color-scheme:light] dark:[color-scheme:dark]';

type Item = Pick<
  LocalItem,
  | 'id'
  | 'type'
  | 'title'
  | 'user_id'
  | 'parent_id'
  | 'description'
  | 'assigned_to'
  | 'assignedUser'
  | 'due_date'
  | 'end_date'
  | 'start_date'
  | 'estimate_minutes'
  | 'remind_at'
  | 'recurrence'
  | 'status'
  | 'completed_at'
  | 'priority'
  | 'labels'
>;

function EditableFact({
  label,
  children,
  hint,
  className,
  fact,
}: {
  label: string;
  hint?: ReactNode;
  className?: string;
  /** The optional fact this card shows (see useOptionalFacts), so an 'Add …' button can focus it. */
  fact?: OptionalFact;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn(card, className)} data-fact={fact}>
      <dt className={labelText}>
        <label htmlFor={id}>{label}:</label>
      </dt>
      <dd className="min-w-0">
        {children(id)}
        {hint ? <p className="mt-0.5 truncate text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null}
      </dd>
    </div>
  );
}

/** The facts a detail page keeps behind an 'Add …' button while they are empty. */
export type OptionalFact =
  | 'start_date'
  | 'due_date'
  | 'end_date'
  | 'remind_at'
  | 'recurrence'
  | 'estimate_minutes';

/** An item with none of the optional facts: for the hook's call before the item has loaded. */
export const NO_OPTIONAL_FACTS: Pick<Item, OptionalFact> = {
  start_date: null,
  estimate_minutes: null,
  due_date: null,
  end_date: null,
  remind_at: null,
  recurrence: null,
};

const ADD_FACT: Record<OptionalFact, string> = {
  start_date: 'Add start date…',
  estimate_minutes: 'Add estimate…',
  due_date: 'Add due date…',
  end_date: 'Add end date…',
  remind_at: 'Add reminder…',
  recurrence: 'Add repeat…',
};

/**
 * Empty date, reminder and repeat facts stay folded behind small 'Add due date…' buttons, so a
 * phone's first screen shows the item rather than empty form boxes. A fact with a value always shows;
 * one opened here stays open for the visit (clearing it does not make it jump away), and opening one
 * moves focus into it.
 */
export function useOptionalFacts(item: Pick<Item, OptionalFact>, facts: readonly OptionalFact[]) {
  const [opened, setOpened] = useState<readonly OptionalFact[]>([]);
  const [focusing, setFocusing] = useState<OptionalFact | null>(null);
  const shown = (fact: OptionalFact) => opened.includes(fact) || (item[fact] ?? '') !== '';
  useEffect(() => {
    if (!focusing) return;
    // The Repeat control loads on demand: try for a few frames until the field is there.
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      const field = document.querySelector<HTMLElement>(
        `[data-fact="${focusing}"] input, [data-fact="${focusing}"] button`,
      );
      if (field) field.focus();
      else if (tries++ < 30) frame = requestAnimationFrame(attempt);
    };
    attempt();
    setFocusing(null);
    return () => cancelAnimationFrame(frame);
  }, [focusing]);
  const folded = facts.filter((fact) => !shown(fact));
  const addButtons =
    folded.length > 0 ? (
      <div className="-mt-2 mb-4 flex flex-wrap gap-x-4 gap-y-1">
        {folded.map((fact) => (
          <Button
            key={fact}
            variant="link"
            size="sm"
            className="h-auto p-0 text-sm"
            onClick={() => {
              setOpened((list) => [...list, fact]);
              setFocusing(fact);
            }}
          >
            {ADD_FACT[fact]}
          </Button>
        ))}
      </div>
    ) : null;
  return { shown, addButtons };
}

/** 'Assigned to': a select of Unassigned, yourself, mutual contacts and the sample users. */
export function AssigneeFact({ item }: { item: Item }) {
  const options = useAssigneeOptions(item);
  const { assign } = useItemMutations();
  return (
    <EditableFact label="Assigned to">
      {(id) => (
        <select
          id={id}
          className={cn(bare, strong, 'truncate')}
          value={item.assigned_to === null ? '' : String(item.assigned_to)}
          onChange={(e) => void assign(item, e.target.value === '' ? 0 : Number(e.target.value))}
        >
          <AssigneeOptions item={item} options={options} />
        </select>
      )}
    </EditableFact>
  );
}

/** 'Priority': p1 (the most urgent) to p4 (none), saved as it changes. */
export function PriorityFact({ item }: { item: Item }) {
  const { setPriority } = useItemMutations();
  return (
    <EditableFact label="Priority">
      {(id) => (
        <select
          id={id}
          className={cn(bare, strong, 'truncate')}
          value={String(item.priority ?? 4)}
          onChange={(e) => void setPriority(item, Number(e.target.value) as 1 | 2 | 3 | 4)}
        >
          {[1, 2, 3, 4].map((p) => (
            <option key={p} value={p}>
              {priorityName(p)}
            </option>
          ))}
        </select>
      )}
    </EditableFact>
  );
}

/** 'Labels': the chips with their remove buttons and a field (a label and Enter adds it), full width. */
export function LabelsFact({ item }: { item: Item }) {
  const { setLabels } = useItemMutations();
  return (
    <EditableFact label="Labels" className="col-span-full">
      {(id) => (
        <Suspense fallback={<div className="h-9" />}>
          <LabelsEditor
            inputId={id}
            inCard
            className="mt-1"
            title={item.title}
            labels={item.labels ?? []}
            onChange={(labels) => void setLabels(item, labels)}
          />
        </Suspense>
      )}
    </EditableFact>
  );
}

/**
 * A value typed into a date input is saved when it is complete (a pause of 800 ms, or leaving the
 * field); picking from the calendar saves at once the same way. The shown value follows the item.
 */
function useDraft(saved: string, commit: (value: string) => void, committable: (value: string) => boolean) {
  const [draft, setDraft] = useState(saved);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(saved);
  useEffect(() => {
    last.current = saved;
    setDraft(saved);
  }, [saved]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const flush = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (value === last.current || !committable(value)) return;
    last.current = value;
    commit(value);
  };
  return {
    value: draft,
    onChange: (value: string) => {
      setDraft(value);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => flush(value), 800);
    },
    onBlur: () => flush(draft),
  };
}

/** Saves, reporting a refusal's message through `report` (and clearing it on success). */
function useSaveReporting(item: Item, report: (message: string | null) => void) {
  const edits = useItemEdits();
  return (patch: ItemPatchInput) =>
    void edits.save(item, patch).then(
      () => report(null),
      (error: unknown) => report(error instanceof Error ? error.message : String(error)),
    );
}

function useSave(item: Item) {
  const edits = useItemEdits();
  return (patch: ItemPatchInput) =>
    void edits.save(item, patch).catch((error: unknown) => console.error('Failed to save', error));
}

/** 'Start', 'Due' (or 'End date'): a date input; empty clears it. A refusal (D10) shows under it. */
export function DateFact({
  item,
  field,
  label,
}: {
  item: Item;
  field: 'due_date' | 'end_date' | 'start_date';
  label: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const save = useSaveReporting(item, setError);
  const draft = useDraft(item[field] ?? '', (value) => save({ [field]: value || null }), isCommittableDay);
  return (
    <EditableFact label={label} fact={field} hint={error ? <span role="alert">{error}</span> : undefined}>
      {(id) => (
        <input
          id={id}
          type="date"
          min="1900-01-01"
          max="9999-12-31"
          className={cn(bare, draft.value === '' ? quiet : strong)}
          value={draft.value}
          aria-invalid={error ? true : undefined}
          onChange={(e) => draft.onChange(e.target.value)}
          onBlur={draft.onBlur}
        />
      )}
    </EditableFact>
  );
}

/** 'Estimate': a duration as people write it ('1h 30m', '90m', '1.5h'); empty clears it. */
export function EstimateFact({ item }: { item: Item }) {
  const [error, setError] = useState<string | null>(null);
  const save = useSaveReporting(item, setError);
  const draft = useDraft(
    durationInput(item.estimate_minutes),
    (value) => save({ estimate_minutes: value.trim() === '' ? null : parseDuration(value) }),
    (value) => {
      const ok = value.trim() === '' || parseDuration(value) !== null;
      setError(ok ? null : ESTIMATE_HELP);
      return ok;
    },
  );
  return (
    <EditableFact
      label="Estimate"
      fact="estimate_minutes"
      hint={error ? <span role="alert">{error}</span> : undefined}
    >
      {(id) => (
        <input
          id={id}
          type="text"
          inputMode="text"
          autoComplete="off"
          placeholder="e.g. 1h 30m"
          className={cn(bare, draft.value === '' ? quiet : strong, 'cursor-text')}
          value={draft.value}
          aria-invalid={error ? true : undefined}
          onChange={(e) => draft.onChange(e.target.value)}
          onBlur={draft.onBlur}
          onKeyDown={(e) => {
            if (e.key === 'Enter') draft.onBlur();
          }}
        />
      )}
    </EditableFact>
  );
}

/** 'Reminder': a date and time in this device's zone, stored as an instant; empty clears it. */
export function ReminderFact({ item }: { item: Item }) {
  const save = useSave(item);
  const draft = useDraft(
    toLocalDateTime(item.remind_at),
    (value) => save({ remind_at: value === '' ? null : fromLocalDateTime(value) }),
    isCommittableDateTime,
  );
  return (
    // A date and a time need the phone's full width.
    <EditableFact label="Reminder" className="col-span-2 sm:col-span-1" fact="remind_at">
      {(id) => (
        <input
          id={id}
          type="datetime-local"
          className={cn(bare, draft.value === '' ? quiet : strong)}
          value={draft.value}
          onChange={(e) => draft.onChange(e.target.value)}
          onBlur={draft.onBlur}
        />
      )}
    </EditableFact>
  );
}

/**
 * 'Repeat': the item's rule, saved as it is picked (it applies from the next occurrence on), with
 * 'Stop repeating'. A rule picked on an item without a due date gives it today's, as it needs one.
 */
export function RepeatFact({ item }: { item: Item }) {
  const [error, setError] = useState<string | null>(null);
  const edits = useItemEdits();
  if (item.type === 'campaign') return null;
  const apply = (rule: string | null) => {
    setError(null);
    const patch: ItemPatchInput = { recurrence: rule };
    if (rule !== null && item.due_date === null) patch.due_date = localToday();
    void edits.save(item, patch).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <EditableFact
      label="Repeat"
      className="col-span-2 sm:col-span-1"
      fact="recurrence"
      hint={error ? <span role="alert">{error}</span> : undefined}
    >
      {(id) => (
        <div className="mt-0.5 flex min-w-0 flex-wrap items-start gap-2">
          <Suspense fallback={<span className={quiet}>…</span>}>
            <RepeatControl id={id} value={item.recurrence ?? null} due={item.due_date} onChange={apply} />
          </Suspense>
          {item.recurrence ? (
            <Button variant="ghost" size="sm" className="px-2" onClick={() => apply(null)}>
              Stop repeating
            </Button>
          ) : null}
        </div>
      )}
    </EditableFact>
  );
}

/** Where the item sits ('In: Garden'), with Move to…; a campaign has no parent, so no card. */
export function ParentFact({
  item,
  parent,
}: {
  item: Item;
  parent: { id: number; title: string; type: ItemType } | null;
}) {
  const [moving, setMoving] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const viewer = useViewer();
  if (item.type === 'campaign') return null;
  const href = parent ? itemHref(parent) : null;
  // Assigned an item inside someone else's campaign (P12): its parent is there but not the viewer's
  // to see, so it is neither 'Top level' nor theirs to move (the server would refuse the move).
  const hiddenParent = parent === null && item.parent_id !== null;
  const mayMove = !hiddenParent || viewer.isGuest || item.user_id === viewer.user.id;
  return (
    <div className={cn(card, 'col-span-2 sm:col-span-1')}>
      <dt className={labelText}>In:</dt>
      <dd className="flex min-w-0 items-center gap-2">
        <span className="mt-0.5 min-w-0 flex-1 truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">
          {parent && href ? (
            <Link to={href} className={cn('rounded-sm hover:underline', focusRing)}>
              {parent.title}
            </Link>
          ) : parent ? (
            parent.title
          ) : hiddenParent ? (
            <span className="font-normal text-zinc-600 dark:text-zinc-400">
              {`Assigned to you; its ${item.type === 'todo' ? 'parent' : 'campaign'} is private`}
            </span>
          ) : (
            'Top level'
          )}
        </span>
        {mayMove ? (
          <Button
            ref={button}
            variant="ghost"
            size="sm"
            className="-my-1 -mr-1.5 px-2"
            onClick={() => setMoving(true)}
            aria-label={`Move ${TYPE_LABEL[item.type].toLowerCase()} to…`}
          >
            <FolderInput aria-hidden /> Move…
          </Button>
        ) : null}
      </dd>
      {moving ? (
        <Suspense fallback={null}>
          <MoveToDialog
            item={item}
            open
            onOpenChange={(open) => setMoving(open)}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              button.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

const LONG_DESCRIPTION_CHARS = 320;
const LONG_DESCRIPTION_LINES = 4;

/** A description that would push the item's facts off a phone's first screen: shown folded. */
export function isLongDescription(text: string | null | undefined): boolean {
  if (!text) return false;
  return text.length > LONG_DESCRIPTION_CHARS || text.split('\n').length > LONG_DESCRIPTION_LINES;
}

/**
 * The description under the title: shown as text with an Edit button, or 'Add a description'. A long
 * one shows its first four lines with 'Show more'.
 * Editing opens a text area; Save (or Ctrl/Cmd+Enter) stores it, Escape or Cancel leaves it.
 */
export function DetailDescription({
  item,
  readOnly = false,
}: {
  item: Pick<Item, 'id' | 'type' | 'title' | 'description'>;
  /** A viewer's page: the text only, no Edit or 'Add a description'. */
  readOnly?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [draft, setDraft] = useState('');
  const edits = useItemEdits();
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  const start = () => {
    setDraft(item.description ?? '');
    setEditing(true);
  };
  const stop = () => {
    setEditing(false);
    // Back to the button that opened the editor once it is drawn, unless focus has moved on since
    // (a click on the next field can come first: a browser runs input before timers).
    setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body) opener.current?.focus();
    }, 0);
  };
  const save = async () => {
    const next = draft.trim() === '' ? null : draft;
    if (next !== (item.description ?? null)) {
      try {
        await edits.save(item, { description: next });
      } catch (error) {
        console.error('Failed to save the description', error);
        return;
      }
    }
    stop();
  };
  if (editing) {
    return (
      <div className="flex flex-col gap-2">
        <label htmlFor={id} className="sr-only">
          Description
        </label>
        <Textarea
          id={id}
          autoFocus
          rows={4}
          value={draft}
          placeholder="What is this about?"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              stop();
            } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              void save();
            }
          }}
        />
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" onClick={stop}>
            Cancel
          </Button>
          <Button size="sm" onClick={() => void save()}>
            Save description
          </Button>
        </div>
      </div>
    );
  }
  const long = isLongDescription(item.description);
  return (
    <div className="flex min-w-0 items-start gap-2">
      {item.description ? (
        <div className="min-w-0 flex-1">
          <p
            id={`${id}-text`}
            className={cn(
              'text-sm whitespace-pre-line text-zinc-700 [overflow-wrap:anywhere] dark:text-zinc-300',
              long && !expanded && 'line-clamp-4',
            )}
          >
            <LinkedText text={item.description} />
          </p>
          {long ? (
            <Button
              variant="link"
              size="sm"
              className="h-auto p-0 text-sm"
              aria-expanded={expanded}
              aria-controls={`${id}-text`}
              onClick={() => setExpanded((open) => !open)}
            >
              {expanded ? 'Show less' : 'Show more'}
            </Button>
          ) : null}
        </div>
      ) : null}
      {readOnly ? null : (
        <Button
          ref={opener}
          variant={item.description ? 'ghost' : 'link'}
          size="sm"
          className={item.description ? '-mt-1 shrink-0 px-2' : 'h-auto p-0 text-sm'}
          onClick={start}
          aria-label={item.description ? 'Edit description' : undefined}
          title={item.description ? 'Edit description' : undefined}
        >
          {item.description ? <Pencil aria-hidden /> : 'Add a description'}
        </Button>
      )}
    </div>
  );
}
