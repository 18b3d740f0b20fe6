/**
 * Files on items (ARCHITECTURE §4 'Files on items', §6 'Files offline'): the third child of an item.
 * Framework-free rules both sides read: the API's shape, which types open inline, how a card names a
 * file, and the limits.
 */

/** An attachment as the API answers it (ARCHITECTURE §4). */
export interface Attachment {
  id: number;
  uuid: string;
  item_id: number;
  name: string;
  /** The type sniffed from the bytes on the server, never the client's word. */
  type: string;
  size: number;
  sha256: string;
  width?: number;
  height?: number;
  user: { id: number; name: string };
  created_at: string;
  /** Where the bytes are read: `/api/attachments/{id}/content`. */
  url: string;
  /** Where a 400 px thumbnail is read, for an image the server could read. */
  thumbnail_url?: string;
}

/** A deleted attachment as a sync page carries it: never its name or bytes (K13). */
export interface AttachmentTombstone {
  id: number;
  uuid: string;
  item_id: number;
  deleted_at: string;
}

/** A live attachment on a sync page: the API's row with its item's uuid. */
export interface SyncedAttachment extends Attachment {
  item_uuid: string | null;
}

/** One entry of a sync page's `attachments`. */
export type SyncAttachmentChange = SyncedAttachment | AttachmentTombstone;

/** The default of `ATTACHMENT_MAX_BYTES`: 25 MB. */
export const ATTACHMENT_DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
/** A thumbnail's longest side. */
export const THUMBNAIL_MAX_PX = 400;
/** Attachments a page of `GET /api/items/{id}/attachments` holds. */
export const ATTACHMENTS_PER_PAGE = 50;
/** A file's name is kept to this many characters (the extension survives the cut). */
export const ATTACHMENT_NAME_MAX = 255;

/** The 413's message: names the limit, in the words a person reads. */
export function tooLargeMessage(maxBytes: number): string {
  return `The file is larger than the limit of ${formatBytes(maxBytes)}.`;
}

/** Types a browser may show in place (images, PDFs, plain text); every other type downloads. */
export function opensInline(type: string): boolean {
  const base = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (base === 'image/svg+xml') return false; // An SVG is a document that can run script.
  return base.startsWith('image/') || base === 'application/pdf' || base === 'text/plain';
}

/** True for a type the server makes a thumbnail of (and the lightbox shows). */
export function isImageType(type: string): boolean {
  return /^image\/(png|jpeg|gif|webp|avif|tiff|heic|heif)$/i.test(type.split(';')[0]?.trim() ?? '');
}

/** '2.4 MB', '830 KB', '12 bytes': a size as a card shows it (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 10 ? Math.round(value).toString() : (Math.round(value * 10) / 10).toString();
  return `${shown} ${units[unit]}`;
}

/** A file's extension in capitals ('PDF'), or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  const ext = name.slice(dot + 1);
  return ext.length <= 5 ? ext.toUpperCase() : '';
}

/**
 * A name cut in the middle to `max` characters, the extension kept: 'Quarterly-re…port.pdf'. A name
 * that fits is unchanged.
 */
export function middleCut(name: string, max = 24): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const tailLength =
    dot > 0 ? Math.min([...name.slice(dot)].length + 4, Math.floor(max / 2)) : Math.floor(max / 3);
  const headLength = Math.max(1, max - 1 - tailLength);
  return `${chars.slice(0, headLength).join('')}…${chars.slice(chars.length - tailLength).join('')}`;
}

/**
 * A file name a client sent, made safe to store and to put in a header: no path, no control
 * characters, at most ATTACHMENT_NAME_MAX characters with the extension kept; 'file' when nothing is left.
 */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f\u2028\u2029"]/g, '').trim();
  if (clean === '' || clean === '.' || clean === '..') return 'file';
  const chars = [...clean];
  if (chars.length <= ATTACHMENT_NAME_MAX) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 ? [...clean.slice(dot)].slice(0, 16).join('') : '';
  return chars.slice(0, ATTACHMENT_NAME_MAX - [...ext].length).join('') + ext;
}
