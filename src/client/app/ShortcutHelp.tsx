import { Dialog, DialogContent } from '../components/ui/Dialog';

/** Apple keyboards say ⌘ where the others say Ctrl. */
function isApple(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
}

interface Shortcut {
  keys: string[][];
  what: string;
}

function shortcuts(mod: string): { title: string; items: Shortcut[] }[] {
  return [
    {
      title: 'Anywhere',
      items: [
        { keys: [[mod, 'K']], what: 'Search items' },
        { keys: [[mod, 'Z']], what: 'Undo your last change (again to go further back)' },
        { keys: [['?']], what: 'Show these shortcuts' },
        { keys: [['Esc']], what: 'Close a dialog or menu; collapse an empty quick add' },
      ],
    },
    {
      title: 'Lists',
      items: [
        { keys: [['↓'], ['J']], what: 'Next item (J with no item focused: the first)' },
        { keys: [['↑'], ['K']], what: 'Previous item' },
        { keys: [['Home'], ['End']], what: 'First or last item' },
        { keys: [['Enter']], what: 'Open the item (a todo: rename it)' },
        { keys: [['Space']], what: 'Change its status' },
        { keys: [['T']], what: 'Start or stop its timer (a task or todo)' },
        { keys: [['Shift', 'F10'], ['Menu']], what: 'Its actions: status, rename, assign, delete' },
      ],
    },
    {
      title: 'Adding items',
      items: [
        { keys: [['Q']], what: 'Go to the quick add' },
        { keys: [[mod, 'Enter']], what: 'Add the item (quick add and Create New Item)' },
        { keys: [['Enter']], what: 'Add a todo; in a description, add the item' },
      ],
    },
  ];
}

const kbd =
  'inline-flex h-6 min-w-6 items-center justify-center rounded border border-zinc-300 bg-zinc-50 px-1.5 font-sans text-xs font-medium text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200';

/** The keyboard shortcut help, opened with '?' outside text fields. */
export default function ShortcutHelp({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const mod = isApple() ? '⌘' : 'Ctrl';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Keyboard shortcuts" description="Work without leaving the keyboard.">
        <div className="flex flex-col gap-5">
          {shortcuts(mod).map((group) => (
            <section key={group.title} aria-labelledby={`shortcuts-${group.title}`}>
              <h3
                id={`shortcuts-${group.title}`}
                className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400"
              >
                {group.title}
              </h3>
              <dl className="divide-y divide-zinc-100 dark:divide-zinc-800">
                {group.items.map((s) => (
                  <div key={s.what} className="flex items-center justify-between gap-4 py-2">
                    <dt className="min-w-0 text-sm text-zinc-700 dark:text-zinc-300">{s.what}</dt>
                    <dd className="flex shrink-0 items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400">
                      {s.keys.map((combo, i) => (
                        <span key={combo.join('+')} className="inline-flex items-center gap-1">
                          {i > 0 ? <span>or</span> : null}
                          {combo.map((key, j) => (
                            <span key={key} className="inline-flex items-center gap-1">
                              {j > 0 ? <span aria-hidden>+</span> : null}
                              <kbd className={kbd}>{key}</kbd>
                            </span>
                          ))}
                        </span>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
