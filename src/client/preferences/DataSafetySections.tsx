/**
 * Preferences › Trash, Preferences › Data (export and import) and the storage line (issue 14). Loaded
 * with Preferences only: the parsers behind import load when a file is picked.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { Download, FileUp, RotateCcw } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { formatMinutes } from '../../shared/timerClock';
import { appQueryClient, FollowDataChanges } from '../app/queryProvider';
import { Button, Progress } from '../components/ui';
import { Section } from '../components/ui/Section';
import type { ImportPreview, ImportResult, StorageInfo } from '../data/transfer/dataTransfer';
import { KeptChangesSection } from './KeptChangesSection';
import { useDataSafety } from './mutations';
import { useStorageInfo, useTrash } from './queries';

const TYPE_WORD = { campaign: 'Campaign', task: 'Task', todo: 'Todo' } as const;

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/**
 * The sections inside the app's QueryClient (the trash is a server list, refreshed by the door's
 * change signal); it loads with them, not with Preferences' first paint.
 */
export default function DataSafetySections({
  part,
  guest = false,
}: {
  part: 'trash-data' | 'storage';
  guest?: boolean;
}) {
  return (
    <QueryClientProvider client={appQueryClient()}>
      <FollowDataChanges />
      {part === 'storage' ? (
        <StorageLine guest={guest} />
      ) : (
        <>
          <TrashSection />
          <DataSection />
          <KeptChangesSection />
        </>
      )}
    </QueryClientProvider>
  );
}

/** Preferences › Trash: every deleted item (the top of what one delete took), restorable for 30 days. */
export function TrashSection() {
  const { entries, error } = useTrash();
  const { restore } = useDataSafety();
  const [busy, setBusy] = useState<string | null>(null);
  // A restored entry leaves the list with its button: focus goes to the list (or what says it is
  // empty), never to the page's body (P7).
  const landing = useRef<HTMLElement>(null);
  const afterRestore = () => {
    setBusy(null);
    window.setTimeout(() => {
      if (document.activeElement === document.body || document.activeElement === null)
        landing.current?.focus();
    }, 0);
  };
  return (
    <Section
      id="pref-trash"
      title="Trash"
      description="Deleted items stay here for 30 days. Restoring one brings back everything deleted with it."
    >
      <section ref={landing} tabIndex={-1} className="outline-none" aria-label="Trash entries">
        {entries === null ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {error ? 'The trash could not be read.' : 'Loading…'}
          </p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="trash-empty">
            The trash is empty.
          </p>
        ) : (
          <ul
            className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800"
            data-testid="trash-list"
          >
            {entries.map((entry) => (
              <li key={entry.key} className="flex items-center gap-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{entry.title}</p>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    {TYPE_WORD[entry.type]}
                    {entry.count && entry.count > 1 ? ` with ${entry.count - 1} inside` : ''} · deleted{' '}
                    {/* A guest deleted everything in their own trash: 'by Guest User' says nothing (P7). */}
                    {entry.deletedBy && entry.deletedBy.id !== 0 ? `by ${entry.deletedBy.name} ` : ''}
                    {when(entry.deletedAt)}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Restore ${entry.title}`}
                  disabled={busy !== null}
                  onClick={() => {
                    setBusy(entry.key);
                    void restore(entry).finally(afterRestore);
                  }}
                >
                  <RotateCcw aria-hidden />
                  {busy === entry.key ? 'Restoring…' : 'Restore'}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Section>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * T3: what an import adds besides items: '3 comments, 4 time entries (2 h 15 m) and 2 files', '' for
 * nothing.
 */
function extrasText(preview: ImportPreview): string {
  const parts = [
    ...(preview.newComments > 0 ? [plural(preview.newComments, 'comment')] : []),
    ...(preview.newTimeEntries > 0
      ? [
          `${preview.newTimeEntries} time ${preview.newTimeEntries === 1 ? 'entry' : 'entries'} (${formatMinutes(preview.newTimeMinutes)})`,
        ]
      : []),
    ...(preview.newFiles > 0 ? [plural(preview.newFiles, 'file')] : []),
  ];
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** '1 campaign, 4 tasks and 2 todos'. */
function countsText(counts: ImportPreview['counts']): string {
  const parts = (['campaign', 'task', 'todo'] as const)
    .filter((t) => counts[t] > 0)
    .map((t) => plural(counts[t], t));
  if (parts.length <= 1) return parts[0] ?? 'nothing';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** Preferences › Data: export from the device (offline, as a guest), import with a preview. */
export function DataSection() {
  const { exportAs, plan, run, undoImport } = useDataSafety();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<(ImportResult & { undoSeq: number | null }) | null>(null);
  const [reading, setReading] = useState(false);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setResult(null);
    setReading(true);
    try {
      setPreview(await plan(file));
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  };

  const start = async () => {
    if (!preview) return;
    setProgress({ done: 0, total: preview.items.length });
    try {
      setResult(await run(preview, (done, total) => setProgress({ done, total })));
      setPreview(null);
    } finally {
      setProgress(null);
    }
  };

  const fresh = preview ? preview.counts.campaign + preview.counts.task + preview.counts.todo : 0;
  const extras = preview ? extrasText(preview) : '';
  return (
    <Section
      id="pref-transfer"
      title="Data"
      description="Export what this device holds (a .zip when items have files), or import an Outpost export or a Todoist CSV."
    >
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void exportAs('json')}>
          <Download aria-hidden />
          Export JSON
        </Button>
        <Button variant="outline" onClick={() => void exportAs('csv')}>
          <Download aria-hidden />
          Export CSV
        </Button>
        <Button
          variant="outline"
          onClick={() => input.current?.click()}
          disabled={reading || progress !== null}
        >
          <FileUp aria-hidden />
          {reading ? 'Reading…' : 'Import…'}
        </Button>
        <input
          id={inputId}
          ref={input}
          type="file"
          accept=".json,.csv,.txt,.zip,application/json,text/csv,application/zip"
          aria-label="Import file"
          className="sr-only"
          tabIndex={-1}
          data-testid="import-file"
          onChange={(event) => void pick(event.target.files?.[0])}
        />
      </div>
      {preview ? (
        <div className="mt-4 flex flex-col gap-2" data-testid="import-preview">
          {preview.error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {preview.error}
            </p>
          ) : (
            <p className="text-sm" data-testid="import-summary">
              {fresh > 0
                ? `“${preview.fileName}” will create ${countsText(preview.counts)}${
                    extras ? `, with ${extras}` : ''
                  }.`
                : extras
                  ? `“${preview.fileName}” will add ${extras} to items already here.`
                  : `Everything in “${preview.fileName}” is already here: nothing new to create.`}
              {preview.existing > 0
                ? ` ${plural(preview.existing, 'item')} already here will be skipped.`
                : ''}
            </p>
          )}
          {preview.problems.length > 0 ? (
            <details open={preview.problems.length <= 5} className="text-sm">
              <summary>{plural(preview.problems.length, 'line')} could not be read</summary>
              <ul className="mt-1 max-h-48 overflow-y-auto text-xs text-zinc-600 dark:text-zinc-400">
                {preview.problems.map((p) => (
                  <li key={`${p.line}-${p.text}`}>
                    {preview.source === 'outpost-json' ? 'Item' : 'Line'} {p.line}: {p.reason} — {p.text}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {preview.warnings.length > 0 ? (
            <details open={preview.warnings.length <= 5} className="text-sm" data-testid="import-warnings">
              <summary>
                {plural(
                  new Set(preview.warnings.map((w) => w.line)).size,
                  preview.source === 'outpost-json' ? 'item' : 'line',
                )}{' '}
                will be imported with a change
              </summary>
              <ul className="mt-1 max-h-48 overflow-y-auto text-xs text-zinc-600 dark:text-zinc-400">
                {preview.warnings.map((p) => (
                  <li key={`${p.line}-${p.reason}`}>
                    {preview.source === 'outpost-json' ? 'Item' : 'Line'} {p.line}: {p.reason} — {p.text}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {!preview.error && (fresh > 0 || extras) ? (
              <Button variant="primary" onClick={() => void start()} disabled={progress !== null}>
                {fresh > 0 ? `Import ${plural(fresh, 'item')}` : 'Import'}
              </Button>
            ) : null}
            <Button variant="outline" onClick={() => setPreview(null)} disabled={progress !== null}>
              {preview.error || (fresh === 0 && !extras) ? 'Close' : 'Cancel'}
            </Button>
          </div>
        </div>
      ) : null}
      {progress ? (
        <div className="mt-4 flex flex-col gap-1">
          <Progress
            value={progress.total === 0 ? 100 : (progress.done / progress.total) * 100}
            label="Import progress"
          />
          <p className="text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
            {progress.done} of {progress.total}
          </p>
        </div>
      ) : null}
      {result ? (
        <div className="mt-4 flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <p className="text-sm" role="status" data-testid="import-result">
            Imported: {plural(result.created, 'new item')}
            {result.comments > 0 ? `, ${plural(result.comments, 'comment')}` : ''}
            {result.timeEntries > 0
              ? `, ${result.timeEntries} time ${result.timeEntries === 1 ? 'entry' : 'entries'}`
              : ''}
            {result.files > 0 ? `, ${plural(result.files, 'file')}` : ''}
            {result.skipped > 0 ? `, ${result.skipped} already here` : ''}.
            {result.failed.length > 0
              ? ` ${plural(result.failed.length, 'item')} could not be created: ${result.failed
                  .slice(0, 3)
                  .map((f) => `“${f.title}” (${f.reason})`)
                  .join(', ')}.`
              : ''}
          </p>
          {result.undoSeq !== null ? (
            <Button
              variant="link"
              size="sm"
              className="h-auto p-0 text-sm"
              onClick={async () => {
                if (result.undoSeq !== null && (await undoImport(result.undoSeq))) setResult(null);
              }}
            >
              Undo import
            </Button>
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb < 0.1 ? '< 0.1 MB' : `${mb.toFixed(1)} MB`;
}

/** 'Stored on this device: N items, X MB (kept / may be cleared by the browser)'. */
export function storageText(info: StorageInfo): string {
  const size = info.bytes === null ? '' : `, ${megabytes(info.bytes)}`;
  const kept = info.persisted === true ? 'kept' : 'may be cleared by the browser';
  return `Stored on this device: ${plural(info.items, 'item')}${size} (${kept})`;
}

/** The storage line, and for a guest whose storage may be cleared a quiet hint. */
export function StorageLine({ guest }: { guest: boolean }) {
  const info = useStorageInfo();
  // Its line's place is kept while the browser answers: the danger zone's button below must not move
  // under a pointer on its way to it.
  if (!info) return <div className="mb-3 h-5" aria-hidden />;
  return (
    <div className="mb-3 flex flex-col gap-1">
      <p className="text-sm" data-testid="storage-line">
        {storageText(info)}
      </p>
      {guest && info.persisted !== true ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="storage-hint">
          Your items live only in this browser. To keep them safe, install Outpost as an app, export a copy,
          or sign in.
        </p>
      ) : null}
    </div>
  );
}
