import { useMemo } from 'react';
import { type DayRow, planDayMove } from '../../shared/dayOrder';
import type { ItemStatus, ItemType } from '../../shared/item';
import { inManualOrder } from '../../shared/manualOrder';
import { type KeyWrite, moveTo, placeAt } from '../../shared/order';
import type { Priority } from '../../shared/planning';
import { type Send, useDoor, useToast } from '../app/door';
import type { CompletedWith } from '../data/commands/items';
import type { ToastInput } from '../stores/toastStore';
import { fieldErrorsOf } from './editMutations';
import { TYPE_LABEL } from './itemStyle';
import { completedTooText, undoAction } from './mutations';

/** What a row in manual order carries: its place, and the uuid that breaks ties (§5 'Order'). */
export interface OrderRow {
  id: number;
  title: string;
  type: ItemType;
  sort_key?: string | null;
  uuid?: string | null;
}

/** `items` in manual order (sort_key, then uuid), rows without a key first, as every device sorts. */
export const manualOrder: <T extends OrderRow>(items: readonly T[]) => T[] = inManualOrder;

const ordered = (list: readonly OrderRow[]) =>
  list.map((i) => ({ id: i.id, sort_key: i.sort_key ?? '', uuid: i.uuid ?? null }));

type Toast = (input: ToastInput) => unknown;

/** A row of a day in manual order (Today): its place and its priority (src/shared/dayOrder.ts). */
export type DayOrderRow = OrderRow & DayRow;

/** One key write, and (on a day) the moved item's new priority in the same PATCH. */
type MoveWrite = KeyWrite & { priority?: Priority };

/**
 * Stores `writes` (one sort_key normally; a re-key shares one undo group) and an optional status
 * change first (a board's drop into another column), then shows the toast with its Undo.
 */
async function storeMove(
  send: Send,
  toast: Toast,
  item: OrderRow,
  writes: readonly MoveWrite[],
  said: (completedWith: readonly CompletedWith[]) => ToastInput,
  status?: ItemStatus,
): Promise<void> {
  let completedWith: CompletedWith[] = [];
  try {
    // One gesture, one undo: a status change and its keys share a group.
    const undo = writes.length > 1 || status ? { group: crypto.randomUUID() } : undefined;
    if (status) ({ completedWith } = await send('items.setStatus', { id: item.id, status, undo }));
    for (const w of writes) {
      const patch =
        w.priority === undefined ? { sort_key: w.sort_key } : { sort_key: w.sort_key, priority: w.priority };
      await send('items.update', { id: w.id, patch, undo });
    }
  } catch (error) {
    console.error(error);
    toast({
      title: 'Error',
      description: `Failed to move the ${TYPE_LABEL[item.type].toLowerCase()}. Please try again.`,
      variant: 'destructive',
    });
    return;
  }
  const action = await undoAction(send, toast);
  const input = said(completedWith);
  toast(action ? { ...input, action } : input);
}

function orderMutations(send: Send, toast: Toast) {
  return {
    /** A row of `list` (in manual order) dropped at place `toIndex` (Alt+↑/↓ too): one key. */
    move: (list: readonly OrderRow[], item: OrderRow, toIndex: number) => {
      const writes = moveTo(ordered(list), item.id, toIndex);
      if (writes.length === 0) return Promise.resolve();
      return storeMove(send, toast, item, writes, () => ({
        title: `${TYPE_LABEL[item.type]} moved`,
        description: `“${item.title}” is now ${Math.min(toIndex, list.length - 1) + 1} of ${list.length}.`,
      }));
    },
    /**
     * A row of a day (`list`, in the day's order: priority, then manual order) dropped at `toIndex`:
     * one write of its key, and of the priority of the row it lands on when that is another one.
     * `more`: the day holds rows after `list` not read yet (a first page).
     */
    moveInDay: (list: readonly DayOrderRow[], item: DayOrderRow, toIndex: number, more = false) => {
      const plan = planDayMove(list, item.id, toIndex, undefined, more);
      if (!plan) return Promise.resolve();
      const { priority } = plan;
      const writes = plan.writes.map((w) => (w.id === item.id && priority ? { ...w, priority } : w));
      const place = `“${item.title}” is now ${Math.min(toIndex, list.length - 1) + 1} of ${list.length}.`;
      return storeMove(send, toast, item, writes, () => ({
        title: priority ? `Moved, now p${priority}` : `${TYPE_LABEL[item.type]} moved`,
        description: place,
      }));
    },
    /**
     * A card dropped into another board column (`list`, that column in manual order) at `toIndex`: its
     * status changes (with the roll-up, named in the toast), then its place. `openInside`: the open
     * items a completion takes with it, which the toast counts.
     */
    moveToStatus: (
      list: readonly OrderRow[],
      item: OrderRow,
      toIndex: number,
      status: ItemStatus,
      column: string,
      openInside = 0,
    ) => {
      const writes = placeAt(ordered(list), item.id, toIndex);
      return storeMove(
        send,
        toast,
        item,
        writes,
        (completedWith) => {
          const rolled = completedTooText(completedWith);
          const inside =
            openInside > 0
              ? `${openInside} open ${openInside === 1 ? 'item' : 'items'} inside ${openInside === 1 ? 'was' : 'were'} completed too.`
              : null;
          const said = [inside, rolled].filter((line) => line !== null).join(' ');
          return {
            title: `${TYPE_LABEL[item.type]} moved to ${column}`,
            description:
              said || `“${item.title}” is now ${status === 'completed' ? 'done' : column.toLowerCase()}.`,
          };
        },
        status,
      );
    },
    /**
     * A row dropped onto another (SYNC.md O7): it goes into `target`, last among its children, in one
     * write of `parent_id` (the device picks the key, O4), undoable. The caller checked canDropInto.
     */
    moveInto: async (item: OrderRow, target: { id: number; title: string }) => {
      try {
        await send('items.update', { id: item.id, patch: { parent_id: target.id } });
      } catch (error) {
        console.error(error);
        toast({
          title: 'Could not move it',
          description:
            fieldErrorsOf(error)?.parent_id?.[0] ??
            `Failed to move the ${TYPE_LABEL[item.type].toLowerCase()}. Please try again.`,
          variant: 'destructive',
        });
        return;
      }
      const action = await undoAction(send, toast);
      const input = {
        title: `Moved to “${target.title}”`,
        description: `“${item.title}” is now last in it.`,
      };
      toast(action ? { ...input, action } : input);
    },
  } as const;
}

export type OrderMutations = ReturnType<typeof orderMutations>;

/** Moves in manual order, each a local write with its toast and Undo (ARCHITECTURE §5 'Order'). */
export function useOrderMutations(): OrderMutations {
  const toast = useToast();
  const { send } = useDoor();
  return useMemo(() => orderMutations(send, toast), [send, toast]);
}
