import { useCallback, useState } from 'react';
import { isBlankTitle } from '../../shared/text';
import { canSubmitTitle, type TitleState, titleState } from './itemPayload';

/** What every item form holds as the person types: text as typed, dates and the assignee as strings. */
export interface ItemFormValues {
  title: string;
  description: string;
  /** A user id as text; '' for unassigned. */
  assignee: string;
  dueDate: string;
  endDate: string;
  /** datetime-local text; '' for none. */
  remindAt: string;
}

/** A new item's form: nothing typed, no repeat rule. */
export interface NewItemFormValues extends ItemFormValues {
  repeat: string | null;
}

export const NEW_ITEM_FORM: NewItemFormValues = {
  title: '',
  description: '',
  assignee: '',
  dueDate: '',
  endDate: '',
  remindAt: '',
  repeat: null,
};

/** Nothing typed or picked: a quick add may collapse without losing anything. */
export function isEmptyForm(values: NewItemFormValues): boolean {
  return (
    isBlankTitle(values.title) &&
    values.description.trim() === '' &&
    values.dueDate === '' &&
    values.endDate === '' &&
    values.assignee === '' &&
    values.remindAt === '' &&
    values.repeat === null
  );
}

export interface ItemForm<V extends ItemFormValues> {
  values: V;
  /** A setter for one field, for an input's onChange. */
  set: <K extends keyof V>(key: K) => (value: V[K]) => void;
  /** Several fields at once, from the values as they are. */
  update: (change: (values: V) => V) => void;
  /** Back to `to` (the form's first values by default). */
  reset: (to?: V) => void;
  /** The title's counter, its error and whether it is too long. */
  title: TitleState;
  /** The title is empty or only white space. */
  blank: boolean;
  /** The title may be submitted (not blank, not too long). */
  canSubmit: boolean;
}

/**
 * The state of one item form (the quick-add card, the Create dialog, Edit details): the values as
 * typed, a setter per field, a reset, and what the title allows. The three forms differ in their
 * fields and payloads (itemPayload.ts), never in how they hold what is typed.
 */
export function useItemForm<V extends ItemFormValues>(initial: V | (() => V)): ItemForm<V> {
  const [first] = useState(initial);
  const [values, setValues] = useState<V>(first);
  const set = useCallback(
    <K extends keyof V>(key: K) =>
      (value: V[K]) =>
        setValues((v) => ({ ...v, [key]: value })),
    [],
  );
  const reset = useCallback((to?: V) => setValues(to ?? first), [first]);
  return {
    values,
    set,
    update: setValues,
    reset,
    title: titleState(values.title),
    blank: isBlankTitle(values.title),
    canSubmit: canSubmitTitle(values.title),
  };
}
