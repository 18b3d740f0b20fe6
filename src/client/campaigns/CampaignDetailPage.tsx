import { ListPlus } from 'lucide-react';
import { useParams } from 'react-router';
import { ListEmpty, ListLoading, PageColumn, ShowMore, useTabParam } from '../components/ui/PageParts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/Tabs';
import {
  AssigneeFact,
  DateFact,
  LabelsFact,
  NO_OPTIONAL_FACTS,
  PriorityFact,
  ReminderFact,
  useOptionalFacts,
} from '../items/DetailEditors';
import { DetailHeading, DetailLoading, DetailNotFound, Fact, ProgressBlock } from '../items/DetailParts';
import { ItemList } from '../items/ItemList';
import { statusText } from '../items/itemStyle';
import { QuickAddCard } from '../items/QuickAddCard';
import { useChildrenPage, useInside, useItem } from '../items/queries';
import { ActivityFeed } from './ActivityFeed';

const TABS = ['contents', 'activity'] as const;
const BACK = { to: '/campaigns', label: 'Campaigns' };

const CAMPAIGN_FACTS = ['due_date', 'end_date', 'remind_at'] as const;

export default function CampaignDetailPage() {
  const id = Number(useParams().id);
  const campaign = useItem(Number.isFinite(id) ? id : 0);
  const page = useChildrenPage(id);
  const children = page.items;
  const inside = useInside(Number.isFinite(id) ? id : 0);
  const [tab, setTab] = useTabParam(TABS, 'contents');
  const optional = useOptionalFacts(campaign ?? NO_OPTIONAL_FACTS, CAMPAIGN_FACTS);

  if (campaign === undefined) return <DetailLoading label="Loading campaign..." />;
  if (campaign === null || campaign.type !== 'campaign') {
    return (
      <DetailNotFound title="Campaign not found" back={{ to: '/campaigns', label: 'Back to Campaigns' }} />
    );
  }
  // Through the whole subtree (shared subtreeProgress's rule), from the campaign's counters.
  const { total, completed } = inside?.progress ?? { total: 0, completed: 0 };

  return (
    <PageColumn>
      <DetailHeading item={campaign} back={BACK} inside={inside} />
      <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Fact label="Created by">{campaign.created_by?.name ?? 'Unknown'}</Fact>
        <AssigneeFact item={campaign} />
        <Fact label="Status">{statusText(campaign.status)}</Fact>
        <PriorityFact item={campaign} />
        {optional.shown('due_date') ? <DateFact item={campaign} field="due_date" label="Due" /> : null}
        {optional.shown('end_date') ? <DateFact item={campaign} field="end_date" label="End date" /> : null}
        {optional.shown('remind_at') ? <ReminderFact item={campaign} /> : null}
        <LabelsFact item={campaign} />
      </dl>
      {optional.addButtons}
      {total > 0 ? <ProgressBlock total={total} completed={completed} /> : null}
      <Tabs value={tab} onValueChange={setTab} className="mt-5">
        <TabsList aria-label="Campaign sections" className="sm:w-fit">
          <TabsTrigger value="contents">Contents</TabsTrigger>
          <TabsTrigger value="activity">Activity</TabsTrigger>
        </TabsList>
        <TabsContent value="contents" className="flex flex-col gap-4">
          <QuickAddCard types={['task', 'todo']} parentId={campaign.id} />
          {children === undefined ? (
            <ListLoading label="Loading items..." rows={3} />
          ) : children.length === 0 ? (
            <ListEmpty
              icon={<ListPlus aria-hidden />}
              title="No tasks or todos yet. Add your first item above!"
            />
          ) : (
            <ItemList
              items={children}
              label={`Contents of ${campaign.title}`}
              showParent={false}
              footer={<ShowMore more={page.more} onMore={page.showMore} shown={children.length} />}
            />
          )}
        </TabsContent>
        <TabsContent value="activity">
          {tab === 'activity' ? <ActivityFeed campaignId={campaign.id} /> : null}
        </TabsContent>
      </Tabs>
    </PageColumn>
  );
}
