/** Edits of an existing item (the edit dialog, the detail pages' fields, Move to…) with their toasts. */
import { useMemo } from 'react';
import type { ItemType } from '../../shared/item';
import type { ItemPatchInput } from '../../shared/schemas';
import { useDoor, useToast } from '../app/door';
import { isInvalidInput } from '../data/items/repositoryErrors';
import { TYPE_LABEL } from './itemStyle';
import { undoAction } from './mutations';

interface Target {
  id: number;
  type: ItemType;
  title: string;
  parent_id?: number | null;
}

/** Field → messages of a refused edit (the local rules or a 422), or null for another failure. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> | null {
  if (!isInvalidInput(error)) return null;
  const errors =
    (error as { errors?: unknown; data?: { errors?: unknown } }).errors ??
    (error as { data?: { errors?: unknown } }).data?.errors;
  return errors && typeof errors === 'object' ? (errors as Record<string, string[]>) : {};
}

export interface ItemEdits {
  /**
   * Saves changed fields (status and assignee go through their own writes, so roll-up and the
   * assign endpoint apply). Resolves true when stored; throws the refusal for the form to show.
   */
  save: (item: Target, patch: ItemPatchInput, opts?: { quiet?: boolean }) => Promise<void>;
  /** Moves an item under `parentId` (null: top level); a toast names where it went. */
  move: (item: Target, parentId: number | null, parentTitle: string | null) => Promise<boolean>;
}

export function useItemEdits(): ItemEdits {
  const toast = useToast();
  const { send } = useDoor();
  return useMemo<ItemEdits>(
    () => ({
      save: async (item, patch, opts) => {
        const { assigned_to, ...rest } = patch;
        // One save, one undo, even when the assignee goes through its own write.
        const undo = { group: crypto.randomUUID() };
        if (Object.keys(rest).length > 0) await send('items.update', { id: item.id, patch: rest, undo });
        if (assigned_to !== undefined)
          await send('items.assign', { id: item.id, userId: assigned_to ?? 0, undo });
        if (!opts?.quiet) {
          const action = await undoAction(send, toast);
          toast({ title: `${TYPE_LABEL[item.type]} updated`, ...(action ? { action } : {}) });
        }
      },
      move: async (item, parentId, parentTitle) => {
        try {
          // Stored is moved (W1). A move the server refuses later (403: not the creator's to take out
          // of its campaign) is put back by the queue, whose 'Change not synced' toast gives the reason.
          await send('items.update', { id: item.id, patch: { parent_id: parentId } });
          const action = await undoAction(send, toast);
          toast({
            ...(action ? { action } : {}),
            title: `${TYPE_LABEL[item.type]} moved`,
            description: parentTitle
              ? `“${item.title}” is now in “${parentTitle}”.`
              : `“${item.title}” is now at the top level.`,
          });
          return true;
        } catch (error) {
          console.error(error);
          const errors = fieldErrorsOf(error);
          toast({
            title: 'Could not move it',
            description:
              errors?.parent_id?.[0] ??
              `Failed to move the ${TYPE_LABEL[item.type].toLowerCase()}. Please try again.`,
            variant: 'destructive',
          });
          return false;
        }
      },
    }),
    [send, toast],
  );
}
