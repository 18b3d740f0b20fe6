/**
 * 'Move to…': a searchable picker of the places an item may go under the hierarchy rules (a task
 * under a campaign, a todo under a task or a campaign, or the top level; never under itself).
 * A combobox: type to filter, arrows move, Enter moves the item there. Loaded on first use.
 */
import { Check, CornerLeftUp, Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ItemType } from '../../shared/item';
import { cn } from '../components/ui/cn';
import { Dialog, DialogContent } from '../components/ui/Dialog';
import { inputClasses } from '../components/ui/Input';
import { type MoveTarget, matchesTarget, moveTargets } from './editing';
import { useItemEdits } from './editMutations';
import { useMoveCandidates } from './editQueries';
import { TYPE_DOT, TYPE_LABEL } from './itemStyle';

export interface MoveToDialogProps {
  item: { id: number; type: ItemType; title: string; parent_id: number | null };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

const TOP: MoveTarget = {
  id: 0,
  type: 'campaign',
  title: 'No parent (top level)',
  context: null,
  current: false,
};

export default function MoveToDialog({ item, open, onOpenChange, onCloseAutoFocus }: MoveToDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Move to…"
        description={`Choose where “${item.title}” goes.`}
        onCloseAutoFocus={onCloseAutoFocus}
        className="[overflow-wrap:anywhere]"
      >
        {open ? <Picker item={item} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function Picker({ item, onDone }: { item: MoveToDialogProps['item']; onDone: () => void }) {
  const listId = useId();
  const candidates = useMoveCandidates();
  const { move } = useItemEdits();
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const targets = useMemo(() => {
    const found = moveTargets(item, candidates).filter((t) => matchesTarget(t, search));
    // The top level is a place too, for a task or todo that has a parent.
    const top = item.type !== 'campaign' && item.parent_id !== null && matchesTarget(TOP, search);
    return top ? [TOP, ...found] : found;
  }, [item, candidates, search]);
  const selectable = targets.filter((t) => !t.current);

  const activeTarget = selectable[Math.min(active, selectable.length - 1)];
  const optionId = (t: MoveTarget) => `${listId}-${t.id}`;

  useEffect(() => {
    if (!activeTarget) return;
    document.getElementById(optionId(activeTarget))?.scrollIntoView?.({ block: 'nearest' });
  });

  const choose = async (target: MoveTarget) => {
    if (target.current) return;
    onDone();
    await move(item, target.id === 0 ? null : target.id, target.id === 0 ? null : target.title);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (selectable.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, selectable.length - 1) + step + selectable.length) % selectable.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (activeTarget) void choose(activeTarget);
    }
  };

  const none = item.type === 'campaign';
  return (
    <div className="flex flex-col gap-3">
      {none ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          A campaign is always at the top level: it cannot be moved into anything.
        </p>
      ) : (
        <>
          <div className="relative">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400"
            />
            <input
              // biome-ignore lint/a11y/noAutofocus: the dialog's one job is this search.
              autoFocus
              role="combobox"
              aria-label={`Search where to move ${TYPE_LABEL[item.type].toLowerCase()}`}
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeTarget ? optionId(activeTarget) : undefined}
              placeholder={item.type === 'task' ? 'Search campaigns...' : 'Search campaigns and tasks...'}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              autoComplete="off"
              className={inputClasses('pl-9')}
            />
          </div>
          <div
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label="Places"
            className="-mx-1 max-h-[min(22rem,50dvh)] overflow-y-auto px-1"
          >
            {targets.map((t) => {
              const isActive = activeTarget?.id === t.id && !t.current;
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant).
                <div
                  key={t.id}
                  tabIndex={-1}
                  id={optionId(t)}
                  role="option"
                  aria-selected={isActive}
                  aria-disabled={t.current || undefined}
                  onMouseMove={() => {
                    const index = selectable.indexOf(t);
                    if (index >= 0 && index !== active) setActive(index);
                  }}
                  onClick={() => void choose(t)}
                  className={cn(
                    'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm',
                    isActive && 'bg-indigo-50 dark:bg-indigo-950/50',
                    t.current && 'cursor-default opacity-60',
                  )}
                >
                  {t.id === 0 ? (
                    <CornerLeftUp aria-hidden className="size-4 shrink-0 text-zinc-500 dark:text-zinc-400" />
                  ) : (
                    <span aria-hidden className={cn('size-2 shrink-0 rounded-full', TYPE_DOT[t.type])} />
                  )}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-zinc-900 dark:text-zinc-100">
                      {t.title}
                    </span>
                    {t.id !== 0 ? (
                      <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
                        {TYPE_LABEL[t.type]}
                        {t.context ? ` in ${t.context}` : ''}
                      </span>
                    ) : null}
                  </span>
                  {t.current ? (
                    <span className="inline-flex shrink-0 items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400">
                      <Check aria-hidden className="size-3.5" /> Current
                    </span>
                  ) : null}
                </div>
              );
            })}
          </div>
          {targets.length === 0 ? (
            <p role="status" className="px-1 pb-2 text-sm text-zinc-600 dark:text-zinc-400">
              {search.trim()
                ? `No places match “${search.trim()}”.`
                : item.type === 'task'
                  ? 'There is no campaign to move it to yet.'
                  : 'There is no campaign or task to move it to yet.'}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
