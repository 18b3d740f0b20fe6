/** Calendar and Timeline's one write: new dates for an item, undoable, queued for sync, announced. */
import { useMemo, useState } from 'react';
import type { DatePatch } from '../../shared/calendar';
import { useDoor, useToast } from '../app/door';
import { isInvalidInput } from '../data/items/repositoryErrors';
import { undoAction } from '../items/mutations';

/** What a date change tells: the toast's title and what a screen reader hears. */
export interface DateChange {
  id: number;
  title: string;
  patch: DatePatch;
  /** 'Moved to Wed 2 Dec', 'Now ends Thu 3 Dec'. */
  words: string;
}

/**
 * Writes new dates through `items.update` (the local write, its queue entry and its undo record in one
 * transaction) and says so twice: in the live region the page renders (`announcement`) and in a toast
 * with Undo. A refusal (D10) is told, never thrown.
 */
export function useDateChange(): { change: (c: DateChange) => Promise<boolean>; announcement: string } {
  const { send } = useDoor();
  const toast = useToast();
  const [announcement, setAnnouncement] = useState('');
  const change = useMemo(
    () =>
      async ({ id, title, patch, words }: DateChange) => {
        try {
          await send('items.update', { id, patch });
        } catch (error) {
          const message =
            isInvalidInput(error) && error instanceof Error ? error.message : 'Please try again.';
          setAnnouncement(`Could not change the dates of ${title}.`);
          toast({ title: 'Could not change the dates', description: message, variant: 'destructive' });
          return false;
        }
        setAnnouncement(`${title}: ${words}.`);
        const action = await undoAction(send, toast);
        const input = { title: words, description: title };
        toast(action ? { ...input, action } : input);
        return true;
      },
    [send, toast],
  );
  return { change, announcement };
}
