/**
 * The detail pages' editable facts: description, assignee, due date, end date, reminder, repeat and
 * the parent (Move to…). Each saves on its own as it changes; the fact cards keep the spec's labels.
 */
import { FolderInput, Pencil } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ItemType } from '../../shared/item';
import type { ItemPatchInput } from '../../shared/schemas';
import { Button } from '../components/ui/Button';
import { cn, focusRing } from '../components/ui/cn';
import { Textarea } from '../components/ui/Input';
import { AssigneeOptions } from './AssigneeOptions';
import { fromLocalDateTime, isCommittableDateTime, isCommittableDay, toLocalDateTime } from './editing';
import { useItemEdits } from './editMutations';
import { localToday } from './itemPayload';
import { itemHref, TYPE_LABEL } from './itemStyle';
import { useAssigneeOptions, useItemMutations } from './mutations';
import { type LocalItem, useViewer } from './queries';

const MoveToDialog = lazy(() => import('./MoveToDialog'));
const RepeatControl = lazy(() => import('./RepeatControl'));

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
  | 'remind_at'
  | 'recurrence'
  | 'status'
  | 'completed_at'
>;

function EditableFact({
  label,
  children,
  hint,
  className,
}: {
  label: string;
  hint?: ReactNode;
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn(card, className)}>
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

/** 'Assigned to': a select of Unassigned, yourself, mutual contacts and the sample users. */
export function AssigneeFact({ item }: { item: Item }) {
  const options = useAssigneeOptions();
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

function useSave(item: Item) {
  const edits = useItemEdits();
  return (patch: ItemPatchInput) =>
    void edits.save(item, patch).catch((error: unknown) => console.error('Failed to save', error));
}

/** 'Due' (or 'End date'): a date input; empty clears it. */
export function DateFact({
  item,
  field,
  label,
}: {
  item: Item;
  field: 'due_date' | 'end_date';
  label: string;
}) {
  const save = useSave(item);
  const draft = useDraft(item[field] ?? '', (value) => save({ [field]: value || null }), isCommittableDay);
  return (
    <EditableFact label={label}>
      {(id) => (
        <input
          id={id}
          type="date"
          min="1900-01-01"
          max="9999-12-31"
          className={cn(bare, draft.value === '' ? quiet : strong)}
          value={draft.value}
          onChange={(e) => draft.onChange(e.target.value)}
          onBlur={draft.onBlur}
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
    <EditableFact label="Reminder" className="col-span-2 sm:col-span-1">
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

/**
 * The description under the title: shown as text with an Edit button, or 'Add a description'.
 * Editing opens a text area; Save (or Ctrl/Cmd+Enter) stores it, Escape or Cancel leaves it.
 */
export function DetailDescription({ item }: { item: Pick<Item, 'id' | 'type' | 'title' | 'description'> }) {
  const [editing, setEditing] = useState(false);
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
    setTimeout(() => opener.current?.focus(), 0);
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
  return (
    <div className="flex min-w-0 items-start gap-2">
      {item.description ? (
        <p className="min-w-0 flex-1 text-sm whitespace-pre-line text-zinc-700 [overflow-wrap:anywhere] dark:text-zinc-300">
          {item.description}
        </p>
      ) : null}
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
    </div>
  );
}
