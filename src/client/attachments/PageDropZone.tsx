import { Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

/** Whether a drag carries files from outside the page (not text or a link dragged within it). */
export function carriesFiles(transfer: DataTransfer | null): boolean {
  return !!transfer && Array.from(transfer.types ?? []).includes('Files');
}

/**
 * Drop a file anywhere on the page (DESIGN.md release 5): while files are dragged over the window the
 * whole page shows a dashed accent outline and says where they go, in words a screen reader hears
 * too; a drop hands the files to `onFiles`. Drags of anything else pass untouched.
 */
export function PageDropZone({ target, onFiles }: { target: string; onFiles: (files: File[]) => void }) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every element crossed: the outline goes when the count is back at 0.
  const depth = useRef(0);
  const latest = useRef(onFiles);
  latest.current = onFiles;

  useEffect(() => {
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event.dataTransfer)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    };
    let quiet = 0;
    const end = () => {
      window.clearTimeout(quiet);
      depth.current = 0;
      setDragging(false);
    };
    // A drag over the window fires dragover every few dozen ms; a browser that loses count of the
    // enters and leaves (Safari names no relatedTarget) still ends the outline once they stop.
    const over = (event: DragEvent) => {
      if (!carriesFiles(event.dataTransfer)) return;
      // Without this the browser opens the file in place of the app.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
      window.clearTimeout(quiet);
      quiet = window.setTimeout(end, 400);
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event.dataTransfer)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) end();
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event.dataTransfer)) return;
      event.preventDefault();
      end();
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) latest.current(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      window.clearTimeout(quiet);
    };
  }, []);

  const words = `Drop files to attach them to “${target}”`;
  return (
    <>
      <p aria-live="polite" className="sr-only">
        {dragging ? words : ''}
      </p>
      {dragging ? (
        <div
          data-drop-zone
          aria-hidden
          className="pointer-events-none fixed inset-0 z-[60] flex items-center justify-center bg-indigo-50/70 outline-2 -outline-offset-8 outline-indigo-500 outline-dashed dark:bg-indigo-950/60 dark:outline-indigo-400"
        >
          <div className="flex max-w-[calc(100vw-4rem)] items-center gap-2 rounded-lg bg-white px-4 py-3 text-sm font-medium text-zinc-900 shadow-lg dark:bg-zinc-900 dark:text-zinc-100">
            <Upload className="size-5 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
            <span className="min-w-0 truncate">{words}</span>
          </div>
        </div>
      ) : null}
    </>
  );
}
