import { formatDistanceToNow } from 'date-fns';
import { Cloud, Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { statusLabel } from '../../shared/statusLabel';
import { Badge, Button, Dialog, DialogContent, DialogFooter } from '../components/ui';
import { cn } from '../components/ui/cn';
import type { ConflictChoice, ConflictVersion, ConflictView } from '../data/reads/conflictView';

export interface SyncConflictDialogProps {
  open: boolean;
  conflicts: readonly ConflictView[];
  onCancel: () => void;
  onResolve: (choices: Record<number, ConflictChoice>) => void | Promise<void>;
}

/** Every conflict has a choice: the spec's condition for 'Resolve Conflicts'. */
export function allChosen(
  conflicts: readonly ConflictView[],
  choices: Record<number, ConflictChoice>,
): boolean {
  return conflicts.length > 0 && conflicts.every((c) => choices[c.id] !== undefined);
}

function modified(at: string | null): string {
  if (!at) return 'unknown';
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? 'unknown' : `${formatDistanceToNow(date)} ago`;
}

/** The spec's 'Sync Conflicts Detected' dialog: one choice per conflicting item, then resolve. */
export function SyncConflictDialog({ open, conflicts, onCancel, onResolve }: SyncConflictDialogProps) {
  const [choices, setChoices] = useState<Record<number, ConflictChoice>>({});
  const [busy, setBusy] = useState(false);

  // Drop choices for conflicts that went away (resolved in another tab).
  useEffect(() => {
    setChoices((prev) => {
      const next: Record<number, ConflictChoice> = {};
      for (const c of conflicts) {
        const choice = prev[c.id];
        if (choice) next[c.id] = choice;
      }
      return next;
    });
  }, [conflicts]);

  const ready = allChosen(conflicts, choices);

  const resolve = async () => {
    if (!ready) return;
    setBusy(true);
    try {
      await onResolve(choices);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : onCancel())}>
      <DialogContent
        size="lg"
        title="Sync Conflicts Detected"
        description="Some items were modified both locally and on the server. Please choose which version to keep."
      >
        <ul className="flex flex-col gap-4">
          {conflicts.map((conflict) => (
            <li key={conflict.id}>
              <fieldset className="min-w-0 rounded-xl border border-zinc-200 p-3 dark:border-zinc-800">
                <legend className="max-w-full px-1 text-sm font-semibold break-words">
                  {conflict.local?.title || conflict.remote?.title || 'Untitled item'}
                  <Badge tone={conflict.type === 'delete' ? 'red' : 'amber'} className="ml-2 align-middle">
                    {conflict.type === 'delete' ? 'Deleted on one side' : 'Edited on both sides'}
                  </Badge>
                </legend>
                <div className="mt-1 grid grid-cols-1 gap-2 sm:grid-cols-2">
                  {conflict.local ? (
                    <VersionOption
                      side="local"
                      name={`conflict-${conflict.id}`}
                      label="Keep Local Version"
                      icon={<Smartphone aria-hidden />}
                      version={conflict.local}
                      checked={choices[conflict.id] === 'local'}
                      onChoose={() => setChoices((c) => ({ ...c, [conflict.id]: 'local' }))}
                    />
                  ) : null}
                  <VersionOption
                    side="remote"
                    name={`conflict-${conflict.id}`}
                    label="Keep Server Version"
                    icon={<Cloud aria-hidden />}
                    version={conflict.remote}
                    checked={choices[conflict.id] === 'remote'}
                    onChoose={() => setChoices((c) => ({ ...c, [conflict.id]: 'remote' }))}
                  />
                </div>
              </fieldset>
            </li>
          ))}
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => void resolve()} disabled={!ready || busy}>
            Resolve Conflicts
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

interface VersionOptionProps {
  side: ConflictChoice;
  name: string;
  label: string;
  icon: React.ReactNode;
  version: ConflictVersion | null;
  checked: boolean;
  onChoose: () => void;
}

/** A native radio inside a card-sized label: arrow keys move within a conflict, Tab between them. */
function VersionOption({ side, name, label, icon, version, checked, onChoose }: VersionOptionProps) {
  return (
    <label
      className={cn(
        'flex min-w-0 cursor-pointer flex-col gap-1.5 rounded-lg border p-3 text-sm transition-colors duration-150 motion-reduce:transition-none has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
        checked
          ? 'border-indigo-500 bg-indigo-50/60 dark:border-indigo-400 dark:bg-indigo-950/40'
          : 'border-zinc-200 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800/60',
      )}
    >
      <span className="flex items-center gap-2 font-medium [&_svg]:size-4">
        <input
          type="radio"
          name={name}
          checked={checked}
          onChange={onChoose}
          // The whole card shows the focus ring (has-[:focus-visible]); a second ring here would be noise.
          className="size-4 accent-indigo-600 outline-none"
        />
        {icon}
        {label}
      </span>
      {version && !version.deleted ? (
        <dl className="grid min-w-0 grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          <dt className="sr-only">Title</dt>
          <dd className="col-span-2 truncate font-medium text-zinc-900 dark:text-zinc-100">
            {version.title}
          </dd>
          <dt className="sr-only">Description</dt>
          <dd className="col-span-2 line-clamp-2 break-words">{version.description || 'No description'}</dd>
          <dt>Status</dt>
          <dd>{statusLabel(version.status)}</dd>
          <dt>Modified</dt>
          <dd>{modified(version.modifiedAt)}</dd>
        </dl>
      ) : (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {side === 'local' ? 'Deleted on this device.' : 'Deleted on the server.'} Keeping this version
          deletes the item.
        </p>
      )}
    </label>
  );
}
