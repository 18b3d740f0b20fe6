import { GanttChart, ListPlus } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { buttonClasses } from '../components/ui/Button';
import { ListEmpty, ListLoading, PageColumn, ShowMore, useTabParam } from '../components/ui/PageParts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/Tabs';
import {
  AssigneeFact,
  DateFact,
  EstimateFact,
  LabelsFact,
  NO_OPTIONAL_FACTS,
  PriorityFact,
  ReminderFact,
  useOptionalFacts,
} from '../items/DetailEditors';
import {
  DetailHeading,
  DetailLoading,
  DetailNotFound,
  Fact,
  ProgressBlock,
  ViewerNote,
} from '../items/DetailParts';
import { ItemList } from '../items/ItemList';
import { formatDay, priorityName, statusText } from '../items/itemStyle';
import { useOrderMutations } from '../items/orderMutations';
import { QuickAddCard } from '../items/QuickAddCard';
import { useChildrenPage, useInside, useItem } from '../items/queries';
import { preloadSortable } from '../items/sortableModule';
import { NewFromTemplateButton } from '../items/TemplateButton';
import { useItemAddress } from '../items/useItemAddress';
import { MemberAvatars } from '../sharing/MemberAvatars';
import { roleOf } from '../sharing/queries';
import { ShareButton } from '../sharing/ShareDialog';
import { TimePanel } from '../time/TimePanel';
import { ActivityFeed } from './ActivityFeed';
import { CampaignMenu } from './CampaignMenu';

// This page's lists can be reordered: drag and drop loads beside its rows, not after them.
void preloadSortable();

// The timeline (comments, history) loads after the page: TanStack Query, linkify and the picker with it.
const Timeline = lazy(() => import('../comments/Timeline'));

// The board (and its drag and drop) loads when its tab opens.
const CampaignBoard = lazy(() => import('../board/CampaignBoard'));

const TABS = ['contents', 'board', 'activity'] as const;
const BACK = { to: '/campaigns', label: 'Campaigns' };

const CAMPAIGN_FACTS = ['start_date', 'due_date', 'end_date', 'remind_at', 'estimate_minutes'] as const;

export default function CampaignDetailPage() {
  const id = Number(useParams().id);
  const campaign = useItem(Number.isFinite(id) ? id : 0);
  useItemAddress(campaign, id);
  const [tab, setTab] = useTabParam(TABS, 'contents');
  // Contents' rows are read only while Contents shows: the Board reads the same children itself, and
  // every change under the campaign read all of them twice (npm run bench -- board-drag, the drop).
  const page = useChildrenPage(tab === 'contents' && Number.isFinite(id) ? id : 0);
  const children = page.items;
  const inside = useInside(Number.isFinite(id) ? id : 0);
  const optional = useOptionalFacts(campaign ?? NO_OPTIONAL_FACTS, CAMPAIGN_FACTS);
  const order = useOrderMutations();

  if (campaign === undefined) return <DetailLoading label="Loading campaign..." />;
  if (campaign === null || campaign.type !== 'campaign') {
    return (
      <DetailNotFound
        title="Campaign not found"
        back={{ to: '/campaigns', label: 'Back to Campaigns' }}
        itemId={id}
      />
    );
  }
  // Through the whole subtree (shared subtreeProgress's rule), from the campaign's counters.
  const { total, completed } = inside?.progress ?? { total: 0, completed: 0 };
  // A viewer reads everything and changes nothing (§5 'Roles'): no quick add, status or editors.
  const readOnly = roleOf(campaign) === 'viewer';

  return (
    <PageColumn>
      <DetailHeading item={campaign} back={BACK} inside={inside} readOnly={readOnly} />
      <div className="-mt-2 mb-4 flex flex-wrap items-center gap-3">
        <MemberAvatars campaignId={campaign.id} />
        <ShareButton campaign={campaign} />
        <Link to={`/campaigns/${campaign.id}/timeline`} className={buttonClasses('outline', 'sm')}>
          <GanttChart aria-hidden />
          Timeline
        </Link>
        <CampaignMenu campaign={campaign} />
      </div>
      {readOnly ? <ViewerNote /> : null}
      {readOnly ? (
        <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Created by">{campaign.created_by?.name ?? 'Unknown'}</Fact>
          <Fact label="Assigned to">{campaign.assignedUser?.name ?? 'Unassigned'}</Fact>
          <Fact label="Status">{statusText(campaign.status)}</Fact>
          <Fact label="Priority">{priorityName(campaign.priority ?? 4)}</Fact>
          {campaign.due_date ? <Fact label="Due">{formatDay(campaign.due_date)}</Fact> : null}
          {campaign.end_date ? <Fact label="End date">{formatDay(campaign.end_date)}</Fact> : null}
          {campaign.labels && campaign.labels.length > 0 ? (
            <Fact label="Labels">{campaign.labels.join(', ')}</Fact>
          ) : null}
        </dl>
      ) : (
        <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Created by">{campaign.created_by?.name ?? 'Unknown'}</Fact>
          <AssigneeFact item={campaign} />
          <Fact label="Status">{statusText(campaign.status)}</Fact>
          <PriorityFact item={campaign} />
          {optional.shown('start_date') ? (
            <DateFact item={campaign} field="start_date" label="Start" />
          ) : null}
          {optional.shown('due_date') ? <DateFact item={campaign} field="due_date" label="Due" /> : null}
          {optional.shown('end_date') ? <DateFact item={campaign} field="end_date" label="End date" /> : null}
          {optional.shown('remind_at') ? <ReminderFact item={campaign} /> : null}
          {optional.shown('estimate_minutes') ? <EstimateFact item={campaign} /> : null}
          <LabelsFact item={campaign} />
        </dl>
      )}
      {readOnly ? null : optional.addButtons}
      <TimePanel item={campaign} readOnly={readOnly} />
      {total > 0 ? <ProgressBlock total={total} completed={completed} /> : null}
      <Tabs value={tab} onValueChange={setTab} className="mt-5">
        {/* As wide as its tabs on a phone too (the list's own class is w-full, hence the !): stretched,
            its last tab lay where the floating add button floats. */}
        <TabsList aria-label="Campaign sections" className="w-fit!">
          <TabsTrigger value="contents">Contents</TabsTrigger>
          <TabsTrigger value="board">Board</TabsTrigger>
          <TabsTrigger value="activity">Activity</TabsTrigger>
        </TabsList>
        <TabsContent value="contents" className="flex flex-col gap-4">
          {readOnly ? null : <QuickAddCard types={['task', 'todo']} parentId={campaign.id} />}
          {readOnly ? null : (
            <div className="-mt-2 flex justify-end">
              <NewFromTemplateButton parent={{ id: campaign.id, type: 'campaign', title: campaign.title }} />
            </div>
          )}
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
              onMove={readOnly ? undefined : (item, to) => void order.move(children, item, to)}
              footer={<ShowMore more={page.more} onMore={page.showMore} shown={children.length} />}
            />
          )}
        </TabsContent>
        <TabsContent value="board">
          {tab === 'board' ? (
            <Suspense fallback={<ListLoading label="Loading board..." rows={3} />}>
              <CampaignBoard campaignId={campaign.id} readOnly={readOnly} />
            </Suspense>
          ) : null}
        </TabsContent>
        <TabsContent value="activity">
          {tab === 'activity' ? <ActivityFeed campaignId={campaign.id} /> : null}
        </TabsContent>
      </Tabs>
      <Suspense fallback={null}>
        <Timeline item={campaign} ownerId={campaign.user_id} />
      </Suspense>
    </PageColumn>
  );
}
