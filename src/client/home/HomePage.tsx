import { CheckSquare, Flag, Inbox, ListChecks } from 'lucide-react';
import { useState } from 'react';
import type { ItemType } from '../../shared/item';
import { Button } from '../components/ui/Button';
import {
  ListEmpty,
  ListLoading,
  PageColumn,
  PageHeader,
  ShowMore,
  useTabParam,
} from '../components/ui/PageParts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/Tabs';
import { ItemList } from '../items/ItemList';
import { QuickAddCard } from '../items/QuickAddCard';
import { NewFromTemplateButton } from '../items/TemplateButton';
import { HiddenItemsEmpty } from '../lists/HiddenHint';
import { TodayCard } from '../planner/TodayCard';
import { type ListTab, useHomeHiddenCounts, useHomeList, useHomePreview, useHomeTypePage } from './queries';

/** The spec's Home All preview: 20 orphan items, then 'View All (N items)'. */
export const HOME_PREVIEW = 20;

const TABS = ['all', 'campaign', 'task', 'todo'] as const satisfies readonly ListTab[];
const TAB_LABEL: Record<ListTab, string> = {
  all: 'All',
  campaign: 'Campaigns',
  task: 'Tasks',
  todo: 'Todos',
};
const QUICK_TYPES: Record<ListTab, readonly ItemType[]> = {
  all: ['todo', 'task', 'campaign'],
  campaign: ['campaign'],
  task: ['task'],
  todo: ['todo'],
};
const EMPTY: Record<ListTab, { title: string; icon: React.ReactNode }> = {
  all: { title: 'No items yet! Create your first campaign to get started.', icon: <Inbox aria-hidden /> },
  campaign: {
    title: 'No campaigns yet! Create a campaign to organize your big goals.',
    icon: <Flag aria-hidden />,
  },
  task: {
    title: 'No tasks yet! Tasks help break down campaigns into manageable pieces.',
    icon: <ListChecks aria-hidden />,
  },
  todo: {
    title: 'No todos yet! Todos are the smallest actionable items.',
    icon: <CheckSquare aria-hidden />,
  },
};

export default function HomePage() {
  const [tab, setTab] = useTabParam(TABS, 'all');
  return (
    <PageColumn>
      <PageHeader title="Home" subtitle="Everything happening in your world" />
      <TodayCard className="mb-4" />
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
            {/* What a phone shares into Outpost opens here (/?share=…, the manifest's share_target). */}
            <QuickAddCard types={QUICK_TYPES[t]} takesShare />
            <div className="-mt-2 flex justify-end">
              <NewFromTemplateButton />
            </div>
            {/* Only the open tab queries: four live lists of 10,000 items would be wasted work. */}
            {tab === t ? <HomeList tab={t} onTab={setTab} /> : null}
          </TabsContent>
        ))}
      </Tabs>
    </PageColumn>
  );
}

function HomeList({ tab, onTab }: { tab: ListTab; onTab: (tab: ListTab) => void }) {
  const [showAll, setShowAll] = useState(false);
  // All shows its newest 20 and the count, read by index; the whole list only once asked to View All.
  // A type tab reads its first page by index, a page more on 'Show more'.
  const preview = useHomePreview(tab === 'all' ? HOME_PREVIEW : 0);
  const full = useHomeList(tab === 'all' && showAll ? 'all' : null);
  const typed = useHomeTypePage(tab === 'all' ? null : tab);
  const items = tab === 'all' ? (showAll ? (full ?? preview?.items) : preview?.items) : typed.items;
  const total = tab === 'all' ? preview?.total : typed.items?.length;
  const hidden = useHomeHiddenCounts(tab === 'all' && total === 0);
  if (items === undefined || total === undefined) return <ListLoading label="Loading items..." />;
  if (items.length === 0 && tab === 'all') {
    return (
      <HiddenItemsEmpty
        icon={EMPTY.all.icon}
        title={EMPTY.all.title}
        kind=""
        counts={hidden}
        onShow={onTab}
      />
    );
  }
  if (items.length === 0) return <ListEmpty icon={EMPTY[tab].icon} title={EMPTY[tab].title} />;
  const toggle =
    tab !== 'all' ? (
      <ShowMore more={typed.more} onMore={typed.showMore} shown={items.length} />
    ) : total > HOME_PREVIEW ? (
      <div className="flex justify-center border-t border-zinc-200 p-2 dark:border-zinc-800">
        <Button variant="ghost" size="sm" onClick={() => setShowAll((v) => !v)} aria-expanded={showAll}>
          {showAll ? 'Show Less' : `View All (${total} items)`}
        </Button>
      </div>
    ) : null;
  return <ItemList items={items} label={`${TAB_LABEL[tab]} items`} footer={toggle} />;
}
