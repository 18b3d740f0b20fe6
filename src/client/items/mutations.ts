import { useMemo } from 'react';
import type { ItemStatus, ItemType } from '../../shared/item';
import type { ItemCreateInput } from '../../shared/schemas';
import { type AssigneeOption, assigneeOptions } from '../components/items/assignees';
import { TYPE_LABEL } from '../components/items/itemStyle';
import { ApiError } from '../data/apiClient';
import { ValidationError } from '../data/itemsRepository';
import { toast } from '../stores/toastStore';
import {
  assignItem,
  createItem,
  deleteItem,
  setItemStatus,
  updateItem,
  useMutuals,
  useViewer,
} from './dataAdapter';

interface Target {
  id: number;
  type: ItemType;
  title: string;
}

const lower = (type: ItemType) => TYPE_LABEL[type].toLowerCase();

/** Item actions with the spec's toasts (section 8), shared by every card and page. */
export function useItemMutations() {
  return ITEM_MUTATIONS;
}

const ITEM_MUTATIONS = {
  async rename(item: Target, title: string) {
    try {
      await updateItem(item.id, { title });
      toast({ title: `${TYPE_LABEL[item.type]} updated` });
    } catch (error) {
      console.error(error);
      toast({
        title: 'Error',
        description: `Failed to update the ${lower(item.type)}. Please try again.`,
        variant: 'destructive',
      });
    }
  },
  async setStatus(item: Target, status: ItemStatus) {
    try {
      await setItemStatus(item.id, status);
    } catch (error) {
      console.error(error);
      toast({
        title: 'Error',
        description: `Failed to update the ${lower(item.type)}. Please try again.`,
        variant: 'destructive',
      });
    }
  },
  async assign(item: Target, userId: number) {
    try {
      await assignItem(item.id, userId);
      toast({ title: `${TYPE_LABEL[item.type]} assigned` });
    } catch (error) {
      console.error(error);
      toast({
        title: 'Error',
        description: `Failed to assign the ${lower(item.type)}. Please try again.`,
        variant: 'destructive',
      });
    }
  },
  async remove(item: Target) {
    try {
      await deleteItem(item.id);
      toast({
        title: `${TYPE_LABEL[item.type]} deleted`,
        description: `The ${lower(item.type)} has been deleted successfully.`,
      });
    } catch (error) {
      console.error(error);
      toast({
        title: 'Error',
        description: `Failed to delete the ${lower(item.type)}. Please try again.`,
        variant: 'destructive',
      });
    }
  },
} as const;

/** The quick-add card's create, with its toasts; resolves true when the item was created. */
export async function createWithToasts(payload: ItemCreateInput): Promise<boolean> {
  try {
    await createItem(payload);
    toast({ title: 'Item created', description: `Your ${payload.type} has been created successfully.` });
    return true;
  } catch (error) {
    console.error(error);
    const invalid = (error instanceof ApiError && error.status === 422) || error instanceof ValidationError;
    toast({
      title: 'Error',
      description: invalid
        ? 'Invalid input. Please check your title length and try again.'
        : 'Failed to create item. Please try again.',
      variant: 'destructive',
    });
    return false;
  }
}

/** Unassigned is added by the pickers; this is yourself (signed in), mutual contacts, then samples. */
export function useAssigneeOptions(): AssigneeOption[] {
  const viewer = useViewer();
  const mutuals = useMutuals();
  return useMemo(
    () => assigneeOptions(viewer.isGuest ? null : { id: viewer.user.id, name: viewer.user.name }, mutuals),
    [viewer.isGuest, viewer.user.id, viewer.user.name, mutuals],
  );
}
