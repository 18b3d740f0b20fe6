import { ChevronLeft, ChevronRight, Download, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type KeyboardEvent, useRef, useState } from 'react';
import { formatBytes } from '../../shared/attachments';
import { cn } from '../components/ui/cn';
import { type LocalAttachment, onDeviceOnly } from './queries';

export interface LightboxProps {
  /** The item's images, in the strip's order. */
  images: readonly LocalAttachment[];
  /** The one on show; null when closed. */
  index: number | null;
  onIndexChange: (index: number | null) => void;
  /** Where an image's full picture is read (the server's, or the device's copy of one not uploaded yet). */
  srcOf: (file: LocalAttachment) => string | null;
  /** A file not uploaded yet downloads from the device. */
  onSaveFromDevice: (file: LocalAttachment) => void;
}

// Always on the dark backdrop, light or dark theme: the ring is the dark theme's.
const control =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-full text-zinc-100 outline-none hover:bg-white/10 focus-visible:ring-2 focus-visible:ring-indigo-400 [&_svg]:size-5';

/**
 * An item's images one at a time over the page (DESIGN.md release 5): ← and → step through them, Esc
 * closes, focus stays inside while open and returns to the card after. The name, its place among
 * the images, its size and who added it are the caption; Download saves the file.
 */
export function Lightbox({ images, index, onIndexChange, srcOf, onSaveFromDevice }: LightboxProps) {
  const open = index !== null && images.length > 0;
  const at = open ? Math.min(index, images.length - 1) : 0;
  const file = open ? images[at] : undefined;
  const many = images.length > 1;
  const step = (by: number) => {
    if (!many) return;
    onIndexChange((at + by + images.length) % images.length);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') {
      event.preventDefault();
      step(-1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      step(1);
    }
  };
  const src = file ? srcOf(file) : null;
  // A picture that would not load (offline, and not in the browser's cache) says so, not a broken icon.
  const [broken, setBroken] = useState<string | null>(null);
  // Opened from a card, not a Dialog.Trigger: Radix gives the focus back only to a Trigger, so the
  // card's link that had it when the lightbox opened takes it back on close.
  const returnTo = useRef<HTMLElement | null>(null);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={(next) => (next ? undefined : onIndexChange(null))}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-zinc-950/95 data-[state=open]:animate-[fade-in_150ms_ease-out] motion-reduce:animate-none" />
        <DialogPrimitive.Content
          onKeyDown={onKeyDown}
          aria-describedby={undefined}
          onOpenAutoFocus={() => {
            const active = document.activeElement;
            returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
          }}
          onCloseAutoFocus={(event) => {
            const back = returnTo.current;
            returnTo.current = null;
            if (!back?.isConnected) return;
            event.preventDefault();
            back.focus();
          }}
          className="fixed inset-0 z-50 flex flex-col text-zinc-100 outline-none data-[state=open]:animate-[fade-in_150ms_ease-out] motion-reduce:animate-none"
        >
          {file ? (
            <>
              <div className="flex items-center gap-2 px-3 py-2 sm:px-4">
                <div className="min-w-0 flex-1">
                  <DialogPrimitive.Title className="truncate text-sm font-medium" title={file.name}>
                    {file.name}
                  </DialogPrimitive.Title>
                  <p className="truncate text-xs text-zinc-400">
                    {many ? `${at + 1} of ${images.length} · ` : ''}
                    {formatBytes(file.size)}
                    {file.user?.name ? ` · ${file.user.name}` : ''}
                  </p>
                </div>
                {onDeviceOnly(file) ? (
                  <button
                    type="button"
                    className={control}
                    aria-label={`Download ${file.name}`}
                    title="Download"
                    onClick={() => onSaveFromDevice(file)}
                  >
                    <Download aria-hidden />
                  </button>
                ) : (
                  <a
                    href={file.url}
                    download={file.name}
                    className={control}
                    aria-label={`Download ${file.name}`}
                    title="Download"
                  >
                    <Download aria-hidden />
                  </a>
                )}
                <DialogPrimitive.Close className={control} aria-label="Close" title="Close (Esc)">
                  <X aria-hidden />
                </DialogPrimitive.Close>
              </div>
              <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-4 sm:px-16">
                {src && broken !== src ? (
                  <img
                    key={file.uuid}
                    src={src}
                    alt={file.name}
                    onError={() => setBroken(src)}
                    className="max-h-full max-w-full rounded-sm object-contain shadow-2xl"
                  />
                ) : (
                  <p className="max-w-xs text-center text-sm text-zinc-300">
                    {src
                      ? 'This picture could not be loaded. It shows when you are online again.'
                      : 'This picture is not on this device.'}
                  </p>
                )}
                {many ? (
                  <>
                    <button
                      type="button"
                      className={cn(control, 'absolute top-1/2 left-2 -translate-y-1/2 bg-zinc-900/60')}
                      aria-label="Previous image"
                      title="Previous (←)"
                      onClick={() => step(-1)}
                    >
                      <ChevronLeft aria-hidden />
                    </button>
                    <button
                      type="button"
                      className={cn(control, 'absolute top-1/2 right-2 -translate-y-1/2 bg-zinc-900/60')}
                      aria-label="Next image"
                      title="Next (→)"
                      onClick={() => step(1)}
                    >
                      <ChevronRight aria-hidden />
                    </button>
                  </>
                ) : null}
              </div>
            </>
          ) : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
