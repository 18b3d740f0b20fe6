/**
 * Preferences › Data › 'Changes that could not be applied' (SYNC.md Q23): what the server refused for
 * good (a campaign lost, an item deleted, a role that does not allow it) stays listed on the device,
 * with why, until the user exports or dismisses it. The toast after the run is only the first word.
 */
import { Download, X } from 'lucide-react';
import { useState } from 'react';
import { useDoor } from '../app/door';
import { Button } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Section } from '../components/ui/Section';
import { type LiveQuery, useLive } from '../data/live';
import type { KeptView } from '../data/store/keptChanges';
import { downloadFile } from '../data/transfer/downloadFile';

const keptQuery: LiveQuery<null, KeptView[]> = (reads) => reads.keptChanges();

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** The kept changes with Export and Dismiss; nothing at all while there are none. */
export function KeptChangesSection() {
  const { send } = useDoor();
  const kept = useLive(keptQuery, null);
  const [asking, setAsking] = useState(false);
  const [exported, setExported] = useState(false);
  if (!kept || kept.length === 0) return null;
  const count = kept.length;
  const noun = `${count} ${count === 1 ? 'change' : 'changes'}`;
  return (
    <Section
      id="pref-kept"
      title="Changes that could not be applied"
      description={`The server refused ${noun} made on this device. They are kept here until you export or dismiss them.`}
    >
      <ul
        className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800"
        aria-label="Changes that could not be applied"
      >
        {kept.map((change) => (
          <li key={change.id} className="py-2">
            <p className="text-sm font-medium [overflow-wrap:anywhere]">{change.what}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {change.why} · {when(change.rejectedAt)}
            </p>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() =>
            void send('device.keptFile').then((file) => {
              downloadFile(file);
              setExported(true);
            })
          }
        >
          <Download aria-hidden />
          Export
        </Button>
        <Button variant="outline" onClick={() => setAsking(true)}>
          <X aria-hidden />
          Dismiss
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Dismiss ${noun}?`}
        description={
          exported
            ? 'They leave this device. The file you exported keeps them.'
            : 'They leave this device for good. Export them first to keep a copy.'
        }
        confirmLabel="Dismiss"
        tone="danger"
        onConfirm={() =>
          void send(
            'device.dismissKept',
            kept.map((c) => c.id),
          )
        }
      />
    </Section>
  );
}
