import type { Attachment } from '../../shared/attachments';
import type { Item } from '../../shared/item';
import { VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import type { UserRow } from '../auth/users';
import type { Executor } from '../db/client';
import { viewersOfItem } from '../events/changeBus';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { childServer } from '../http/itemChildren';
import { iso } from '../http/serialize';
import { findVisibleItem } from '../items/queries';
import { noteWebhookEvent } from '../webhooks/events';
import {
  type AttachmentRow,
  attachmentById,
  attachmentByUuid,
  attachmentsByIds,
  holdFilesShared,
  insertAttachment,
  itemAttachmentsPage,
  type NewAttachment,
  rootCreatorOf,
  softDeleteAttachment,
} from './store';

/** The API's attachment from a row (ARCHITECTURE §4 'Files on items'): width and height only when known. */
export function attachmentJson(r: AttachmentRow): Attachment {
  return {
    id: r.id,
    uuid: r.uuid,
    item_id: r.item_id,
    name: r.name,
    type: r.type,
    size: Number(r.size),
    sha256: r.sha256,
    ...(r.width !== null ? { width: r.width } : {}),
    ...(r.height !== null ? { height: r.height } : {}),
    user: { id: r.user_id, name: r.user_name },
    created_at: iso(r.created_at),
    url: `/api/attachments/${r.id}/content`,
    ...(r.has_thumbnail ? { thumbnail_url: `/api/attachments/${r.id}/thumbnail` } : {}),
  };
}

/** An attachment's data in a webhook event (`{ attachment }`), or null when it is gone; app.ts registers it. */
export async function attachmentWebhookData(
  tx: Executor,
  id: number,
): Promise<{ attachment: Attachment } | null> {
  const row = await attachmentById(tx, id);
  return row ? { attachment: attachmentJson(row) } : null;
}

/**
 * Attachments as a child of an item (src/shared/itemChildren.ts): their sync rows (metadata, never
 * bytes, SYNC.md A10) and webhook data; app.ts registers it.
 */
export const attachmentChild = childServer<'attachments', AttachmentRow>({
  syncRows: attachmentsByIds,
  syncJson: (r) => ({ ...attachmentJson(r), item_uuid: r.item_uuid }),
  webhookData: attachmentWebhookData,
});

/** Who hears that the item's files changed: everyone who sees the item (the change bus, E4). */
const itemViewers = (tx: Executor, itemId: number) => viewersOfItem(tx, itemId);

/** The live item the actor may attach to: 404 when unseen (as for no item), 403 for a viewer (A8). */
export async function attachableItem(db: Executor, actor: UserRow, itemId: number): Promise<Item> {
  const item = await findVisibleItem(db, actor.id, itemId);
  if (!item) throw notFound();
  if (item.my_role === 'viewer') throw new HttpError(403, VIEWER_READ_ONLY_MESSAGE);
  return item;
}

const UUID_TAKEN = 'This uuid already names another file.';

/**
 * The answer to an upload whose uuid names one of the actor's files already (A4): that file (200),
 * when it is on this item; null when the uuid is new. Read before the bytes are stored, so a retry
 * stores nothing.
 */
export async function knownUpload(
  db: Executor,
  actor: UserRow,
  itemId: number,
  uuid: string,
): Promise<WriteResult | null> {
  const existing = await attachmentByUuid(db, actor.id, uuid);
  if (!existing) return null;
  if (existing.item_id !== itemId) throw unprocessable({ uuid: [UUID_TAKEN] });
  return { status: 200, body: attachmentJson(existing) };
}

/**
 * Records an uploaded file on an item (A4, A7, A8): the item checked again inside the transaction,
 * a known uuid answered with its file, the row, `attachment.created`, and everyone who sees the item
 * told. `ensureStored` runs under the files lock (shared) before the row is written: it puts the
 * bytes back when a purge removed them between their store and this transaction (purge.ts), so a
 * committed row always names stored bytes.
 */
export async function createAttachment(
  tx: Executor,
  actor: UserRow,
  file: Omit<NewAttachment, 'userId'>,
  ensureStored: () => Promise<void>,
): Promise<WriteResult> {
  await attachableItem(tx, actor, file.itemId);
  await holdFilesShared(tx);
  await ensureStored();
  // A uuid known already is answered by the insert's conflict, not by a read before it: the bytes
  // of a retry are stored (once, by their key) only in the rare race the route's early check missed.
  const created = await insertAttachment(tx, { ...file, userId: actor.id });
  if (!created) {
    const known = await knownUpload(tx, actor, file.itemId, file.uuid);
    if (known) return known;
    throw unprocessable({ uuid: [UUID_TAKEN] });
  }
  const id = created.id;
  noteWebhookEvent(tx, {
    kind: 'child',
    child: 'attachments',
    type: 'attachment.created',
    actor,
    itemId: file.itemId,
    childId: id,
  });
  return {
    status: 201,
    body: attachmentJson(created),
    formerViewers: await itemViewers(tx, file.itemId),
  };
}

/** An attachment named by its id, or by the uuid of one of the caller's own (what a device's queue knows). */
export type AttachmentRef = number | { uuid: string };

/**
 * The live attachment `ref` names, on a live item the reader sees (A8), with that item; anything else
 * (no such file, a deleted one, an item in the trash or out of sight) is the same 404.
 */
export async function visibleAttachment(
  db: Executor,
  reader: UserRow,
  ref: AttachmentRef,
): Promise<{ attachment: AttachmentRow; item: Item }> {
  const attachment =
    typeof ref === 'number' ? await attachmentById(db, ref) : await attachmentByUuid(db, reader.id, ref.uuid);
  if (!attachment || attachment.deleted_at !== null) throw notFound('File');
  const item = await findVisibleItem(db, reader.id, attachment.item_id);
  if (!item) throw notFound('File');
  return { attachment, item };
}

/**
 * Deletes a file (its uploader, or whoever may delete its item: the item's creator or its top-level
 * item's, §5); a tombstone stays for sync (A10) and the bytes stay until the purge (A11).
 */
export async function deleteAttachment(
  tx: Executor,
  actor: UserRow,
  ref: AttachmentRef,
): Promise<WriteResult> {
  const { attachment, item } = await visibleAttachment(tx, actor, ref);
  const mayDelete =
    attachment.user_id === actor.id ||
    item.user_id === actor.id ||
    (await rootCreatorOf(tx, item.id)) === actor.id;
  if (!mayDelete)
    throw new HttpError(403, 'Only whoever added a file, or may delete its item, can delete the file.');
  // Of two racing deletes the second waits for the first's row lock, then finds nothing to delete.
  if (await softDeleteAttachment(tx, attachment.id)) {
    noteWebhookEvent(tx, {
      kind: 'child',
      child: 'attachments',
      type: 'attachment.deleted',
      actor,
      itemId: item.id,
      childId: attachment.id,
    });
  }
  return { status: 204, body: null, formerViewers: await itemViewers(tx, item.id) };
}

/** An item's live files, newest first, one page; the caller has checked that the reader sees the item. */
export async function listItemAttachments(
  db: Executor,
  itemId: number,
  page: number,
  perPage: number,
): Promise<{ data: Attachment[]; total: number }> {
  const found = await itemAttachmentsPage(db, itemId, page, perPage);
  return { data: found.rows.map(attachmentJson), total: found.total };
}
