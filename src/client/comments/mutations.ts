import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { type Comment, mentionToken } from '../../shared/comments';
import { type HistoryEntry, planRevert, type RevertibleField } from '../../shared/history';
import type { ItemPatchInput } from '../../shared/schemas';
import { useDoor, useToast } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { commentsKey, historyKey } from './queries';

/** The reader's copy of the item, as far as a restore reads it. */
export type RevertTarget = Partial<Record<RevertibleField, unknown>>;

/** A comment written on this page and not yet stored by the server. */
export interface PendingComment {
  uuid: string;
  itemId: number;
  body: string;
  mentions: { id: number; name: string }[];
  /** `sending` while its request is out; `pending` when no answer came (offline): sent again later. */
  state: 'sending' | 'pending';
  created_at: string;
}

/**
 * Comments on their way, per page: shown at once under the timeline, sent with their uuid, and sent
 * again with the same uuid when the connection returns, so the server stores each once (K4). Held in
 * memory only: a reload before the connection returns loses them (the device queue does not carry
 * comments yet).
 */
export const pendingComments = createStore<{ byUuid: Record<string, PendingComment> }>(() => ({
  byUuid: {},
}));

const setPending = (entry: PendingComment | null, uuid: string) =>
  pendingComments.setState((s) => {
    const byUuid = { ...s.byUuid };
    if (entry) byUuid[uuid] = entry;
    else delete byUuid[uuid];
    return { byUuid };
  });

export function usePendingComments(itemId: number): PendingComment[] {
  const byUuid = useStore(pendingComments, (s) => s.byUuid);
  return Object.values(byUuid).filter((p) => p.itemId === itemId);
}

const isNetworkFailure = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  ((error as { code?: unknown }).code === 'NETWORK_ERROR' || (error as { status?: unknown }).status === 0);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

/**
 * A body as typed (`@Sam`) with each picked person written as their id (`@[12]`): a mention is stored
 * by id, so a rename or a second Sam never confuses it. Longer names first, so '@Sam Lee' wins over '@Sam'.
 */
export function encodeMentions(text: string, picked: readonly { id: number; name: string }[]) {
  let body = text;
  const used: { id: number; name: string }[] = [];
  for (const person of [...picked].sort((a, b) => b.name.length - a.name.length)) {
    // '@Sam' in '@Samuel' is no mention of Sam: the name must end where a word does.
    const typed = new RegExp(
      `@${person.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
      'gu',
    );
    if (!typed.test(body)) continue;
    body = body.replace(typed, mentionToken(person.id));
    if (!used.some((u) => u.id === person.id)) used.push(person);
  }
  return { body, mentions: used };
}

/** Sends comments (new and pending ones), edits, deletes, restores and mutes, refreshing the timeline. */
export function useCommentActions(itemId: number) {
  const { send } = useDoor();
  const toast = useToast();
  const queries = useQueryClient();
  const refresh = useCallback(() => {
    void queries.invalidateQueries({ queryKey: commentsKey(itemId) });
    void queries.invalidateQueries({ queryKey: historyKey(itemId) });
  }, [queries, itemId]);

  const deliver = useCallback(
    async (entry: PendingComment) => {
      setPending({ ...entry, state: 'sending' }, entry.uuid);
      try {
        await send('comments.create', {
          itemId: entry.itemId,
          body: entry.body,
          uuid: entry.uuid,
          mentions: entry.mentions.map((m) => m.id),
        });
        await queries.invalidateQueries({ queryKey: commentsKey(entry.itemId) });
        setPending(null, entry.uuid);
      } catch (error) {
        if (isNetworkFailure(error)) {
          setPending({ ...entry, state: 'pending' }, entry.uuid);
          return;
        }
        setPending(null, entry.uuid);
        toast({ title: 'Comment not sent', description: messageOf(error), variant: 'destructive' });
      }
    },
    [send, queries, toast],
  );

  return useMemo(
    () => ({
      /** Shows the comment at once and sends it; resolves when it is shown, not when it is stored. */
      create(body: string, mentions: { id: number; name: string }[]) {
        const entry: PendingComment = {
          uuid: crypto.randomUUID(),
          itemId,
          body,
          mentions,
          state: 'sending',
          created_at: new Date().toISOString(),
        };
        setPending(entry, entry.uuid);
        void deliver(entry);
      },
      /** Sends again every comment of this item that is waiting for the connection. */
      retryPending() {
        for (const entry of Object.values(pendingComments.getState().byUuid))
          if (entry.itemId === itemId && entry.state === 'pending') void deliver(entry);
      },
      async edit(comment: Comment, body: string): Promise<boolean> {
        try {
          await send('comments.edit', { id: comment.id, body });
          refresh();
          return true;
        } catch (error) {
          toast({ title: 'Comment not saved', description: messageOf(error), variant: 'destructive' });
          return false;
        }
      },
      async remove(comment: Comment) {
        try {
          await send('comments.delete', comment.id);
          refresh();
          toast({ title: 'Comment deleted' });
        } catch (error) {
          toast({ title: 'Comment not deleted', description: messageOf(error), variant: 'destructive' });
        }
      },
      /**
       * Restores one history entry. Changes the device can judge (the reader's copy of the item holds
       * every field but the assignee's and parent's names) are planned here by the shared rule (K3) and
       * written as one local edit: at once, offline too, undoable, synced through the queue. An entry
       * naming people or parents goes to the server's revert, which knows their ids.
       */
      async restore(entry: HistoryEntry, local: RevertTarget, what: string) {
        const say = (skipped: readonly string[]) =>
          skipped.length > 0
            ? { description: `Left as it is, changed since: ${skipped.join(', ').replaceAll('_', ' ')}.` }
            : {};
        try {
          if (!('assignee' in entry.changes) && !('parent' in entry.changes)) {
            const recorded = Object.fromEntries(
              Object.entries(entry.changes).map(([field, c]) => [field, { old: c.from, new: c.to }]),
            );
            const { patch, skipped } = planRevert(recorded, local);
            if (Object.keys(patch).length === 0) {
              toast({ title: 'Nothing to restore', ...say(skipped) });
              return;
            }
            await send('items.update', { id: itemId, patch: patch as ItemPatchInput });
            toast({ title: `Restored (${what})`, ...say(skipped) });
            return;
          }
          const result = await send('comments.revert', { itemId, entryId: entry.id });
          // The item changed on the server: the device pulls it, and every server list refreshes.
          void send('sync.now', { quiet: true }).catch(() => undefined);
          void queries.invalidateQueries({ queryKey: [SERVER_LIST_KEY] });
          toast({ title: `Restored (${what})`, ...say(result.skipped) });
        } catch (error) {
          toast({ title: 'Not restored', description: messageOf(error), variant: 'destructive' });
        }
      },
      async setMuted(muted: boolean) {
        try {
          await send('comments.setMuted', { itemId, muted });
          void queries.invalidateQueries({ queryKey: [SERVER_LIST_KEY, 'mute', itemId] });
        } catch (error) {
          toast({ title: 'Not changed', description: messageOf(error), variant: 'destructive' });
        }
      },
    }),
    [itemId, send, toast, queries, refresh, deliver],
  );
}
