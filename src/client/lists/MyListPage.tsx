import { CheckCircle2, CirclePlay, Inbox, SearchX } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { filterByLabel } from '../../shared/labels';
import {
  ListEmpty,
  ListLoading,
  PageColumn,
  PageHeader,
  ShowMore,
  useTabParam,
} from '../components/ui/PageParts';
import { SearchBox } from '../components/ui/SearchBox';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/Tabs';
import { useDebouncedValue } from '../components/ui/useDebouncedValue';
import { ItemList } from '../items/ItemList';
import { LabelFilter } from './LabelFilter';
import { type LifecycleScreen, useMyList, useMyListCounts } from './queries';

const TABS = ['queue', 'active', 'completed'] as const satisfies readonly LifecycleScreen[];
const TAB_LABEL: Record<LifecycleScreen, string> = {
  queue: 'Queue',
  active: 'Active',
  completed: 'Completed',
};
const EMPTY: Record<LifecycleScreen, { title: string; icon: ReactNode }> = {
  queue: { title: 'No items in your queue', icon: <Inbox aria-hidden /> },
  active: { title: 'No active items', icon: <CirclePlay aria-hidden /> },
  completed: { title: 'No completed items yet', icon: <CheckCircle2 aria-hidden /> },
};

export default function MyListPage() {
  const [tab, setTab] = useTabParam(TABS, 'queue');
  const [text, setText] = useState('');
  // The label chip pressed (null: none), over the rows the open tab has read; kept across tabs.
  const [label, setLabel] = useState<string | null>(null);
  const query = useDebouncedValue(text);
  // The tab badges come from the indexes; only the open tab reads its rows (a page at a time).
  const counts = useMyListCounts(query);
  const lists = {
    queue: useMyList('queue', query, tab === 'queue'),
    active: useMyList('active', query, tab === 'active'),
    completed: useMyList('completed', query, tab === 'completed'),
  };
  return (
    <PageColumn>
      <PageHeader title="My List" subtitle="All items you've created" />
      <SearchBox value={text} onChange={setText} placeholder="Search my items..." className="mb-4" />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Lifecycle">
          {TABS.map((t) => {
            const count = counts?.[t] ?? 0;
            return (
              <TabsTrigger key={t} value={t}>
                {TAB_LABEL[t]}
                {count > 0 ? (
                  <span className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-zinc-200 px-1.5 text-xs font-medium tabular-nums text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200">
                    <span className="sr-only">(</span>
                    {count}
                    <span className="sr-only"> items)</span>
                  </span>
                ) : null}
              </TabsTrigger>
            );
          })}
        </TabsList>
        {TABS.map((t) => {
          const { items, more, showMore } = lists[t];
          const shown = items && filterByLabel(items, label);
          return (
            <TabsContent key={t} value={t} className="flex flex-col gap-4">
              {items && items.length > 0 ? (
                <LabelFilter items={items} value={label} onChange={setLabel} />
              ) : null}
              {items === undefined ? (
                <ListLoading label="Loading items..." />
              ) : items.length === 0 ? (
                query.trim() !== '' ? (
                  <ListEmpty icon={<SearchX aria-hidden />} title={`No items match "${query.trim()}"`} />
                ) : (
                  <ListEmpty icon={EMPTY[t].icon} title={EMPTY[t].title} />
                )
              ) : shown && shown.length === 0 ? (
                <>
                  <ListEmpty
                    icon={<SearchX aria-hidden />}
                    title={`No items labelled “${label}” here`}
                    hint="Press the label again to see everything."
                  />
                  <ShowMore more={more} onMore={showMore} shown={items.length} total={counts?.[t]} />
                </>
              ) : (
                <ItemList
                  items={shown ?? items}
                  label={`My List: ${TAB_LABEL[t]}`}
                  footer={<ShowMore more={more} onMore={showMore} shown={items.length} total={counts?.[t]} />}
                />
              )}
            </TabsContent>
          );
        })}
      </Tabs>
    </PageColumn>
  );
}
