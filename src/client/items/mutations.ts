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

/**
 * Runs one item action; on failure logs it and shows the spec's 'Failed to {verb} the {type}' toast,
 * on success the toast `success` gives (if any).
 */
async function withToasts(
  item: Target,
  verb: 'update' | 'assign' | 'delete',
  action: () => Promise<unknown>,
  success?: () => Parameters<typeof toast>[0],
): Promise<void> {
  try {
    await action();
    if (success) toast(success());
  } catch (error) {
    console.error(error);
    toast({
      title: 'Error',
      description: `Failed to ${verb} the ${lower(item.type)}. Please try again.`,
      variant: 'destructive',
    });
  }
}

const ITEM_MUTATIONS = {
  rename: (item: Target, title: string) =>
    withToasts(
      item,
      'update',
      () => updateItem(item.id, { title }),
      () => ({ title: `${TYPE_LABEL[item.type]} updated` }),
    ),
  setStatus: (item: Target, status: ItemStatus) =>
    withToasts(item, 'update', () => setItemStatus(item.id, status)),
  assign: (item: Target, userId: number) =>
    withToasts(
      item,
      'assign',
      () => assignItem(item.id, userId),
      () => ({ title: `${TYPE_LABEL[item.type]} assigned` }),
    ),
  remove: (item: Target) =>
    withToasts(
      item,
      'delete',
      () => deleteItem(item.id),
      () => ({
        title: `${TYPE_LABEL[item.type]} deleted`,
        description: `The ${lower(item.type)} has been deleted successfully.`,
      }),
    ),
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
