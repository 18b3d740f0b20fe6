import { Camera, Paperclip } from 'lucide-react';
import { type ChangeEvent, useRef, useSyncExternalStore } from 'react';
import { Button } from '../components/ui/Button';

/** A phone or tablet: a touch screen is the main pointer, so a camera is likely at hand. */
const TOUCH = '(pointer: coarse)';
const touchQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(TOUCH) : null);
function subscribeTouch(notify: () => void) {
  const query = touchQuery();
  if (!query) return () => {};
  query.addEventListener('change', notify);
  return () => query.removeEventListener('change', notify);
}
function useTouch(): boolean {
  return useSyncExternalStore(
    subscribeTouch,
    () => touchQuery()?.matches ?? false,
    () => false,
  );
}

/**
 * 'Attach' picks any files; on a phone a second button, 'Take photo', opens the camera (`capture`).
 * The camera is never the only way: a phone's Attach still offers its gallery and files.
 */
export function AttachButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const touch = useTouch();
  const files = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    // Cleared, so picking the same file again is a change too.
    event.target.value = '';
    if (chosen.length > 0) onFiles(chosen);
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {/* A finger's target on a touch screen (40 px), a pointer's elsewhere. */}
      <Button variant="outline" size={touch ? 'md' : 'sm'} onClick={() => files.current?.click()}>
        <Paperclip aria-hidden />
        Attach
      </Button>
      <input ref={files} type="file" multiple hidden tabIndex={-1} onChange={picked} data-attach-input />
      {touch ? (
        <>
          <Button variant="outline" size="md" onClick={() => camera.current?.click()}>
            <Camera aria-hidden />
            Take photo
          </Button>
          <input
            ref={camera}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            tabIndex={-1}
            onChange={picked}
            data-camera-input
          />
        </>
      ) : (
        <span className="text-xs text-zinc-500 dark:text-zinc-400">or drop files anywhere on the page</span>
      )}
    </div>
  );
}
