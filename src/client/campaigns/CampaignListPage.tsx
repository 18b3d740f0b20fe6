import { AlertCircle, CalendarDays, ChevronLeft, ChevronRight, Flag } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import type { ItemStatus } from '../../shared/item';
import { Button } from '../components/ui/Button';
import { cn, focusRing } from '../components/ui/cn';
import { ListEmpty, PageColumn, PageHeader } from '../components/ui/PageParts';
import { ProgressLine } from '../components/ui/Progress';
import { Skeleton } from '../components/ui/Skeleton';
import { formatDay, STATUS_PILL, statusText } from '../items/itemStyle';
import { QuickAddCard } from '../items/QuickAddCard';
import { MemberAvatars } from '../sharing/MemberAvatars';
import { isSharedCampaign } from '../sharing/queries';
import { useCampaignPage, useCampaignProgress } from './queries';

export default function CampaignListPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { status, page: result, refetch } = useCampaignPage(page);
  const progress = useCampaignProgress(result?.data.map((c) => c.id) ?? []);
  const goTo = (next: number) =>
    setParams((prev) => {
      const copy = new URLSearchParams(prev);
      if (next <= 1) copy.delete('page');
      else copy.set('page', String(next));
      return copy;
    });

  return (
    <PageColumn>
      <PageHeader title="Campaigns" subtitle="Your big goals and everything under them" />
      <QuickAddCard types={['campaign']} className="mb-4" />
      {status === 'loading' ? (
        <div role="status" aria-label="Loading campaigns..." className="grid gap-3 sm:grid-cols-2">
          {['a', 'b', 'c', 'd'].map((k) => (
            <div
              key={k}
              className="flex h-32 flex-col gap-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
            >
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-3 w-full" />
              <Skeleton className="mt-auto h-5 w-1/2" />
            </div>
          ))}
          <span className="sr-only">Loading campaigns...</span>
        </div>
      ) : status === 'error' || !result ? (
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-6 py-8 text-center dark:border-red-900 dark:bg-red-950/40"
        >
          <AlertCircle className="size-5 text-red-600 dark:text-red-400" aria-hidden />
          <p className="text-sm font-medium text-red-800 dark:text-red-200">Failed to load campaigns</p>
          <Button variant="outline" size="sm" onClick={refetch}>
            Try again
          </Button>
        </div>
      ) : result.data.length === 0 ? (
        <ListEmpty
          icon={<Flag aria-hidden />}
          title="No campaigns yet! Create a campaign to organize your big goals."
        />
      ) : (
        <>
          <ul aria-label="Campaigns" className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {result.data.map((c) => (
              <li key={c.id} className="min-w-0">
                <CampaignCard
                  id={c.id}
                  title={c.title}
                  description={c.description}
                  status={c.status}
                  due={c.due_date ?? c.end_date}
                  progress={progress?.get(c.id)}
                  shared={isSharedCampaign(c)}
                />
              </li>
            ))}
          </ul>
          <nav aria-label="Pagination" className="mt-6 flex items-center justify-between gap-3">
            <Button
              variant="outline"
              size="sm"
              disabled={result.current_page <= 1}
              onClick={() => goTo(result.current_page - 1)}
            >
              <ChevronLeft aria-hidden /> Previous
            </Button>
            <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-400" aria-live="polite">
              Page {result.current_page} of {result.last_page}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={result.current_page >= result.last_page}
              onClick={() => goTo(result.current_page + 1)}
            >
              Next <ChevronRight aria-hidden />
            </Button>
          </nav>
        </>
      )}
    </PageColumn>
  );
}

function CampaignCard({
  id,
  title,
  description,
  status,
  due,
  progress,
  shared,
}: {
  id: number;
  title: string;
  description: string | null;
  status: ItemStatus;
  due: string | null;
  progress?: { total: number; completed: number };
  /** Shared with others: the members' avatars show at the foot of the card. */
  shared: boolean;
}) {
  const dueText = formatDay(due);
  return (
    <Link
      to={`/campaigns/${id}`}
      className={cn(
        'flex h-full min-w-0 flex-col gap-2 rounded-xl border border-zinc-200 border-l-4 border-l-cyan-500 bg-white p-4 transition-colors duration-150 hover:border-zinc-300 hover:border-l-cyan-500 hover:bg-zinc-50 motion-reduce:transition-none dark:border-zinc-800 dark:border-l-cyan-400 dark:bg-zinc-900 dark:hover:bg-zinc-800/60',
        focusRing,
      )}
    >
      <h2 className="truncate text-[15px] font-semibold text-zinc-900 dark:text-zinc-50">{title}</h2>
      {description ? (
        <p className="line-clamp-2 text-sm break-words text-zinc-600 dark:text-zinc-400">{description}</p>
      ) : (
        <p className="text-sm text-zinc-500 italic dark:text-zinc-400">No description</p>
      )}
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-1 text-xs">
        <span
          className={cn('inline-flex h-5 items-center rounded-full px-2 font-medium', STATUS_PILL[status])}
        >
          Status: {statusText(status)}
        </span>
        {dueText ? (
          <span className="inline-flex items-center gap-1 text-zinc-600 dark:text-zinc-400">
            <CalendarDays className="size-3.5" aria-hidden />
            Due: {dueText}
          </span>
        ) : null}
        {shared ? <MemberAvatars campaignId={id} className="ml-auto" /> : null}
      </div>
      {progress ? <ProgressLine total={progress.total} completed={progress.completed} /> : null}
    </Link>
  );
}
