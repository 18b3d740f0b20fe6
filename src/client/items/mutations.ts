import { useMemo } from 'react';
import type { ItemStatus, ItemType } from '../../shared/item';
import type { ItemCreateInput } from '../../shared/schemas';
import { type ItemWrites, isInvalidInput, type LocalItem, useItemWrites } from '../app/liveData';
import { useServices, useToast } from '../app/services';
import { announceCreated } from '../stores/quickAddToast';
import type { ToastInput, ToastStore } from '../stores/toastStore';
import { type AssigneeOption, assigneeOptions } from './assignees';
import { TYPE_LABEL } from './itemStyle';
import { useMutuals, useViewer } from './queries';

interface Target {
  id: number;
  type: ItemType;
  title: string;
}

interface StatusFields {
  id: number;
  parent_id: number | null;
  status: ItemStatus;
  completed_at: string | null;
}

const lower = (type: ItemType) => TYPE_LABEL[type].toLowerCase();

type Toast = (input: ToastInput) => unknown;

/** Item actions with the spec's toasts (section 8), shared by every card and page. */
export function useItemMutations(): ItemMutations {
  const writes = useItemWrites();
  const toast = useToast();
  return useMemo(() => itemMutations(writes, toast), [writes, toast]);
}

/**
 * Runs one item action; on failure logs it and shows the spec's 'Failed to {verb} the {type}' toast,
 * on success the toast `success` gives (if any).
 */
async function withToasts(
  toast: Toast,
  item: Target,
  verb: 'update' | 'assign' | 'delete',
  action: () => Promise<unknown>,
  success?: () => ToastInput,
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

function itemMutations(writes: ItemWrites, toast: Toast) {
  return {
    rename: (item: Target, title: string) =>
      withToasts(
        toast,
        item,
        'update',
        () => writes.update(item.id, { title }),
        () => ({ title: `${TYPE_LABEL[item.type]} updated` }),
      ),
    setStatus: (item: Target, status: ItemStatus) =>
      withToasts(toast, item, 'update', () => writes.setStatus(item.id, status)),
    /**
     * Completes an item and (the shared rule) its open descendants; when there were some, the toast
     * says how many went with it.
     */
    complete: (item: Target, openDescendants: number) =>
      withToasts(
        toast,
        item,
        'update',
        () => writes.setStatus(item.id, 'completed'),
        openDescendants > 0
          ? () => ({
              title: `${TYPE_LABEL[item.type]} completed`,
              description: `${openDescendants} open ${openDescendants === 1 ? 'item' : 'items'} inside ${openDescendants === 1 ? 'was' : 'were'} completed too.`,
            })
          : undefined,
      ),
    /**
     * Reopens an item so its status, counts and progress agree (shared reopenDirect): over a subtree
     * that is all done, the items completed last are reopened and the roll-up reopens the rest.
     */
    reopen: (item: Target & StatusFields, _descendants: readonly StatusFields[]) =>
      // The data layer reopens what was completed last when the subtree is all done (reopenDirect).
      withToasts(toast, item, 'update', () => writes.setStatus(item.id, 'pending')),
    assign: (item: Target, userId: number) =>
      withToasts(
        toast,
        item,
        'assign',
        () => writes.assign(item.id, userId),
        () => ({ title: `${TYPE_LABEL[item.type]} assigned` }),
      ),
    remove: (item: Target) =>
      withToasts(
        toast,
        item,
        'delete',
        () => writes.remove(item.id),
        () => ({
          title: `${TYPE_LABEL[item.type]} deleted`,
          description: `The ${lower(item.type)} has been deleted successfully.`,
        }),
      ),
  } as const;
}

export type ItemMutations = ReturnType<typeof itemMutations>;

/** The raw create (the Create dialog shows its own errors); resolves with the stored item. */
export function useCreateItem(): (payload: ItemCreateInput) => Promise<LocalItem> {
  return useItemWrites().create;
}

/** The quick-add card's create, with its toasts; resolves true when the item was created. */
export function useCreateWithToasts(): (payload: ItemCreateInput) => Promise<boolean> {
  const writes = useItemWrites();
  const toast = useToast();
  const { toasts } = useServices();
  return useMemo(
    () => (payload) => createWithToasts(writes, toast, toasts, payload),
    [writes, toast, toasts],
  );
}

async function createWithToasts(
  writes: ItemWrites,
  toast: Toast,
  toasts: ToastStore,
  payload: ItemCreateInput,
): Promise<boolean> {
  try {
    await writes.create(payload);
    // Quick-adds in a row fold into one toast ('3 todos created'); one alone keeps 'Item created'.
    announceCreated(toasts, payload.type);
    return true;
  } catch (error) {
    console.error(error);
    const invalid = isInvalidInput(error);
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
