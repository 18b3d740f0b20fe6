import { Paperclip, X } from 'lucide-react';
import { formatBytes, middleCut } from '../../shared/attachments';
import type { SharedFileChip } from './useSharedInto';

/**
 * The files a phone shared, as chips on the quick add card until the item is created: each its name
 * cut in the middle, its size and Remove. Loaded only when a share is on the card.
 */
export default function SharedFileChips({
  files,
  onRemove,
}: {
  files: readonly SharedFileChip[];
  onRemove: (key: string) => void;
}) {
  return (
    <ul aria-label="Shared files" className="flex flex-wrap gap-1.5 px-3 pb-2">
      {files.map(({ key, file }) => (
        <li
          key={key}
          className="inline-flex h-7 max-w-full items-center gap-1.5 rounded-full border border-zinc-200 bg-zinc-50 pr-1 pl-2.5 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
        >
          <Paperclip className="size-3.5 shrink-0 text-zinc-400 dark:text-zinc-500" aria-hidden />
          <span className="min-w-0 truncate" title={file.name}>
            {middleCut(file.name)}
          </span>
          <span className="shrink-0 text-zinc-500 tabular-nums dark:text-zinc-400">
            {formatBytes(file.size)}
          </span>
          <button
            type="button"
            onClick={() => onRemove(key)}
            aria-label={`Remove ${file.name}`}
            className="inline-flex size-5 shrink-0 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
          >
            <X className="size-3.5" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
