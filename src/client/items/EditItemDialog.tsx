/**
 * 'Edit details…': every field of an existing item in one form (title, description, status,
 * assignee, due date, end date for campaigns, reminder, repeat for tasks and todos). Loaded on first
 * use (ItemRowMenus).
 */
import { type FormEvent, useId, useState } from 'react';
import { ITEM_STATUSES, type ItemStatus } from '../../shared/item';
import type { ItemPatchInput } from '../../shared/schemas';
import { Button } from '../components/ui/Button';
import { Dialog, DialogContent, DialogFooter } from '../components/ui/Dialog';
import { Field } from '../components/ui/Field';
import { DateInput, Input, Textarea } from '../components/ui/Input';
import { isSubmitShortcut } from '../components/ui/keys';
import { TitleCounter } from '../components/ui/TitleCounter';
import { AssigneeOptions } from './AssigneeOptions';
import { formatReminder, fromLocalDateTime, toLocalDateTime } from './editing';
import { fieldErrorsOf, useItemEdits } from './editMutations';
import { localToday } from './itemPayload';
import { statusText, TYPE_LABEL } from './itemStyle';
import { useAssigneeOptions, useItemMutations } from './mutations';
import { type LocalItem, useInside, useItem } from './queries';
import RepeatControl from './RepeatControl';
import { type ItemFormValues, useItemForm } from './useItemForm';

export const selectClasses =
  'h-10 w-full rounded-lg border border-zinc-300 bg-white px-3 text-base text-zinc-900 shadow-xs outline-none focus-visible:border-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-500/40 md:text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

interface Values extends ItemFormValues {
  status: ItemStatus;
  /** The repeat rule; '' for none. */
  repeat: string;
}

function valuesOf(item: LocalItem): Values {
  return {
    title: item.title,
    description: item.description ?? '',
    status: item.status,
    assignee: item.assigned_to === null ? '' : String(item.assigned_to),
    dueDate: item.due_date ?? '',
    endDate: item.end_date ?? '',
    remindAt: toLocalDateTime(item.remind_at),
    repeat: item.recurrence ?? '',
  };
}

/** The fields that differ from the item, as a PATCH carries them. */
export function changedFields(item: LocalItem, v: Values): ItemPatchInput {
  const patch: ItemPatchInput = {};
  if (v.title.trim() !== item.title) patch.title = v.title;
  if ((v.description.trim() === '' ? null : v.description) !== (item.description ?? null))
    patch.description = v.description.trim() === '' ? null : v.description;
  if (v.status !== item.status) patch.status = v.status;
  const assignee = v.assignee === '' ? null : Number(v.assignee);
  if (assignee !== (item.assigned_to ?? null)) patch.assigned_to = assignee;
  if ((v.dueDate || null) !== (item.due_date ?? null)) patch.due_date = v.dueDate || null;
  if (item.type === 'campaign' && (v.endDate || null) !== (item.end_date ?? null))
    patch.end_date = v.endDate || null;
  const remind = v.remindAt === '' ? null : fromLocalDateTime(v.remindAt);
  if (v.remindAt !== toLocalDateTime(item.remind_at)) patch.remind_at = remind;
  if ((v.repeat || null) !== (item.recurrence ?? null)) patch.recurrence = v.repeat || null;
  return patch;
}

export interface EditItemDialogProps {
  itemId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (the row's menu button). */
  onCloseAutoFocus?: (event: Event) => void;
}

export default function EditItemDialog({
  itemId,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: EditItemDialogProps) {
  const item = useItem(open ? itemId : 0);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Edit details"
        description={item ? `${TYPE_LABEL[item.type]} “${item.title}”` : undefined}
        onCloseAutoFocus={onCloseAutoFocus}
        className="[overflow-wrap:anywhere]"
      >
        {item ? <EditForm item={item} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditForm({ item, onDone }: { item: LocalItem; onDone: () => void }) {
  const formId = useId();
  // The form starts from the item as it was when opened; a sync meanwhile does not overwrite typing.
  const form = useItemForm(() => valuesOf(item));
  const { values } = form;
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const options = useAssigneeOptions(item);
  const edits = useItemEdits();
  const { reopen } = useItemMutations();
  const inside = useInside(item.type === 'todo' ? 0 : item.id);
  const set = (key: keyof Values) => form.set(key) as (value: string) => void;
  const { title, blank } = form;
  const openInside = inside?.open ?? 0;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || blank || title.tooLong) return;
    const patch = changedFields(item, values);
    if (Object.keys(patch).length === 0) return onDone();
    setBusy(true);
    try {
      const reopening =
        patch.status === 'pending' && item.status === 'completed' && (inside?.inside ?? 0) > 0;
      if (reopening) {
        const { status: _status, ...rest } = patch;
        await reopen(item);
        if (Object.keys(rest).length > 0) await edits.save(item, rest);
      } else {
        await edits.save(item, patch);
      }
      onDone();
    } catch (error) {
      console.error(error);
      setErrors(fieldErrorsOf(error) ?? { body: ['Failed to save the changes. Please try again.'] });
    } finally {
      setBusy(false);
    }
  };

  const reminderText = formatReminder(fromLocalDateTime(values.remindAt));
  return (
    <form
      id={formId}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (isSubmitShortcut(event)) {
          event.preventDefault();
          void submit();
        }
      }}
      className="flex flex-col gap-4"
      noValidate
    >
      <Field
        label="Title"
        error={errors.title?.[0] ?? title.error ?? (blank ? 'Title is required.' : undefined)}
      >
        {(control) => (
          <div className="relative">
            <Input
              {...control}
              value={values.title}
              onChange={(e) => set('title')(e.target.value)}
              required
              autoComplete="off"
              className={title.showCounter ? 'pr-16' : undefined}
            />
            {title.showCounter ? <TitleCounter length={title.length} tooLong={title.tooLong} /> : null}
          </div>
        )}
      </Field>
      <Field label="Description" hint="Optional" error={errors.description?.[0]}>
        {(control) => (
          <Textarea
            {...control}
            value={values.description}
            onChange={(e) => set('description')(e.target.value)}
            rows={3}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Status"
          error={errors.status?.[0]}
          hint={
            values.status === 'completed' && item.status !== 'completed' && openInside > 0
              ? `Completes ${openInside} open ${openInside === 1 ? 'item' : 'items'} inside too.`
              : undefined
          }
        >
          {(control) => (
            <select
              {...control}
              value={values.status}
              onChange={(e) => set('status')(e.target.value)}
              className={selectClasses}
            >
              {ITEM_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusText(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Assignee" error={errors.assigned_to?.[0]}>
          {(control) => (
            <select
              {...control}
              value={values.assignee}
              onChange={(e) => set('assignee')(e.target.value)}
              className={selectClasses}
            >
              <AssigneeOptions item={item} options={options} />
            </select>
          )}
        </Field>
        <Field label="Due date" error={errors.due_date?.[0]}>
          {(control) => (
            <DateInput {...control} value={values.dueDate} onChange={(e) => set('dueDate')(e.target.value)} />
          )}
        </Field>
        {item.type === 'campaign' ? (
          <Field label="End date" error={errors.end_date?.[0]}>
            {(control) => (
              <DateInput
                {...control}
                value={values.endDate}
                onChange={(e) => set('endDate')(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        <Field
          label="Reminder"
          error={errors.remind_at?.[0]}
          hint={reminderText ?? undefined}
          className={item.type === 'campaign' ? 'sm:col-span-2' : undefined}
        >
          {(control) => (
            <Input
              {...control}
              type="datetime-local"
              value={values.remindAt}
              onChange={(e) => set('remindAt')(e.target.value)}
            />
          )}
        </Field>
        {item.type !== 'campaign' ? (
          <Field label="Repeat" error={errors.recurrence?.[0]} className="sm:col-span-2">
            {(control) => (
              <RepeatControl
                id={control.id}
                value={values.repeat || null}
                due={values.dueDate || null}
                followDue
                triggerClassName="h-10 w-full"
                onChange={(rule) =>
                  form.update((v) => ({
                    ...v,
                    repeat: rule ?? '',
                    // A repeating item counts from its due date: today unless one is set.
                    dueDate: rule !== null && v.dueDate === '' ? localToday() : v.dueDate,
                  }))
                }
              />
            )}
          </Field>
        ) : null}
      </div>
      {errors.body ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.body[0]}
        </p>
      ) : null}
      <DialogFooter className="mt-0">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || blank || title.tooLong}>
          {busy ? 'Saving…' : 'Save changes'}
        </Button>
      </DialogFooter>
    </form>
  );
}
