import { type FormEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import type { ItemType } from '../../shared/item';
import { useDoor, useToast } from '../app/door';
import { Button } from '../components/ui/Button';
import { cn } from '../components/ui/cn';
import { Dialog, DialogContent, DialogFooter } from '../components/ui/Dialog';
import { Field } from '../components/ui/Field';
import { Input, Textarea } from '../components/ui/Input';
import { isSubmitShortcut } from '../components/ui/keys';
import { Tabs, TabsList, TabsTrigger } from '../components/ui/Tabs';
import { TitleCounter } from '../components/ui/TitleCounter';
import { formatReminder, fromLocalDateTime } from './editing';
import {
  canSubmitTitle,
  dialogPayload,
  dialogTypeEnabled,
  ITEM_TYPES,
  localToday,
  withReading,
} from './itemPayload';
import { TYPE_DOT, TYPE_LABEL } from './itemStyle';
import { undoAction, useAssigneeOptions, useCreateItem } from './mutations';
import { useItem } from './queries';
import { NEW_ITEM_FORM, useItemForm } from './useItemForm';
import { useQuickAddReading } from './useQuickAddReading';

const RepeatControl = lazy(() => import('./RepeatControl'));

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
  const { title, description, assignee, dueDate, endDate, remindAt, repeat } = form.values;
  const [setTitle, setDescription, setAssignee, setDueDate, setEndDate, setRemindAt, setRepeat] = [
    form.set('title'),
    form.set('description'),
    form.set('assignee'),
    form.set('dueDate'),
    form.set('endDate'),
    form.set('remindAt'),
    form.set('repeat'),
  ];
  const { reset } = form;
  const dateField = type === 'campaign' ? 'end_date' : 'due_date';
  const quick = useQuickAddReading(title, { type, dateField, assignee: true });
  const { reading, reset: resetReading } = quick;
  const titleRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const options = useAssigneeOptions();
  const parent = useItem(parentId ?? 0);
  const createItem = useCreateItem();
  const toast = useToast();
  const { send } = useDoor();

  useEffect(() => {
    if (open) {
      setType(firstType);
      reset();
      resetReading();
      setTouched(false);
    }
  }, [open, firstType, reset, resetReading]);

  const state = form.title;
  const missing = touched && form.blank;
  // The title that is saved is what the chips leave: 'tomorrow' alone is no title.
  const titleLeftBlank = reading !== null && !form.blank && !canSubmitTitle(reading.title);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    if (!form.canSubmit || titleLeftBlank || busy) return;
    setBusy(true);
    try {
      await createItem(
        withReading(
          dialogPayload({
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
          }),
          reading,
          dateField,
        ),
      );
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
          parent ? `Adding to ${TYPE_LABEL[parent.type].toLowerCase()} “${parent.title}”` : undefined
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
          <Field
            label="Title"
            error={
              state.error ??
              (missing ? 'Title is required.' : undefined) ??
              (titleLeftBlank && touched
                ? 'Add a title: everything typed was read as the chips below.'
                : undefined)
            }
          >
            {(control) => (
              <div className="flex flex-col gap-2">
                <div className="relative">
                  <Input
                    {...control}
                    ref={titleRef}
                    value={title}
                    onChange={(e) => {
                      setTitle(e.target.value);
                      quick.prime();
                    }}
                    // The reader (and chrono-node) loads on first use; until then the title is saved as typed.
                    onFocus={quick.prime}
                    required
                    autoComplete="off"
                    placeholder={`What is this ${type} about?`}
                    className={state.showCounter ? 'pr-16' : undefined}
                  />
                  {reading && quick.parts ? (
                    <quick.parts.TitleTint
                      text={title}
                      spans={reading.spans}
                      inputRef={titleRef}
                      // The field's border and padding, so the tint lies over the typed words.
                      className={cn(
                        'border border-transparent px-3 text-base md:text-sm',
                        state.showCounter && 'pr-16',
                      )}
                    />
                  ) : null}
                  {state.showCounter ? <TitleCounter length={state.length} tooLong={state.tooLong} /> : null}
                </div>
                {reading && quick.parts && reading.chips.length > 0 ? (
                  <quick.parts.QuickAddChips
                    chips={reading.chips}
                    onRemove={quick.dismiss}
                    onEmptied={() => titleRef.current?.focus()}
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
            <Button type="submit" disabled={busy || state.tooLong}>
              {busy ? 'Creating…' : `Create ${type}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
