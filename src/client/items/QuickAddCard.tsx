import { BellRing, CalendarDays, ChevronDown, Plus, Repeat, UserRound } from 'lucide-react';
import {
  type FocusEvent,
  type FormEvent,
  type KeyboardEvent,
  lazy,
  Suspense,
  useId,
  useRef,
  useState,
} from 'react';
import type { ItemType } from '../../shared/item';
import { Button } from '../components/ui/Button';
import { cn } from '../components/ui/cn';
import { inputClasses } from '../components/ui/Input';
import { isSubmitShortcut } from '../components/ui/keys';
import { lazyModule } from '../components/ui/lazyMenu';
import { localToday, quickAddFields, quickAddPayload } from './itemPayload';
import { TYPE_DOT, TYPE_LABEL } from './itemStyle';
import { useAssigneeOptions, useCreateWithToasts } from './mutations';
import { isEmptyForm, NEW_ITEM_FORM, type NewItemFormValues, useItemForm } from './useItemForm';
import { useSharedInto } from './useSharedInto';
import { useTitleReader } from './useTitleReader';

export interface QuickAddCardProps {
  /** The types offered; with one type there are no type tabs. */
  types: readonly ItemType[];
  parentId?: number | null;
  className?: string;
  /**
   * What a phone shares into Outpost opens in this card (the app is sent to `/?share=<id>`): its words
   * fill the card and its files wait as chips until the item is created. Home's card only.
   */
  takesShare?: boolean;
}

let pointerIsDown = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pointerIsDown = true), true);
  document.addEventListener('pointerup', () => setTimeout(() => (pointerIsDown = false), 0), true);
  document.addEventListener('pointercancel', () => (pointerIsDown = false), true);
}

/** Runs after the current press ends and its click has been dispatched. */
function afterPointerUp(run: () => void) {
  const done = () => {
    document.removeEventListener('pointerup', onUp, true);
    document.removeEventListener('pointercancel', onUp, true);
    setTimeout(run, 0);
  };
  const onUp = () => done();
  document.addEventListener('pointerup', onUp, true);
  document.addEventListener('pointercancel', onUp, true);
}

// Loaded when the card first opens on a task or todo, not with the first screen.
const RepeatControl = lazy(() => import('./RepeatControl'));
// Only when a phone shared files into the card.
const SharedFileChips = lazy(() => import('./SharedFileChips'));
// The title's reader and chips, with chrono-node: loaded on the title's first focus or keystroke,
// through quickAddLoader.ts so that their preload list is not part of the first screen either.
const quickAddParts = lazyModule(() => import('./quickAddLoader').then((m) => m.loadQuickAddParts()));

/**
 * The Repeat select's look, name and ARIA before its module has loaded: a press loads it and it
 * mounts open (lazyMenu's pattern, for a select), so expanding the card fetches nothing more.
 */
function RepeatPlaceholder({ id, onOpen }: { id: string; onOpen?: () => void }) {
  return (
    <button
      type="button"
      id={id}
      role="combobox"
      aria-expanded={false}
      aria-autocomplete="none"
      onClick={onOpen}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        event.preventDefault();
        onOpen?.();
      }}
      className={cn(inputClasses(), 'inline-flex h-9 w-auto min-w-0 items-center gap-1.5 text-left text-sm')}
    >
      <Repeat className="size-4 shrink-0 text-zinc-400 dark:text-zinc-500" aria-hidden />
      <span className="min-w-0 truncate">Does not repeat</span>
      <ChevronDown className="ml-auto size-4 text-zinc-400" aria-hidden />
    </button>
  );
}

const ARTICLE: Record<ItemType, string> = { campaign: 'a campaign', task: 'a task', todo: 'a todo' };

function placeholderFor(types: readonly ItemType[], expanded: boolean, type: ItemType): string {
  if (expanded || types.length === 1) return `Add ${ARTICLE[type]}…`;
  return `Add ${types
    .map((t) => t)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1')}…`;
}

/**
 * The inline creator at the top of lists. Focus expands it; Escape or focus leaving collapses it only
 * while it is empty, so nothing typed is ever thrown away; a successful create empties it again.
 */

export function QuickAddCard({ types, parentId = null, className, takesShare = false }: QuickAddCardProps) {
  const id = useId();
  const [type, setType] = useState<ItemType>(types[0] ?? 'todo');
  const [expanded, setExpanded] = useState(false);
  const form = useItemForm(NEW_ITEM_FORM);
  const reader = useTitleReader(quickAddParts, form.values.title, () => void submit());
  const { parts, reading, load: loadParts } = reader;
  // The fields show what the chips set; setting one by hand gives that chip's words back to the title.
  const { title, description, dueDate, assignee, remindAt, repeat } = reading
    ? reading.over(form.values)
    : form.values;
  const set =
    <K extends keyof NewItemFormValues>(key: K) =>
    (value: NewItemFormValues[K]) => {
      reading?.release(key);
      form.set(key)(value);
    };
  const [setTitle, setDescription, setDueDate, setAssignee, setRemindAt, setRepeat] = [
    form.set('title'),
    form.set('description'),
    set('dueDate'),
    set('assignee'),
    set('remindAt'),
    set('repeat'),
  ];
  /** The Repeat select loads on its first press (a placeholder stands in), not when the card opens. */
  const [repeatPressed, setRepeatPressed] = useState(false);
  const [repeatOpenOnLoad, setRepeatOpenOnLoad] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);
  /** True while collapse() moves focus to the title: that focus must not expand the card again. */
  const collapsing = useRef(false);
  const options = useAssigneeOptions({ id: 0, type, parent_id: parentId });
  const createWithToasts = useCreateWithToasts();
  const shared = useSharedInto(takesShare, ({ title, description }) => {
    form.update((values) => ({ ...values, title, description }));
    // Words beyond the title need a type whose card has a description (a task on Home's All tab).
    if (description !== '' && !quickAddFields(type).description) {
      const withDescription = types.find((t) => quickAddFields(t).description);
      if (withDescription) setType(withDescription);
    }
    setExpanded(true);
    titleRef.current?.focus();
  });

  const fields = quickAddFields(type);
  const state = form.title;
  // Shared files wait on the card: it is not empty while they do.
  const empty = isEmptyForm(form.values) && !shared.active;
  const repeats = type === 'task' || type === 'todo';
  // The title that is saved is what the chips leave: 'tomorrow' alone is no title.
  const submittable = form.canSubmit && (reading?.savable ?? true);
  const canSubmit = submittable && !busy;
  const reset = () => form.reset();

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSubmit || reader.mustWait()) return;
    setBusy(true);
    const payload = quickAddPayload({
      type,
      title,
      description,
      dueDate,
      assignee,
      remindAt,
      parentId,
      recurrence: repeats ? repeat : null,
      today: localToday(),
    });
    const created = await createWithToasts(reading ? reading.apply(payload) : payload);
    // A share's files go on the new item (stored on the device at once, uploaded beside the queue).
    if (created && shared.active) await shared.attachTo(created.id);
    setBusy(false);
    if (created) {
      reset();
      titleRef.current?.focus();
    }
  };

  /** Collapses the card and leaves focus on its title field, where the card starts (never on the body). */
  const collapse = () => {
    setExpanded(false);
    collapsing.current = true;
    titleRef.current?.focus();
    collapsing.current = false;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (isSubmitShortcut(event)) {
      // Ctrl/Cmd+Enter adds the item from any field, whatever plain Enter does there.
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && empty && event.currentTarget.contains(event.target as Node)) {
      // (An Escape inside the Repeat list, in its portal, only closes the list.)
      event.preventDefault();
      collapse();
    }
  };

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const next = event.relatedTarget as Node | null;
    if (next && form.contains(next)) return;
    // The Repeat list lives in a portal: focus moving into it stays within the card.
    if (next instanceof Element && next.closest('[data-keep-open]')) return;
    if (!empty) return;
    const collapse = () => {
      if (!form.contains(document.activeElement)) setExpanded(false);
    };
    // Collapsing shrinks the page; doing it while a press elsewhere is still down would move that
    // press's target (a link in the list) from under the pointer, and the click would be lost.
    if (pointerIsDown) afterPointerUp(collapse);
    else collapse();
  };

  // Enter adds from the title and the description, whatever the type, as Home's todo always did
  // (issue 50: a campaign page's task once took Enter as nothing); Shift+Enter is a new line.
  const onFieldEnter = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    if (event.ctrlKey || event.metaKey) return; // the form's Ctrl/Cmd+Enter
    event.preventDefault();
    void submit();
  };

  return (
    <form
      aria-label={types.length === 1 ? `Add ${ARTICLE[type].replace(/^an? /, '')}` : 'Quick add'}
      onSubmit={submit}
      onKeyDown={onKeyDown}
      onBlur={onBlur}
      // A press on the card's chrome (padding, type chips' labels) must not blur the title field, or an
      // empty card would collapse under the pointer before the click lands.
      onMouseDown={(event) => {
        if (!(event.target as HTMLElement).closest('input, textarea, select, button')) event.preventDefault();
      }}
      onFocus={() => {
        if (!collapsing.current) setExpanded(true);
      }}
      className={cn(
        'rounded-xl border bg-white transition-shadow duration-150 motion-reduce:transition-none dark:bg-zinc-900',
        expanded
          ? 'border-zinc-300 shadow-sm dark:border-zinc-700'
          : 'border-zinc-200 hover:border-zinc-300 dark:border-zinc-800 dark:hover:border-zinc-700',
        className,
      )}
    >
      {expanded && types.length > 1 ? (
        <fieldset className="flex gap-1 px-3 pt-3">
          <legend className="sr-only">Type</legend>
          {types.map((t) => (
            <label key={t} className="relative">
              <input
                type="radio"
                name={`${id}-type`}
                value={t}
                checked={type === t}
                onChange={() => setType(t)}
                className="peer sr-only"
              />
              <span
                className={cn(
                  'inline-flex h-7 cursor-pointer items-center gap-1.5 rounded-full border px-2.5 text-xs font-medium transition-colors duration-150 motion-reduce:transition-none',
                  // From state, not peer-checked: hover colours must never apply to the chosen chip.
                  type === t
                    ? 'border-zinc-900 bg-zinc-900 text-white dark:border-zinc-100 dark:bg-zinc-100 dark:text-zinc-900'
                    : 'border-zinc-200 text-zinc-600 hover:border-zinc-300 hover:text-zinc-900 dark:border-zinc-700 dark:text-zinc-400 dark:hover:text-zinc-100',
                  'peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500 peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-white dark:peer-focus-visible:ring-offset-zinc-900',
                )}
              >
                <span aria-hidden className={cn('size-2 rounded-full', TYPE_DOT[t])} />
                {TYPE_LABEL[t]}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}

      <div className="flex items-start gap-2 px-3">
        <Plus className="mt-3.5 size-5 shrink-0 text-zinc-400 dark:text-zinc-500" aria-hidden />
        <label htmlFor={`${id}-title`} className="sr-only">
          {`${TYPE_LABEL[type]} title`}
        </label>
        <div className="relative min-w-0 flex-1">
          <input
            ref={titleRef}
            id={`${id}-title`}
            data-quick-add-title=""
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              // Collapsed by Escape with focus kept here: typing opens it again.
              setExpanded(true);
              loadParts();
            }}
            // The reader (and chrono-node) loads on first use, not with the page; a submit before then
            // waits for it.
            onFocus={loadParts}
            onKeyDown={onFieldEnter}
            placeholder={placeholderFor(types, expanded, type)}
            autoComplete="off"
            aria-invalid={state.tooLong || undefined}
            aria-describedby={state.showCounter ? `${id}-count` : undefined}
            className="h-12 w-full min-w-0 bg-transparent text-base text-zinc-900 outline-none placeholder:text-zinc-400 md:text-[15px] dark:text-zinc-100 dark:placeholder:text-zinc-500"
          />
          {parts ? (
            // The chips under the title, the tint over its words (in this wrapper, over the field).
            <parts.TitleReading
              text={title}
              type={type}
              assignee={fields.assignee}
              onReading={reader.onReading}
              inputRef={titleRef}
              parentId={parentId}
            />
          ) : null}
        </div>
      </div>

      {shared.files.length > 0 ? (
        <Suspense fallback={null}>
          <SharedFileChips files={shared.files} onRemove={shared.remove} />
        </Suspense>
      ) : null}

      {expanded ? (
        <div className="flex flex-col gap-3 px-3 pb-3">
          {state.showCounter ? (
            <div
              id={`${id}-count`}
              className={cn(
                'flex flex-wrap items-center justify-between gap-2 text-xs',
                state.tooLong ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400',
              )}
            >
              <span role={state.tooLong ? 'alert' : undefined}>{state.error ?? ''}</span>
              <span
                className={cn('tabular-nums', state.tooLong && 'font-medium text-red-600 dark:text-red-400')}
              >
                {state.length}/255
              </span>
            </div>
          ) : null}
          {fields.description ? (
            <div>
              <label htmlFor={`${id}-description`} className="sr-only">
                Description
              </label>
              <textarea
                id={`${id}-description`}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                onKeyDown={onFieldEnter}
                placeholder="Description (optional)"
                rows={2}
                className={cn(inputClasses(), 'h-auto min-h-16 resize-y py-2')}
              />
            </div>
          ) : null}
          <div className="flex flex-wrap items-center gap-2">
            {fields.dueDate ? (
              <label className="relative inline-flex items-center">
                <span className="sr-only">Due date</span>
                <CalendarDays
                  className="pointer-events-none absolute left-2.5 size-4 text-zinc-400 dark:text-zinc-500"
                  aria-hidden
                />
                <input
                  type="date"
                  value={dueDate}
                  onChange={(e) => setDueDate(e.target.value)}
                  className={cn(inputClasses(), 'h-9 w-auto pl-8 text-sm')}
                />
              </label>
            ) : null}
            <label className="relative inline-flex items-center">
              <span className="sr-only">Reminder</span>
              <BellRing
                className="pointer-events-none absolute left-2.5 size-4 text-zinc-400 dark:text-zinc-500"
                aria-hidden
              />
              <input
                type="datetime-local"
                value={remindAt}
                onChange={(e) => setRemindAt(e.target.value)}
                title="Reminder (your local time)"
                className={cn(inputClasses(), 'h-9 w-auto pl-8 text-sm')}
              />
            </label>
            {repeats ? (
              <div className="inline-flex items-center">
                <label htmlFor={`${id}-repeat`} className="sr-only">
                  Repeat
                </label>
                {/* A rule from the title shows in the real control: the placeholder says 'Does not repeat'. */}
                {repeatPressed || repeat !== null ? (
                  <Suspense fallback={<RepeatPlaceholder id={`${id}-repeat`} />}>
                    <RepeatControl
                      id={`${id}-repeat`}
                      value={repeat}
                      due={fields.dueDate && dueDate !== '' ? dueDate : null}
                      onChange={setRepeat}
                      followDue
                      defaultOpen={repeatOpenOnLoad}
                      onOpened={() => setRepeatOpenOnLoad(false)}
                    />
                  </Suspense>
                ) : (
                  <RepeatPlaceholder
                    id={`${id}-repeat`}
                    onOpen={() => {
                      setRepeatPressed(true);
                      setRepeatOpenOnLoad(true);
                    }}
                  />
                )}
              </div>
            ) : null}
            {fields.assignee ? (
              <label className="relative inline-flex items-center">
                <span className="sr-only">Assignee</span>
                <UserRound
                  className="pointer-events-none absolute left-2.5 size-4 text-zinc-400 dark:text-zinc-500"
                  aria-hidden
                />
                <select
                  value={assignee}
                  onChange={(e) => setAssignee(e.target.value)}
                  className={cn(inputClasses(), 'h-9 w-auto max-w-52 pl-8 text-sm')}
                >
                  <option value="">Unassigned</option>
                  {options.map((o) => (
                    <option key={o.id} value={String(o.id)}>
                      {o.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <div className="ml-auto flex items-center gap-2">
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  reset();
                  shared.discard();
                  collapse();
                }}
              >
                Cancel
              </Button>
              {/* While adding, the button stays focusable (aria-disabled, submit ignores it): a disabled
                  button would drop focus to the page, and the toast then could not tell which card
                  to keep clear of. */}
              <Button
                type="submit"
                size="sm"
                disabled={!submittable}
                aria-disabled={busy || reader.waiting || undefined}
              >
                {busy || reader.waiting ? 'Adding…' : `Add ${TYPE_LABEL[type].toLowerCase()}`}
              </Button>
            </div>
          </div>
        </div>
      ) : null}
    </form>
  );
}
