import { useEffect, useMemo, useState } from 'react';
import type { ItemStatus, ItemType } from '../../shared/item';
import type { ItemCreateInput } from '../../shared/schemas';
import { type Send, useCommand, useDoor, useToast } from '../app/door';
import type { CompletedWith } from '../data/commands/items';
import type { CampaignMember } from '../data/commands/sharing';
import { isInvalidInput } from '../data/items/repositoryErrors';
import type { LocalItem } from '../data/store/types';
import { announceCreated } from '../stores/quickAddToast';
import type { ToastInput, ToastStore } from '../stores/toastStore';
import { type AssigneeOption, assigneeOptions, isShared } from './assignees';
import { TYPE_LABEL } from './itemStyle';
import { useItem, useMutuals, useViewer } from './queries';

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

/** Takes back one change (the newest without `seq`) and says so; never throws. */
export async function undoChange(send: Send, toast: Toast, seq?: number): Promise<void> {
  try {
    const label = await send('undo.takeBack', seq);
    toast(
      label
        ? { title: 'Undone', description: `${label}: taken back.` }
        : { title: 'Nothing to undo', description: 'There is no change of yours left to take back.' },
    );
  } catch (error) {
    console.error(error);
    const reason = error instanceof Error ? error.message : '';
    toast({ title: 'Could not undo', description: reason || 'Please try again.', variant: 'destructive' });
  }
}

/** The Undo action for the change just stored: it takes back that change, not a later one. */
export async function undoAction(send: Send, toast: Toast): Promise<ToastInput['action']> {
  const seq = await send('undo.latest').catch(() => null);
  if (seq === null) return undefined;
  return { label: 'Undo', onClick: () => void undoChange(send, toast, seq) };
}

/** Shows a change's toast with its Undo action (ARCHITECTURE §5 Undo). */
async function withUndo(send: Send, toast: Toast, input: ToastInput): Promise<void> {
  const action = await undoAction(send, toast);
  toast(action ? { ...input, action } : input);
}

/** Ctrl/Cmd+Z and the toasts' Undo: takes back the newest change. */
export function useUndo(): () => Promise<void> {
  const { send } = useDoor();
  const toast = useToast();
  return useMemo(() => () => undoChange(send, toast), [send, toast]);
}

/** Item actions with the spec's toasts (section 8), shared by every card and page. */
export function useItemMutations(): ItemMutations {
  const toast = useToast();
  const { send } = useDoor();
  return useMemo(() => itemMutations(send, toast), [send, toast]);
}

/**
 * Runs one item action; on failure logs it and shows the spec's 'Failed to {verb} the {type}' toast,
 * on success the toast `success` gives, with its Undo.
 */
async function withToasts(
  toast: Toast,
  send: Send,
  item: Target,
  verb: 'update' | 'assign' | 'delete',
  action: () => Promise<unknown>,
  success: () => ToastInput,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    fail(toast, item, verb, error);
    return;
  }
  await withUndo(send, toast, success());
}

function fail(toast: Toast, item: Target, verb: 'update' | 'assign' | 'delete', error: unknown): void {
  console.error(error);
  toast({
    title: 'Error',
    description: `Failed to ${verb} the ${lower(item.type)}. Please try again.`,
    variant: 'destructive',
  });
}

/**
 * P13: a completion that completes its parent (the last open item) says so, never silently:
 * 'Campaign “Launch” is complete too: nothing in it is left open.'
 */
export function completedTooText(completedWith: readonly CompletedWith[]): string | null {
  if (completedWith.length === 0) return null;
  const names = completedWith.map((p) => `${lower(p.type)} “${p.title}”`);
  const first = names.join(' and ');
  const sentence = `${first.charAt(0).toUpperCase()}${first.slice(1)}`;
  return completedWith.length === 1
    ? `${sentence} is complete too: nothing in it is left open.`
    : `${sentence} are complete too: nothing in them is left open.`;
}

const STATUS_DONE: Record<ItemStatus, string> = {
  pending: 'reopened',
  in_progress: 'started',
  completed: 'completed',
};

function itemMutations(send: Send, toast: Toast) {
  return {
    rename: (item: Target, title: string) =>
      withToasts(
        toast,
        send,
        item,
        'update',
        () => send('items.update', { id: item.id, patch: { title } }),
        () => ({ title: `${TYPE_LABEL[item.type]} updated` }),
      ),
    /** Priority and labels (ARCHITECTURE §4 'Planning fields'): the same local, queued, undoable update. */
    setPriority: (item: Target, priority: 1 | 2 | 3 | 4) =>
      withToasts(
        toast,
        send,
        item,
        'update',
        () => send('items.update', { id: item.id, patch: { priority } }),
        () => ({ title: `${TYPE_LABEL[item.type]} updated`, description: `Priority: p${priority}.` }),
      ),
    setLabels: (item: Target, labels: string[]) =>
      withToasts(
        toast,
        send,
        item,
        'update',
        () => send('items.update', { id: item.id, patch: { labels } }),
        () => ({
          title: `${TYPE_LABEL[item.type]} updated`,
          description: labels.length > 0 ? `Labels: ${labels.join(', ')}.` : 'Labels: none.',
        }),
      ),
    setStatus: (item: Target, status: ItemStatus) => {
      let completedWith: CompletedWith[] = [];
      return withToasts(
        toast,
        send,
        item,
        'update',
        async () => {
          ({ completedWith } = await send('items.setStatus', { id: item.id, status }));
        },
        () => {
          const title = `${TYPE_LABEL[item.type]} ${STATUS_DONE[status]}`;
          const description = completedTooText(completedWith);
          return description ? { title, description } : { title };
        },
      );
    },
    /**
     * Completes an item and (the shared rule) its open descendants; when there were some, the toast
     * says how many went with it.
     */
    complete: (item: Target, openDescendants: number) =>
      withToasts(
        toast,
        send,
        item,
        'update',
        () => send('items.setStatus', { id: item.id, status: 'completed' }),
        openDescendants > 0
          ? () => ({
              title: `${TYPE_LABEL[item.type]} completed`,
              description: `${openDescendants} open ${openDescendants === 1 ? 'item' : 'items'} inside ${openDescendants === 1 ? 'was' : 'were'} completed too.`,
            })
          : () => ({ title: `${TYPE_LABEL[item.type]} completed` }),
      ),
    /**
     * Reopens an item so its status, counts and progress agree (shared reopenDirect): over a subtree
     * that is all done, the items completed last are reopened and the roll-up reopens the rest.
     */
    reopen: (item: Target & StatusFields) =>
      // The data layer reopens what was completed last when the subtree is all done (reopenDirect).
      withToasts(
        toast,
        send,
        item,
        'update',
        () => send('items.setStatus', { id: item.id, status: 'pending' }),
        () => ({ title: `${TYPE_LABEL[item.type]} reopened` }),
      ),
    assign: (item: Target, userId: number) =>
      withToasts(
        toast,
        send,
        item,
        'assign',
        () => send('items.assign', { id: item.id, userId }),
        () => ({ title: `${TYPE_LABEL[item.type]} assigned` }),
      ),
    remove: (item: Target) =>
      withToasts(
        toast,
        send,
        item,
        'delete',
        () => send('items.remove', { id: item.id }),
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
  return useCommand('items.create');
}

/** The quick-add card's create, with its toasts; resolves with the item when it was created, else null. */
export function useCreateWithToasts(): (payload: ItemCreateInput) => Promise<LocalItem | null> {
  const toast = useToast();
  const { toasts, send } = useDoor();
  return useMemo(() => (payload) => createWithToasts(send, toast, toasts, payload), [send, toast, toasts]);
}

async function createWithToasts(
  send: Send,
  toast: Toast,
  toasts: ToastStore,
  payload: ItemCreateInput,
): Promise<LocalItem | null> {
  try {
    const created = await send('items.create', payload);
    // Quick-adds in a row share one toast with the spec's 'Item created'.
    announceCreated(toasts, payload.type, await undoAction(send, toast));
    return created;
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
    return null;
  }
}

/** An item, or where a new one goes, as far as finding its campaign needs. */
export interface AssigneeContext {
  id: number;
  type: ItemType;
  parent_id: number | null;
  /** A campaign's own sharing fields, when the context is one (M16). */
  my_role?: LocalItem['my_role'];
  members_count?: number | null;
}

type SharingContext = Pick<AssigneeContext, 'id' | 'my_role' | 'members_count'>;

type Roster = { members: CampaignMember[]; departed?: number[] };

/** Rosters read this page life, by campaign: rows of one campaign ask once, not once a row. */
const rosters = new Map<number, { at: number; value: Roster | null; pending: Promise<Roster> | null }>();
const ROSTER_FRESH_MS = 10_000;

/**
 * A campaign's members and who left it (M15), for the assignee pickers; asked for only inside a
 * campaign the server has, signed in and online. Not TanStack Query: item rows are on the first
 * screen, which has no QueryClient (its bundle budget).
 */
function useCampaignRoster(campaignId: number): Roster | null {
  const viewer = useViewer();
  const { send } = useDoor();
  const enabled = !viewer.isGuest && viewer.online && campaignId > 0;
  const [roster, setRoster] = useState<{ id: number; value: Roster } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const entry = rosters.get(campaignId) ?? { at: 0, value: null, pending: null };
    rosters.set(campaignId, entry);
    if (entry.value) setRoster({ id: campaignId, value: entry.value });
    if (Date.now() - entry.at > ROSTER_FRESH_MS) {
      entry.pending ??= send('sharing.roster', { campaignId }).finally(() => {
        entry.pending = null;
      });
      entry.pending
        .then((value) => {
          entry.value = value;
          entry.at = Date.now();
          if (live) setRoster({ id: campaignId, value });
        })
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [campaignId, enabled, send]);
  return enabled && roster?.id === campaignId ? roster.value : null;
}

/** The campaign `item` lies in (itself, its parent or grandparent), read from the device. */
function useCampaignOf(item: AssigneeContext | null | undefined): SharingContext | null {
  const parent = useItem(item?.type === 'campaign' ? 0 : (item?.parent_id ?? 0));
  const grand = useItem(parent && parent.type !== 'campaign' ? (parent.parent_id ?? 0) : 0);
  if (!item) return null;
  if (item.type === 'campaign') return item;
  if (parent?.type === 'campaign') return parent;
  if (grand?.type === 'campaign') return grand;
  return null;
}

/**
 * Unassigned is added by the pickers; this is yourself (signed in), the campaign's members, mutual
 * contacts, then samples. Inside a campaign (`within` the item or the new item's parent) nobody who
 * left it or was removed is offered (M15): they could never open the item; inside a shared one only
 * its members are (M16).
 */
export function useAssigneeOptions(within?: AssigneeContext | null): AssigneeOption[] {
  const viewer = useViewer();
  const { mutuals, samples } = useMutuals();
  const campaign = useCampaignOf(within);
  const campaignId = campaign?.id ?? 0;
  const roster = useCampaignRoster(campaignId);
  const shared = isShared(campaign);
  return useMemo(
    () =>
      assigneeOptions(
        viewer.isGuest ? null : { id: viewer.user.id, name: viewer.user.name },
        mutuals,
        samples,
        roster
          ? {
              members: roster.members.map((m) => ({ id: m.user.id, name: m.user.name })),
              departed: roster.departed ?? [],
            }
          : null,
        shared,
      ),
    [viewer.isGuest, viewer.user.id, viewer.user.name, mutuals, samples, roster, shared],
  );
}
