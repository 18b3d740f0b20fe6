/**
 * Comments, mutes and history of one item (ARCHITECTURE §4 'Comments', 'History'). Comments are device
 * data (SYNC.md K8): `comments.add`, `comments.update` and `comments.remove` write the device at once
 * and queue the request (src/client/data/comments/localComments.ts), and the timeline reads them
 * live from the device; pulls bring other people's. History, people and mutes are server data for a
 * signed-in user online, read through TanStack Query and refreshed by the door's change signal.
 * Bodies are checked by the shared schemas before they are stored.
 */
import { commentCreateSchema, commentPatchSchema } from '../../../shared/comments';
import type { HistoryEntry } from '../../../shared/history';
import type { Item, Paginated } from '../../../shared/item';
import { createComment, deleteComment, discardRefused, editComment } from '../comments/localComments';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import type { LazyEngine } from '../sync/lazyEngine';
import { defineCommands } from './map';

/** Comments are written on the device and pushed; history, people and mutes are the server's. */
export interface CommentsContext {
  api: ApiClient;
  db: OutpostDb;
  /** The viewer of now, with the name a comment shows before the server answers. */
  viewer: () => Viewer & { user: { id: number; name: string } };
  /** Resolves once the remembered account is restored, so an early comment is never the guest's. */
  restored: () => Promise<void>;
  /** Starts the push of one queue row. */
  pushNow: LazyEngine['pushNow'];
  /** Asks the browser to keep the device's data (there is something to keep now). */
  keepStorage: () => void;
}

type Person = { id: number; name: string };

/** Starts the push of a write's queue row; a refusal is toasted by the push itself (Q3). */
function pushSoon(c: CommentsContext, entry: { id: string } | null): void {
  if (entry) void c.pushNow(entry.id).catch(() => undefined);
}

type Signal = { signal?: AbortSignal };
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const itemPath = (itemId: number) => `/items/${encodeURIComponent(String(itemId))}`;

export const commands = defineCommands<CommentsContext>()({
  /**
   * Writes a comment on the device (shown at once, 'Pending sync' until pushed) and queues it with
   * its uuid, so the server stores it once however often it goes (K4, K8). A guest's stays on the
   * device until they sign in (K16). Resolves once stored on the device, not on the server.
   */
  'comments.add': async (c, a: { itemId: number; body: string; mentions: Person[]; uuid?: string }) => {
    await c.restored();
    const checked = commentCreateSchema.parse({ body: a.body, mentions: a.mentions.map((m) => m.id) });
    const { comment, entry } = await createComment(c.db, c.viewer(), {
      itemId: a.itemId,
      body: checked.body,
      mentions: a.mentions,
      ...(a.uuid ? { uuid: a.uuid } : {}),
    });
    c.keepStorage();
    pushSoon(c, entry);
    return comment;
  },
  /** Edits a comment's body on the device and queues it (or changes its queued create). */
  'comments.update': async (c, a: { id: number; body: string; mentions: Person[] }) => {
    const { body } = commentPatchSchema.parse({ body: a.body });
    pushSoon(c, await editComment(c.db, a.id, body, a.mentions));
  },
  /** Deletes a comment on the device and queues it (or drops its queued create). */
  'comments.remove': async (c, id: number) => {
    pushSoon(c, await deleteComment(c.db, id));
  },
  /**
   * Takes back a comment or edit the server refused (K20): the comment goes from the device, or the
   * edit gives way to the server's text. Nothing is sent.
   */
  'comments.discardRefused': async (c, id: number) => discardRefused(c.db, id),
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
