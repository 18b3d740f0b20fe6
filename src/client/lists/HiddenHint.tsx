import type { ReactNode } from 'react';
import { Button } from '../components/ui/Button';
import { EmptyState } from '../components/ui/EmptyState';

export interface HiddenCounts {
  task: number;
  todo: number;
}

/**
 * An All tab that is empty although the Tasks or Todos tab holds items (All lists top-level items
 * only, as the spec says): keep the spec's empty text and say where the items are, with a way there.
 * `kind` words the items ('completed', 'active', 'queued'; empty for Home).
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
  const total = (counts?.task ?? 0) + (counts?.todo ?? 0);
  if (total === 0) return <EmptyState icon={icon} title={title} description={hint} />;
  const words = `${total}${kind ? ` ${kind}` : ''} ${total === 1 ? 'item is' : 'items are'}`;
  return (
    <EmptyState
      icon={icon}
      title={title}
      description={`${words} inside campaigns and tasks. All shows top-level items only.`}
      action={
        <div className="flex flex-wrap justify-center gap-2">
          {counts && counts.task > 0 ? (
            <Button variant="outline" size="sm" onClick={() => onShow('task')}>
              Show tasks ({counts.task})
            </Button>
          ) : null}
          {counts && counts.todo > 0 ? (
            <Button variant="outline" size="sm" onClick={() => onShow('todo')}>
              Show todos ({counts.todo})
            </Button>
          ) : null}
        </div>
      }
    />
  );
}
