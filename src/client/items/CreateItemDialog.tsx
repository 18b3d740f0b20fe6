import { type FormEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { ESTIMATE_HELP, formatDuration, parseDuration } from '../../shared/duration';
import type { ItemType } from '../../shared/item';
import { VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import { spanProblem } from '../../shared/span';
import { useDoor, useToast } from '../app/door';
import { Button } from '../components/ui/Button';
import { cn } from '../components/ui/cn';
import { Dialog, DialogContent, DialogFooter } from '../components/ui/Dialog';
import { Field } from '../components/ui/Field';
import { Input, Textarea } from '../components/ui/Input';
import { isSubmitShortcut } from '../components/ui/keys';
import { lazyModule } from '../components/ui/lazyMenu';
import { Tabs, TabsList, TabsTrigger } from '../components/ui/Tabs';
import { TitleCounter } from '../components/ui/TitleCounter';
import { formatReminder, fromLocalDateTime } from './editing';
import { dialogPayload, dialogTypeEnabled, ITEM_TYPES, localToday } from './itemPayload';
import { TYPE_DOT, TYPE_LABEL } from './itemStyle';
import { undoAction, useAssigneeOptions, useCreateItem } from './mutations';
import { useItem } from './queries';
import { NEW_ITEM_FORM, type NewItemFormValues, useItemForm } from './useItemForm';
import { useTitleReader } from './useTitleReader';

const RepeatControl = lazy(() => import('./RepeatControl'));
// The title's reader and chips, with chrono-node: loaded on the title's first focus or keystroke.
const quickAddParts = lazyModule(() => import('./QuickAddParts'));

export interface CreateItemDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  parentId?: number | null;
}

const selectClasses =
  'h-10 w-full rounded-lg border border-zinc-300 bg-white px-3 text-base text-zinc-900 shadow-xs outline-none focus-visible:border-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-500/40 md:text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/** The Create New Item dialog (the floating add button): tabs per type, the spec's per-type fields. */
export default function CreateItemDialog({ open, onOpenChange, parentId = null }: CreateItemDialogProps) {
  const formId = useId();
  const firstType: ItemType = dialogTypeEnabled('campaign', parentId) ? 'campaign' : 'task';
  const [type, setType] = useState<ItemType>(firstType);
  const form = useItemForm(NEW_ITEM_FORM);
  const reader = useTitleReader(quickAddParts, form.values.title, () => void submit());
  const { parts, reading, load: loadParts } = reader;
  // The fields show what the chips set; setting one by hand gives that chip's words back to the title.
  const { title, description, assignee, dueDate, endDate, remindAt, repeat } = reading
    ? reading.over(form.values)
    : form.values;
  const set =
    <K extends keyof NewItemFormValues>(key: K) =>
    (value: NewItemFormValues[K]) => {
      reading?.release(key);
      form.set(key)(value);
    };
  const [setTitle, setDescription, setAssignee, setDueDate, setEndDate, setRemindAt, setRepeat] = [
    form.set('title'),
    form.set('description'),
    set('assignee'),
    set('dueDate'),
    set('endDate'),
    set('remindAt'),
    set('repeat'),
  ];
  const { reset } = form;
  const dateField = type === 'campaign' ? 'end_date' : 'due_date';
  const titleRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  // Start date and estimate (§4): the words' chips ('from mon to fri', '~2h') win over these at save.
  const [startDate, setStartDate] = useState('');
  const [estimate, setEstimate] = useState('');
  const estimateMinutes = estimate.trim() === '' ? null : parseDuration(estimate);
  const estimateError = estimateMinutes === null && estimate.trim() !== '' ? ESTIMATE_HELP : undefined;
  const startError =
    spanProblem(startDate || null, (type === 'campaign' ? null : dueDate) || null) ?? undefined;
  const options = useAssigneeOptions({ id: 0, type, parent_id: parentId });
  const parent = useItem(parentId ?? 0);
  // The phone's add button on a viewer's campaign (§5 'Roles'): nothing may be added there.
  const readOnly = parent?.my_role === 'viewer';
  const createItem = useCreateItem();
  const toast = useToast();
  const { send } = useDoor();

  useEffect(() => {
    if (open) {
      setType(firstType);
      reset();
      setTouched(false);
      setStartDate('');
      setEstimate('');
    }
  }, [open, firstType, reset]);

  const state = form.title;
  const missing = touched && form.blank;
  // The title that is saved is what the chips leave: 'tomorrow' alone is no title.
  const titleLeftBlank = reading !== null && !reading.savable;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    if (!form.canSubmit || titleLeftBlank || busy || readOnly || reader.mustWait()) return;
    if (estimateError || startError) return;
    setBusy(true);
    try {
      const payload = dialogPayload({
        type,
        title,
        description,
        assignee,
        dueDate,
        endDate,
        remindAt,
        parentId,
        recurrence: repeat,
        today: localToday(),
      });
      if (startDate !== '') payload.start_date = startDate;
      if (estimateMinutes !== null) payload.estimate_minutes = estimateMinutes;
      await createItem(reading ? reading.apply(payload) : payload);
      const action = await undoAction(send, toast);
      toast({
        title: 'Item created',
        description: `Your ${type} has been created successfully.`,
        ...(action ? { action } : {}),
      });
      onOpenChange(false);
    } catch (error) {
      // The spec: a failure here is logged only, with no message to the user.
      console.error('Failed to create item', error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Create New Item"
        description={
          readOnly
            ? VIEWER_READ_ONLY_MESSAGE
            : parent
              ? `Adding to ${TYPE_LABEL[parent.type].toLowerCase()} “${parent.title}”`
              : undefined
        }
      >
        <form
          id={formId}
          onSubmit={submit}
          // Ctrl/Cmd+Enter creates from any field (the description, a date, the assignee).
          onKeyDown={(event) => {
            if (isSubmitShortcut(event)) {
              event.preventDefault();
              void submit();
            }
          }}
          className="flex flex-col gap-4"
          noValidate
        >
          <Tabs value={type} onValueChange={(v) => setType(v as ItemType)}>
            <TabsList aria-label="Item type">
              {ITEM_TYPES.map((t) => (
                <TabsTrigger
                  key={t}
                  value={t}
                  disabled={!dialogTypeEnabled(t, parentId)}
                  // The tabs pick the type; the form below is what they control (there are no panels).
                  aria-controls={formId}
                  className="capitalize"
                >
                  <span aria-hidden className={cn('size-2 rounded-full', TYPE_DOT[t])} />
                  {t}
                </TabsTrigger>
              ))}
            </TabsList>
          </Tabs>
          <Field label="Title" error={state.error ?? (missing ? 'Title is required.' : undefined)}>
            {(control) => (
              <div className="relative flex flex-col gap-2">
                <div className="relative">
                  <Input
                    {...control}
                    ref={titleRef}
                    value={title}
                    onChange={(e) => {
                      setTitle(e.target.value);
                      loadParts();
                    }}
                    // The reader (and chrono-node) loads on first use; a submit before then waits for it.
                    onFocus={loadParts}
                    required
                    autoComplete="off"
                    placeholder={`What is this ${type} about?`}
                    className={state.showCounter ? 'pr-16' : undefined}
                  />
                  {state.showCounter ? <TitleCounter length={state.length} tooLong={state.tooLong} /> : null}
                </div>
                {parts ? (
                  <parts.TitleReading
                    text={title}
                    type={type}
                    dateField={dateField}
                    assignee
                    onReading={reader.onReading}
                    inputRef={titleRef}
                    parentId={parentId}
                    // Over the field (its height, border and padding), so the tint lies on the typed words.
                    tintClassName={cn(
                      'top-0 h-10 border border-transparent px-3 text-base md:text-sm',
                      state.showCounter && 'pr-16',
                    )}
                    // The field's wrapper spaces its children already.
                    className=""
                  />
                ) : null}
              </div>
            )}
          </Field>
          <Field label="Description" hint="Optional">
            {(control) => (
              <Textarea
                {...control}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                rows={3}
              />
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Assignee">
              {(control) => (
                <select
                  {...control}
                  value={assignee}
                  onChange={(e) => setAssignee(e.target.value)}
                  className={selectClasses}
                >
                  <option value="">Unassigned</option>
                  {options.map((o) => (
                    <option key={o.id} value={String(o.id)}>
                      {o.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {type === 'campaign' ? (
              <Field label="End date">
                {(control) => (
                  <Input
                    {...control}
                    type="date"
                    value={endDate}
                    onChange={(e) => setEndDate(e.target.value)}
                  />
                )}
              </Field>
            ) : (
              <Field label="Due date">
                {(control) => (
                  <Input
                    {...control}
                    type="date"
                    value={dueDate}
                    onChange={(e) => setDueDate(e.target.value)}
                  />
                )}
              </Field>
            )}
            {type !== 'campaign' ? (
              <Field label="Repeat">
                {(control) => (
                  <Suspense fallback={null}>
                    <RepeatControl
                      id={control.id}
                      value={repeat}
                      due={dueDate === '' ? null : dueDate}
                      followDue
                      triggerClassName="h-10 w-full"
                      onChange={(rule) => {
                        setRepeat(rule);
                        // A repeating item counts from its due date: today unless one is set.
                        if (rule !== null && dueDate === '') setDueDate(localToday());
                      }}
                    />
                  </Suspense>
                )}
              </Field>
            ) : null}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Start date" hint="Optional" error={startError}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  value={startDate}
                  onChange={(e) => setStartDate(e.target.value)}
                />
              )}
            </Field>
            <Field
              label="Estimate"
              hint={estimateMinutes !== null ? formatDuration(estimateMinutes) : 'Optional, such as 1h 30m'}
              error={estimateError}
            >
              {(control) => (
                <Input
                  {...control}
                  type="text"
                  autoComplete="off"
                  placeholder="e.g. 1h 30m"
                  value={estimate}
                  onChange={(e) => setEstimate(e.target.value)}
                />
              )}
            </Field>
          </div>
          <Field
            label="Reminder"
            hint={formatReminder(fromLocalDateTime(remindAt)) ?? 'Optional, in your local time'}
          >
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                value={remindAt}
                onChange={(e) => setRemindAt(e.target.value)}
              />
            )}
          </Field>
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || reader.waiting || state.tooLong || readOnly}>
              {busy || reader.waiting ? 'Creating…' : `Create ${type}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
