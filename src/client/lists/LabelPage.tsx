import { Tag } from 'lucide-react';
import { useParams } from 'react-router';
import { ListEmpty, ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { type LiveQuery, type LocalItem, useLive, useShown } from '../data/live';
import { ItemList } from '../items/ItemList';

const labelQuery: LiveQuery<string, LocalItem[]> = (reads, label) => reads.labelItems(label);

/**
 * /labels/{name}: every item carrying the label (compared without case) across campaigns, open ones
 * first, from the device, so it works offline and for guests. The rows are the lists' ItemRow (a
 * windowed list past a few hundred), each with its parent named.
 */
export default function LabelPage() {
  // React Router decodes the segment ('on%20hold' is 'on hold').
  const label = (useParams().name ?? '').trim();
  const items = useShown(useLive(labelQuery, label));
  const open = items?.filter((i) => i.status !== 'completed').length ?? 0;
  return (
    <PageColumn>
      <PageHeader
        title={
          <span className="inline-flex min-w-0 items-center gap-2">
            <Tag className="size-5 shrink-0 text-zinc-500 dark:text-zinc-400" aria-hidden />
            <span className="truncate">{label}</span>
          </span>
        }
        subtitle={
          items === undefined
            ? 'Label'
            : `Label · ${items.length} ${items.length === 1 ? 'item' : 'items'}${items.length > 0 ? `, ${open} open` : ''}`
        }
      />
      {items === undefined ? (
        <ListLoading label={`Loading items labelled ${label}...`} rows={4} />
      ) : items.length === 0 ? (
        <ListEmpty
          icon={<Tag aria-hidden />}
          title={`Nothing is labelled “${label}”`}
          hint="Add labels from an item's menu (Labels…) or its page, or type +label in a quick add."
        />
      ) : (
        <ItemList items={items} label={`Items labelled ${label}`} />
      )}
    </PageColumn>
  );
}
