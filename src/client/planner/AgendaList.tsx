import { daysOverdue, dueDay, overdueText } from '../../shared/agenda';
import { ShowMore } from '../components/ui/PageParts';
import { useParentTitles, useRowProgress } from '../data/store/live';
import { ItemRow } from '../items/ItemRow';
import { useReschedule } from './mutations';
import type { LocalItem } from './queries';
import { RescheduleMenu } from './RescheduleMenu';

/**
 * A day's items as the lists' own rows (complete, rename, assign, delete, the actions menu), each
 * with how late it is and a Reschedule menu. Every control is in the tab order: these lists are short,
 * so they need no roving tab stop.
 */
export function AgendaList({
  items,
  total,
  onMore,
  label,
  today,
}: {
  /** The rows read so far (the screen reads a page at a time, data/store/agendaQueries.ts). */
  items: readonly LocalItem[];
  /** How many the group holds: 'Show more' shows while fewer are read. */
  total: number;
  /** Reads the next page. */
  onMore: () => void;
  label: string;
  today: string;
}) {
  const visible = items;
  const reschedule = useReschedule(today);
  const parentTitles = useParentTitles(visible);
  const progress = useRowProgress(visible);
  return (
    <div className="overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900/40 [&_li:last-child>div]:border-b-0">
      <ul aria-label={label} className="m-0 p-0">
        {visible.map((item) => {
          const late = daysOverdue(item, today);
          return (
            <li key={item.id} className="list-none">
              <ItemRow
                item={item}
                parentTitle={item.parent_id !== null ? (parentTitles.get(item.parent_id) ?? null) : null}
                progress={progress.get(item.id)}
                meta={
                  late > 0 ? (
                    <span className="shrink-0 font-medium text-red-600 dark:text-red-400">
                      {overdueText(late)}
                    </span>
                  ) : null
                }
                actions={
                  <RescheduleMenu
                    title={item.title}
                    due={dueDay(item)}
                    today={today}
                    onPick={(day) => void reschedule(item, day)}
                  />
                }
              />
            </li>
          );
        })}
      </ul>
      <ShowMore more={total > items.length} onMore={onMore} shown={items.length} total={total} />
    </div>
  );
}
