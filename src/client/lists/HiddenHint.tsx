import type { ReactNode } from 'react';
import { Button } from '../components/ui/Button';
import { EmptyState } from '../components/ui/EmptyState';

export interface HiddenCounts {
  task: number;
  todo: number;
}

/**
 * Home's All tab when it is empty although the Tasks or Todos tab holds items (it lists top-level
 * items only, as the spec says; the status lists' All tabs list the top of each branch, SYNC.md I14). The spec's empty text would then be false ('No completed items yet!' over
 * 401 completed todos), so it is kept only when the other tabs are empty too; otherwise one line says
 * what is hidden and why, with a way there. `kind` words the items ('completed', 'active', 'queued';
 * empty for Home).
 */
export function HiddenItemsEmpty({
  icon,
  title,
  hint,
  kind,
  counts,
  onShow,
}: {
  icon: ReactNode;
  title: string;
  hint?: string;
  kind: string;
  counts: HiddenCounts | undefined;
  onShow: (tab: 'task' | 'todo') => void;
}) {
  const task = counts?.task ?? 0;
  const todo = counts?.todo ?? 0;
  const total = task + todo;
  if (total === 0) return <EmptyState icon={icon} title={title} description={hint} />;
  const noun = task === 0 ? 'todo' : todo === 0 ? 'task' : 'item';
  const words = `${total}${kind ? ` ${kind}` : ''} ${noun}${total === 1 ? ' is' : 's are'}`;
  return (
    <EmptyState
      icon={icon}
      title={`${words} inside campaigns or tasks; All lists top-level items only.`}
      action={
        <div className="flex flex-wrap justify-center gap-2">
          {task > 0 ? (
            <Button variant="outline" size="sm" onClick={() => onShow('task')}>
              Show tasks ({task})
            </Button>
          ) : null}
          {todo > 0 ? (
            <Button variant="outline" size="sm" onClick={() => onShow('todo')}>
              Show todos ({todo})
            </Button>
          ) : null}
        </div>
      }
    />
  );
}
