/**
 * Comments, mutes and history of one item (ARCHITECTURE §4 'Comments', 'History'): server data for a
 * signed-in user online, read through TanStack Query (src/client/comments) and refreshed by the
 * door's change signal, so a comment from another device or person shows after its `changed` event.
 * Bodies are checked by the shared schemas before they go.
 */
import {
  type Comment,
  type CommentCreateInput,
  commentCreateSchema,
  commentPatchSchema,
} from '../../../shared/comments';
import type { HistoryEntry } from '../../../shared/history';
import type { Item, Paginated } from '../../../shared/item';
import { defineCommands } from './map';

type Signal = { signal?: AbortSignal };
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const itemPath = (itemId: number) => `/items/${encodeURIComponent(String(itemId))}`;

export const commands = defineCommands({
  /** One page of an item's comments, oldest first. */
  'comments.list': async (c, a: { itemId: number; page: number } & Signal) =>
    (
      await c.api.get<Paginated<Comment>>(
        `${itemPath(a.itemId)}/comments?page=${a.page}`,
        withSignal(a.signal),
      )
    ).data,
  /** Posts a comment; its uuid makes a retry store it once. */
  'comments.create': async (c, a: { itemId: number } & CommentCreateInput) => {
    const { itemId, ...body } = a;
    return (await c.api.post<Comment>(`${itemPath(itemId)}/comments`, commentCreateSchema.parse(body))).data;
  },
  'comments.edit': async (c, a: { id: number; body: string }) =>
    (await c.api.patch<Comment>(`/comments/${a.id}`, commentPatchSchema.parse({ body: a.body }))).data,
  'comments.delete': async (c, id: number) => {
    await c.api.delete(`/comments/${id}`);
  },
  /** Who sees the item: the people a comment may mention. */
  'comments.people': async (c, a: { itemId: number } & Signal) =>
    (
      await c.api.get<{ people: { id: number; name: string }[] }>(
        `${itemPath(a.itemId)}/people`,
        withSignal(a.signal),
      )
    ).data.people,
  /** One page of the item's history, newest first. */
  'comments.history': async (c, a: { itemId: number; page: number } & Signal) =>
    (
      await c.api.get<Paginated<HistoryEntry>>(
        `${itemPath(a.itemId)}/history?page=${a.page}`,
        withSignal(a.signal),
      )
    ).data,
  /** Reverts one history entry; answers the item and the fields left alone because they changed since. */
  'comments.revert': async (c, a: { itemId: number; entryId: number }) =>
    (await c.api.post<Item & { skipped: string[] }>(`${itemPath(a.itemId)}/history/${a.entryId}/revert`, {}))
      .data,
  'comments.muted': async (c, a: { itemId: number } & Signal) =>
    (await c.api.get<{ muted: boolean }>(`${itemPath(a.itemId)}/mute`, withSignal(a.signal))).data.muted,
  'comments.setMuted': async (c, a: { itemId: number; muted: boolean }) =>
    (a.muted
      ? await c.api.post<{ muted: boolean }>(`${itemPath(a.itemId)}/mute`, {})
      : await c.api.delete<{ muted: boolean }>(`${itemPath(a.itemId)}/mute`)
    ).data.muted,
});
