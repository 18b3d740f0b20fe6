import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Comment, escapeTypedTokens, mentionedInBody, mentionToken } from '../../shared/comments';
import { type HistoryEntry, planRevert, type RevertibleField } from '../../shared/history';
import type { ItemPatchInput } from '../../shared/schemas';
import { useDoor, useToast } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import type { DeviceHistoryEntry } from '../data/store/historyStore';
import { isUnsent, peopleKey, useDeviceComments } from './queries';

type Person = { id: number; name: string };

/** The reader's copy of the item, as far as a restore reads it. */
export type RevertTarget = Partial<Record<RevertibleField, unknown>>;

/** A comment written on this device that the server has not stored yet ('Pending sync'). */
export interface PendingComment {
  uuid: string;
  itemId: number;
  body: string;
  mentions: { id: number; name: string }[];
  /** `sending` is no longer used: a comment waits in the device's queue, 'Pending sync', until pushed. */
  state: 'sending' | 'pending';
  created_at: string;
}

/**
 * The item's comments still on their way (K8): stored on the device with their queued create, shown
 * at once and across reloads, until the push answers and the server's copy (its id) replaces them.
 */
export function usePendingComments(itemId: number): PendingComment[] {
  const stored = useDeviceComments(itemId);
  return useMemo(
    () =>
      (stored ?? []).filter(isUnsent).map((c) => ({
        uuid: c.uuid,
        itemId,
        body: c.body,
        mentions: c.mentions,
        state: 'pending' as const,
        created_at: c.created_at,
      })),
    [stored, itemId],
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

/** The people a body mentions, by the names known for them (the server names any other on its answer). */
function mentionsIn(body: string, known: readonly { id: number; name: string }[]) {
  const names = new Map(known.map((p) => [p.id, p.name]));
  return mentionedInBody(body).flatMap((id) => {
    const name = names.get(id);
    return name === undefined ? [] : [{ id, name }];
  });
}

/**
 * A body as typed (`@Sam`) with each picked person written as their id (`@[12]`): a mention is stored
 * by id, so a rename or a second Sam never confuses it. Longer names first, so '@Sam Lee' wins over '@Sam'.
 */
export function encodeMentions(text: string, picked: readonly { id: number; name: string }[]) {
  // Only a pick mentions someone: `@[12]` typed by hand stays the characters typed (no mention of 12).
  let body = escapeTypedTokens(text);
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

/** Writes comments on the device (K8), restores history entries and mutes. */
export function useCommentActions(itemId: number) {
  const { send } = useDoor();
  const toast = useToast();
  const queries = useQueryClient();

  return useMemo(
    () => ({
      /**
       * Stores the comment on the device, where the timeline shows it at once; the queue sends it.
       * Resolves false when it could not be stored, so the composer gives the text back.
       */
      create(body: string, mentions: { id: number; name: string }[]): Promise<boolean> {
        return send('comments.add', { itemId, body, mentions }).then(
          () => true,
          (error: unknown) => {
            toast({ title: 'Comment not saved', description: messageOf(error), variant: 'destructive' });
            return false;
          },
        );
      },
      /**
       * Saves an edit on the device. A person picked in the edit box is named from the picker's list
       * (or `picked`), so the device shows their name at once, not '@unknown' until the server answers.
       */
      async edit(comment: Comment, body: string, picked: readonly Person[] = []): Promise<boolean> {
        const people = queries.getQueryData<Person[]>(peopleKey(itemId)) ?? [];
        try {
          await send('comments.update', {
            id: comment.id,
            body,
            mentions: mentionsIn(body, [...picked, ...comment.mentions, ...people]),
          });
          return true;
        } catch (error) {
          toast({ title: 'Comment not saved', description: messageOf(error), variant: 'destructive' });
          return false;
        }
      },
      /** Takes back a refused comment (it goes) or a refused edit (the server's text comes back), K20. */
      async discardRefused(comment: Comment, done: string) {
        try {
          await send('comments.discardRefused', comment.id);
          toast({ title: done });
        } catch (error) {
          toast({ title: 'Not changed', description: messageOf(error), variant: 'destructive' });
        }
      },
      async remove(comment: Comment) {
        try {
          await send('comments.remove', comment.id);
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
          // A guest's entry (K19) holds the ids beside the names: the device plans every restore.
          const device = 'metadata' in entry ? (entry as DeviceHistoryEntry).metadata : null;
          if (device || (!('assignee' in entry.changes) && !('parent' in entry.changes))) {
            const recorded =
              device ??
              Object.fromEntries(
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
    [itemId, send, toast, queries],
  );
}
