/**
 * The device's own file store (ARCHITECTURE §6 'Files offline', SYNC.md A1): the bytes of a file
 * picked on the device, kept as a Blob until the server has them, never inside a queue row or an
 * item. Keyed by the file's uuid (its attachments row names the same uuid); a row goes once its
 * upload is answered, with the file, or with a kept upload the user dismisses.
 */

export const FILE_BLOBS_STORE = 'fileBlobs';
/** By uuid; by owner (a sign-in as another account keeps the guest's and the account's own, W10). */
export const FILE_BLOBS_SCHEMA = 'uuid, owner';

/** One file's bytes on the device. */
export interface FileBlob {
  uuid: string;
  /** The item it was picked for, as the device named it then (its attachments row follows id swaps). */
  item_id: number;
  /** That item's uuid, which no id swap changes. */
  item_uuid: string | null;
  /** Whose it is: the signed-in user's id, 0 for the guest's. */
  owner: number;
  blob: Blob;
  name: string;
  type: string;
  size: number;
  createdAt: string;
  /** 1 once it is kept with the changes that could not be applied (A6): it goes when they are dismissed. */
  kept?: 0 | 1;
}
