import { CheckCircle2, CheckSquare, CirclePlay, Flag, Inbox, ListChecks, SearchX } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { ItemType } from '../../shared/item';
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
import { QuickAddCard } from '../items/QuickAddCard';
import { LabelFilter } from './LabelFilter';
import { type LifecycleScreen, type ListTab, useScreenList } from './queries';

const TABS = ['all', 'campaign', 'task', 'todo'] as const satisfies readonly ListTab[];
const TAB_LABEL: Record<ListTab, string> = {
  all: 'All',
  campaign: 'Campaigns',
  task: 'Tasks',
  todo: 'Todos',
};

interface EmptyText {
  title: string;
  hint?: string;
}

export interface LifecycleConfig {
  title: string;
  subtitle: string;
  placeholder: string;
  empty: Record<ListTab, EmptyText>;
  icon: ReactNode;
}

/** The texts of spec section 2's Queue/Active/Completed table. */
export const SCREENS: Record<LifecycleScreen, LifecycleConfig> = {
  queue: {
    title: 'Queue',
    subtitle: 'Things waiting to be started',
    placeholder: 'Search queue items...',
    icon: <Inbox aria-hidden />,
    empty: {
      all: { title: 'Your queue is empty!', hint: 'Add something new to get started.' },
      campaign: { title: 'No campaigns in queue!' },
      task: { title: 'No tasks in queue!' },
      todo: { title: 'No todos in queue!' },
    },
  },
  active: {
    title: 'Active',
    subtitle: "What you're working on right now",
    placeholder: 'Search active items...',
    icon: <CirclePlay aria-hidden />,
    empty: {
      all: { title: 'Nothing active!' },
      campaign: { title: 'No active campaigns!' },
      task: { title: 'No active tasks!' },
      todo: { title: 'No active todos!' },
    },
  },
  completed: {
    title: 'Completed',
    subtitle: 'Your achievements and wins',
    placeholder: 'Search completed items...',
    icon: <CheckCircle2 aria-hidden />,
    empty: {
      all: { title: 'No completed items yet!' },
      campaign: {
        title: 'No completed campaigns yet!',
        hint: 'Finish all tasks in a campaign to complete it.',
      },
      task: { title: 'No completed tasks yet!', hint: 'Finish all todos in a task to complete it.' },
      todo: { title: 'No completed todos yet!' },
    },
  },
};

const TYPE_ICON: Record<ItemType, ReactNode> = {
  campaign: <Flag aria-hidden />,
  task: <ListChecks aria-hidden />,
  todo: <CheckSquare aria-hidden />,
};

/** Queue, Active and Completed: one layout, the spec's texts, sorts and visibility per screen. */
export function LifecyclePage({ screen }: { screen: LifecycleScreen }) {
  const config = SCREENS[screen];
  const [tab, setTab] = useTabParam(TABS, 'all');
  const [text, setText] = useState('');
  // The label chip pressed (null: none); kept across the type tabs, like the search.
  const [label, setLabel] = useState<string | null>(null);
  const query = useDebouncedValue(text);
  return (
    <PageColumn>
      <PageHeader title={config.title} subtitle={config.subtitle} />
      <SearchBox value={text} onChange={setText} placeholder={config.placeholder} className="mb-4" />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Item types">
          {TABS.map((t) => (
            <TabsTrigger key={t} value={t}>
              {TAB_LABEL[t]}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t} value={t} className="flex flex-col gap-4">
            {screen === 'queue' && t === 'all' ? <QuickAddCard types={['todo', 'task', 'campaign']} /> : null}
            {tab === t ? (
              <ScreenList screen={screen} tab={t} query={query} label={label} onLabel={setLabel} />
            ) : null}
          </TabsContent>
        ))}
      </Tabs>
    </PageColumn>
  );
}

function ScreenList({
  screen,
  tab,
  query,
  label,
  onLabel,
}: {
  screen: LifecycleScreen;
  tab: ListTab;
  query: string;
  label: string | null;
  onLabel: (label: string | null) => void;
}) {
  const { items, more, showMore } = useScreenList(screen, tab, query);
  const shown = items && filterByLabel(items, label);
  const config = SCREENS[screen];
  if (items === undefined) return <ListLoading label="Loading items..." />;
  if (items.length === 0) {
    if (query.trim() !== '') {
      return <ListEmpty icon={<SearchX aria-hidden />} title={`No items match "${query.trim()}"`} />;
    }
    const empty = config.empty[tab];
    // All lists the top of every branch of this status (SYNC.md I14): empty only when the tabs are.
    return (
      <ListEmpty icon={tab === 'all' ? config.icon : TYPE_ICON[tab]} title={empty.title} hint={empty.hint} />
    );
  }
  return (
    <>
      <LabelFilter items={items} value={label} onChange={onLabel} />
      {shown && shown.length === 0 ? (
        <>
          <ListEmpty
            icon={<SearchX aria-hidden />}
            title={`No items labelled “${label}” here`}
            hint="Press the label again to see everything."
          />
          <ShowMore more={more} onMore={showMore} shown={items.length} />
        </>
      ) : (
        <ItemList
          items={shown ?? items}
          label={`${config.title}: ${TAB_LABEL[tab]}`}
          footer={<ShowMore more={more} onMore={showMore} shown={items.length} />}
        />
      )}
    </>
  );
}
