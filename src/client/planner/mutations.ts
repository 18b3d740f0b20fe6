/** Today's and Upcoming's writes: the same item commands as every list, with their toasts and Undo. */
import { useMemo } from 'react';
import { dayHeading } from '../../shared/agenda';
import type { ItemCreateInput } from '../../shared/schemas';
import { useDoor, useToast } from '../app/door';
import { TYPE_LABEL } from '../items/itemStyle';
import { undoAction, useCreateWithToasts } from '../items/mutations';

interface Target {
  id: number;
  type: keyof typeof TYPE_LABEL;
  title: string;
}

/**
 * Moves an item to another day (`items.update` with its due date, as the edit dialog does): offline,
 * undoable, synced. The toast names the day as the headings do ('Moved to Tomorrow').
 */
export function useReschedule(today: string): (item: Target, day: string) => Promise<void> {
  const { send } = useDoor();
  const toast = useToast();
  return useMemo(
    () => async (item, day) => {
      try {
        await send('items.update', { id: item.id, patch: { due_date: day } });
      } catch (error) {
        console.error(error);
        toast({
          title: 'Error',
          description: `Failed to update the ${TYPE_LABEL[item.type].toLowerCase()}. Please try again.`,
          variant: 'destructive',
        });
        return;
      }
      const action = await undoAction(send, toast);
      const input = { title: `Moved to ${dayHeading(day, today)}`, description: item.title };
      toast(action ? { ...input, action } : input);
    },
    [send, toast, today],
  );
}

/** Upcoming's 'Add to <day>': a todo due that day, through the quick add's create and its toast. */
export function useAddOnDay(): (
  title: string,
  day: string,
  /** What the title's words said (a quick-add reading's apply), over the day's todo. */
  read?: (payload: ItemCreateInput) => ItemCreateInput,
) => Promise<boolean> {
  const create = useCreateWithToasts();
  return useMemo(
    () =>
      (title, day, read = (payload) => payload) =>
        create(read({ type: 'todo', title: title.trim(), status: 'pending', due_date: day })).then(
          (created) => created !== null,
        ),
    [create],
  );
}
