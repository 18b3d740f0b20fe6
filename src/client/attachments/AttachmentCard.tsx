import {
  AlertCircle,
  CloudOff,
  File,
  FileArchive,
  FileAudio,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  RotateCw,
  X,
} from 'lucide-react';
import { useState } from 'react';
import { extensionOf, formatBytes, isImageType, middleCut } from '../../shared/attachments';
import { cn, focusRing } from '../components/ui/cn';
import { Progress } from '../components/ui/Progress';
import { type LocalAttachment, onDeviceOnly } from './queries';

/** A file-type icon by the sniffed type, so a card without a thumbnail still says what it holds. */
function iconOf(type: string, name: string) {
  const base = type.split(';')[0]?.trim().toLowerCase() ?? '';
  const ext = extensionOf(name);
  if (base.startsWith('image/')) return FileImage;
  if (base.startsWith('video/')) return FileVideo;
  if (base.startsWith('audio/')) return FileAudio;
  if (/zip|compressed|tar|gzip|7z|rar/.test(base) || ['ZIP', 'GZ', 'TGZ', '7Z', 'RAR'].includes(ext))
    return FileArchive;
  if (/spreadsheet|excel|csv/.test(base) || ['XLS', 'XLSX', 'CSV', 'ODS', 'NUMBERS'].includes(ext))
    return FileSpreadsheet;
  if (base === 'application/pdf' || base.startsWith('text/') || /word|document|rtf/.test(base))
    return FileText;
  return File;
}

/** The 64 px square at a card's left: the image itself, else the type's icon and extension. */
function Thumbnail({ file, src }: { file: LocalAttachment; src: string | null }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (src && broken !== src) {
    return (
      <img
        src={src}
        alt=""
        width={64}
        height={64}
        loading="lazy"
        decoding="async"
        onError={() => setBroken(src)}
        className="size-16 shrink-0 rounded-md bg-zinc-100 object-cover dark:bg-zinc-800"
      />
    );
  }
  const Icon = iconOf(file.type, file.name);
  const ext = extensionOf(file.name);
  return (
    <span
      aria-hidden
      className="flex size-16 shrink-0 flex-col items-center justify-center gap-1 rounded-md bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400"
    >
      <Icon className="size-6" strokeWidth={1.5} />
      {ext ? (
        <span className="text-[10px] font-semibold tracking-wide text-zinc-600 dark:text-zinc-300">
          {ext}
        </span>
      ) : null}
    </span>
  );
}

/** The characters of a name a card's line holds. */
const NAME_CHARS = 22;

/** How far an upload has come, 0 to 100. */
function percentOf(file: LocalAttachment): number {
  const loaded = file._upload?.loaded ?? 0;
  return file.size > 0 ? Math.min(100, Math.round((loaded / file.size) * 100)) : 0;
}

export interface AttachmentCardProps {
  file: LocalAttachment;
  /** Where its picture is read: the thumbnail, or the device's copy of a file not uploaded yet; null for none. */
  thumbnail: string | null;
  /** The reader may remove files (owners and editors, a guest on their device). */
  canRemove: boolean;
  /** An image opens in the lightbox. */
  onOpen: (file: LocalAttachment) => void;
  /** A file not uploaded yet downloads from the device. */
  onSaveFromDevice: (file: LocalAttachment) => void;
  onRemove: (file: LocalAttachment) => void;
  onRetry: (file: LocalAttachment) => void;
}

/**
 * One file of an item (DESIGN.md release 5): a 64 px thumbnail or the type's icon, the name cut in the
 * middle, and its size and who added it; a file still waiting says so with a thin progress bar, a
 * failed one says why with Retry. The name is the card's one link (an image opens in the lightbox,
 * any other file downloads); Remove and Retry sit above it.
 */
export function AttachmentCard({
  file,
  thumbnail,
  canRemove,
  onOpen,
  onSaveFromDevice,
  onRemove,
  onRetry,
}: AttachmentCardProps) {
  const image = isImageType(file.type);
  const local = onDeviceOnly(file);
  const upload = file._upload;
  const failed = upload?.state === 'failed';
  // A guest's file stays on the device until sign-in (A12): nothing is waiting for the network.
  const waiting = local && !failed && file._syncStatus === 'pending';
  const uploading = waiting && upload?.state === 'uploading';
  const percent = percentOf(file);
  const stretched = cn(
    // The whole card is the name's link: its ::after covers the card, and takes the focus ring.
    'block min-w-0 truncate text-left text-sm font-medium text-zinc-900 outline-none after:absolute after:inset-0 after:rounded-lg after:content-[""] hover:underline focus-visible:after:ring-2 focus-visible:after:ring-indigo-500 dark:text-zinc-100 dark:focus-visible:after:ring-indigo-400',
  );
  // Cut to what the card's line holds at 14 px, so the extension always shows.
  const shown = middleCut(file.name, NAME_CHARS);

  return (
    <li
      className={cn(
        'group relative flex w-72 shrink-0 snap-start items-center gap-3 overflow-hidden rounded-lg border bg-white p-2 pr-8 sm:w-auto dark:bg-zinc-900',
        failed ? 'border-red-300 dark:border-red-900' : 'border-zinc-200 dark:border-zinc-800',
      )}
      data-attachment={file.uuid}
    >
      <Thumbnail file={file} src={image ? thumbnail : null} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        {image ? (
          <button
            type="button"
            className={stretched}
            title={file.name}
            aria-label={`Open ${file.name}`}
            onClick={() => onOpen(file)}
          >
            {shown}
          </button>
        ) : local ? (
          <button
            type="button"
            className={stretched}
            title={file.name}
            aria-label={`Download ${file.name}`}
            onClick={() => onSaveFromDevice(file)}
          >
            {shown}
          </button>
        ) : (
          <a
            href={file.url}
            download={file.name}
            className={stretched}
            title={file.name}
            aria-label={`Download ${file.name}`}
          >
            {shown}
          </a>
        )}
        {failed ? (
          <>
            <p className="line-clamp-2 flex items-start gap-1 text-xs text-red-700 dark:text-red-400">
              <AlertCircle className="mt-px size-3 shrink-0" aria-hidden />
              <span>{upload?.error || 'Not uploaded.'}</span>
            </p>
            <button
              type="button"
              onClick={() => onRetry(file)}
              aria-label={`Retry ${file.name}`}
              className={cn(
                'relative z-10 inline-flex w-fit items-center gap-1 rounded-sm text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400',
                focusRing,
              )}
            >
              <RotateCw className="size-3" aria-hidden />
              Retry
            </button>
          </>
        ) : (
          <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">
            {formatBytes(file.size)}
            {file.user?.name ? ` · ${file.user.name}` : ''}
          </p>
        )}
        {waiting ? (
          <p
            className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400"
            title="Saved on this device; it uploads when it can"
          >
            <CloudOff className="size-3 shrink-0" aria-hidden />
            {uploading ? `Uploading · ${percent}%` : 'Waiting to upload'}
          </p>
        ) : null}
      </div>
      {waiting ? (
        // The bar is clipped to a hairline along the card's foot (DESIGN.md: a thin progress bar).
        <div className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden">
          <Progress value={percent} label={`${file.name}: ${percent}% uploaded`} className="rounded-none" />
        </div>
      ) : null}
      {canRemove ? (
        <button
          type="button"
          aria-label={`Remove ${file.name}`}
          title="Remove"
          onClick={() => onRemove(file)}
          className={cn(
            'absolute top-1 right-1 z-10 inline-flex size-7 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
            'md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:focus-visible:opacity-100 md:transition-opacity motion-reduce:transition-none',
            focusRing,
          )}
        >
          <X className="size-4" aria-hidden />
        </button>
      ) : null}
    </li>
  );
}
