import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isImageType } from '../../shared/attachments';
import { preloadCommands } from '../app/door';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { AttachButton } from './AttachButton';
import { AttachmentCard } from './AttachmentCard';
import { Lightbox } from './Lightbox';
import { useAttachmentActions } from './mutations';
import { PageDropZone } from './PageDropZone';
import { type LocalAttachment, onDeviceOnly, useAttachments } from './queries';
import { useImagePaste } from './useImagePaste';

/**
 * Picture addresses of the images not uploaded yet, made from the device's copies (A1) and let go when
 * a file leaves the list or is uploaded (its thumbnail is the server's from then on).
 */
function useDeviceImageUrls(
  files: readonly LocalAttachment[],
  blob: (uuid: string) => Promise<Blob | null>,
): ReadonlyMap<string, string> {
  const [urls, setUrls] = useState<ReadonlyMap<string, string>>(() => new Map());
  const made = useRef(new Map<string, string>());
  const wanted = files.filter((f) => onDeviceOnly(f) && isImageType(f.type));
  const key = wanted.map((f) => f.uuid).join(' ');

  useEffect(() => {
    let live = true;
    const keep = new Set(key === '' ? [] : key.split(' '));
    let changed = false;
    for (const [uuid, url] of made.current) {
      if (keep.has(uuid)) continue;
      URL.revokeObjectURL(url);
      made.current.delete(uuid);
      changed = true;
    }
    if (changed) setUrls(new Map(made.current));
    for (const uuid of keep) {
      if (made.current.has(uuid)) continue;
      void blob(uuid).then((bytes) => {
        if (!live || !bytes || made.current.has(uuid)) return;
        made.current.set(uuid, URL.createObjectURL(bytes));
        setUrls(new Map(made.current));
      });
    }
    return () => {
      live = false;
    };
    // The uuids are the dependency: a progress write to a row must not read its Blob again.
  }, [key, blob]);

  useEffect(
    () => () => {
      for (const url of made.current.values()) URL.revokeObjectURL(url);
      made.current.clear();
    },
    [],
  );
  return urls;
}

const NONE: LocalAttachment[] = [];

export interface AttachmentStripProps {
  itemId: number;
  /** The item's title, named where a drop goes. */
  itemTitle: string;
  /** A viewer's page (§5 'Roles'): files are shown and download, nothing is attached or removed. */
  readOnly?: boolean;
}

/**
 * An item's files under its description (DESIGN.md release 5, ARCHITECTURE §6 'Files offline'): a
 * strip of cards, 'Attach' (and the camera on phones), a drop anywhere on the page and a pasted image;
 * images open in the lightbox, other files download. All from the device: offline and for a guest.
 */
export default function AttachmentStrip({ itemId, itemTitle, readOnly = false }: AttachmentStripProps) {
  const stored = useAttachments(itemId);
  const files = stored ?? NONE;
  const actions = useAttachmentActions(itemId);
  const deviceUrls = useDeviceImageUrls(files, actions.blob);
  const [shown, setShown] = useState<number | null>(null);
  // The file asked about stays named while the question closes; `asking` opens and closes it.
  const [removing, setRemoving] = useState<LocalAttachment | null>(null);
  const [asking, setAsking] = useState(false);
  const askRemove = (file: LocalAttachment) => {
    setRemoving(file);
    setAsking(true);
  };
  const editable = !readOnly;

  // A file picked offline soon after must not wait for a download of the commands (A1).
  useEffect(() => {
    if (editable) preloadCommands('attachments');
  }, [editable]);

  const attach = useCallback((picked: File[]) => void actions.attach(picked), [actions]);
  useImagePaste(editable, attach);

  const images = useMemo(() => files.filter((f) => isImageType(f.type)), [files]);
  // The last image gone while it was shown (another device removed it): closed, so a later one does not
  // open the lightbox by itself.
  useEffect(() => {
    if (images.length === 0) setShown(null);
  }, [images.length]);
  const thumbnailOf = (file: LocalAttachment) =>
    deviceUrls.get(file.uuid) ?? (onDeviceOnly(file) ? null : (file.thumbnail_url ?? file.url));
  const fullOf = (file: LocalAttachment) =>
    deviceUrls.get(file.uuid) ?? (onDeviceOnly(file) ? null : file.url);
  const open = (file: LocalAttachment) => {
    const index = images.findIndex((f) => f.uuid === file.uuid);
    if (index >= 0) setShown(index);
  };
  const save = (file: LocalAttachment) => void actions.saveFromDevice(file);

  if (stored === undefined || (files.length === 0 && readOnly)) {
    return editable ? <PageDropZone target={itemTitle} onFiles={attach} /> : null;
  }

  return (
    <section aria-label="Files" className="flex min-w-0 flex-col gap-2" data-attachments>
      {files.length > 0 ? (
        <ul
          aria-label={`Files of ${itemTitle}`}
          // Phones scroll the strip sideways; wider screens lay it out in columns.
          className="-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-3"
        >
          {files.map((file) => (
            <AttachmentCard
              key={file.uuid}
              file={file}
              thumbnail={thumbnailOf(file)}
              canRemove={editable}
              onOpen={open}
              onSaveFromDevice={save}
              onRemove={askRemove}
              onRetry={(f) => void actions.retry(f)}
            />
          ))}
        </ul>
      ) : null}
      {editable ? (
        <>
          <AttachButton onFiles={attach} />
          <PageDropZone target={itemTitle} onFiles={attach} />
        </>
      ) : null}
      <Lightbox
        images={images}
        index={shown}
        onIndexChange={setShown}
        srcOf={fullOf}
        onSaveFromDevice={save}
      />
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Remove this file?"
        description={
          removing && onDeviceOnly(removing)
            ? `“${removing.name}” has not been uploaded; it is removed from this device.`
            : `“${removing?.name ?? ''}” is removed from this item for everyone who sees it.`
        }
        confirmLabel="Remove"
        tone="danger"
        onConfirm={() => {
          if (removing) void actions.remove(removing);
        }}
      />
    </section>
  );
}
