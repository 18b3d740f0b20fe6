import { formatDistanceToNow } from 'date-fns';
import { AlertCircle, History, WifiOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { activityDetails, assigneeOf, membershipPhrase, rollUpReason } from '../../shared/activity';
import type { ActivityEntry } from '../../shared/item';
import { ViaToken } from '../comments/ViaToken';
import type { BadgeTone } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { EmptyState } from '../components/ui/EmptyState';
import { Skeleton } from '../components/ui/Skeleton';
import { useCampaignActivity } from './queries';

/** The spec's action colours: created green, updated blue, deleted red, completed purple, assigned orange. */
export const ACTION_TONE: Record<string, BadgeTone> = {
  created: 'green',
  updated: 'blue',
  deleted: 'red',
  completed: 'purple',
  assigned: 'orange',
  commented: 'cyan',
};

/** The action's colour as a small dot (DESIGN: colours mark, they do not fill). */
const DOT: Record<BadgeTone, string> = {
  neutral: 'bg-zinc-400 dark:bg-zinc-500',
  indigo: 'bg-indigo-500 dark:bg-indigo-400',
  green: 'bg-green-600 dark:bg-green-400',
  amber: 'bg-amber-500 dark:bg-amber-400',
  red: 'bg-red-600 dark:bg-red-400',
  cyan: 'bg-cyan-600 dark:bg-cyan-400',
  blue: 'bg-blue-600 dark:bg-blue-400',
  purple: 'bg-purple-600 dark:bg-purple-400',
  orange: 'bg-orange-500 dark:bg-orange-400',
};

function relative(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatDistanceToNow(date, { addSuffix: true });
}

const EMPTY_TEXT = 'No activity yet. Start by adding tasks or making changes to track progress.';
export const OFFLINE_TEXT = "You're offline — this needs a connection";

function ItemName({ entry }: { entry: ActivityEntry }) {
  return (
    <>
      {entry.item.type}{' '}
      <span className="font-medium text-zinc-900 dark:text-zinc-100">“{entry.item.title}”</span>
    </>
  );
}

/** The entry as one sentence: 'Alex assigned todo “Buy tape” to Sam', 'Campaign “X” was completed automatically, because …'. */
export function EntryLine({ entry }: { entry: ActivityEntry }) {
  const actor = (
    <span className="font-medium text-zinc-900 dark:text-zinc-100">{entry.user?.name ?? 'Someone'}</span>
  );
  const reason = rollUpReason(entry);
  if (reason) {
    const type = entry.item.type.charAt(0).toUpperCase() + entry.item.type.slice(1);
    const status = entry.metadata.status as { new?: unknown } | undefined;
    const verb =
      entry.action !== 'updated'
        ? `was ${entry.action}`
        : status?.new === 'in_progress'
          ? 'was started'
          : 'changed';
    return (
      <>
        {type} <span className="font-medium text-zinc-900 dark:text-zinc-100">“{entry.item.title}”</span>{' '}
        {verb} automatically, {reason}
      </>
    );
  }
  const membership = membershipPhrase(entry.action, entry.metadata);
  if (membership !== null) {
    // 'Alice made Bob an editor of campaign “Fair”', never the action's key or its metadata.
    return (
      <>
        {actor} {membership}
        {membership === 'left' ? ' ' : membership.startsWith('removed') ? ' from ' : ' of '}
        <ItemName entry={entry} />
      </>
    );
  }
  if (entry.action === 'assigned') {
    const to = assigneeOf(entry);
    if (to === null)
      return (
        <>
          {actor} unassigned <ItemName entry={entry} />
        </>
      );
    return (
      <>
        {actor} assigned <ItemName entry={entry} />
        {to ? (
          <>
            {' '}
            to <span className="font-medium text-zinc-900 dark:text-zinc-100">{to}</span>
          </>
        ) : null}
      </>
    );
  }
  return (
    <>
      {actor} {entry.action === 'commented' ? 'commented on' : entry.action} <ItemName entry={entry} />
    </>
  );
}

/** One entry of the feed: its sentence, who it came through (a token), when, and its details. */
export function Entry({ entry }: { entry: ActivityEntry }) {
  const details = activityDetails(entry);
  return (
    <li className="flex gap-3 rounded-xl border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
      <span
        aria-hidden
        data-action={entry.action}
        className={`mt-1.5 size-2.5 shrink-0 rounded-full ${DOT[ACTION_TONE[entry.action] ?? 'neutral']}`}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-col gap-x-3 gap-y-0.5 sm:flex-row sm:items-baseline sm:justify-between">
          <p className="min-w-0 text-sm break-words text-zinc-700 dark:text-zinc-300">
            <EntryLine entry={entry} />
            {entry.via ? <ViaToken name={entry.via} /> : null}
          </p>
          <time
            dateTime={entry.created_at}
            title={new Date(entry.created_at).toLocaleString()}
            className="shrink-0 text-xs whitespace-nowrap text-zinc-500 dark:text-zinc-400"
          >
            {relative(entry.created_at)}
          </time>
        </div>
        {details.length > 0 ? (
          <ul className="mt-1 flex flex-col gap-0.5 text-xs text-zinc-600 dark:text-zinc-400">
            {details.map((line) => (
              <li key={line} className="min-w-0 break-words">
                {line}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

function Notice({
  tone,
  icon,
  children,
  action,
}: {
  tone: 'offline' | 'error';
  icon: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  const colours =
    tone === 'error'
      ? 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200'
      : 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200';
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border px-4 py-3 text-sm ${colours}`}
    >
      <span className="[&_svg]:size-4" aria-hidden>
        {icon}
      </span>
      <div className="min-w-0 flex-1">{children}</div>
      {action}
    </div>
  );
}

function EntryList({ entries, label = 'Activity' }: { entries: ActivityEntry[]; label?: string }) {
  return (
    <ol aria-label={label} className="flex flex-col gap-2">
      {entries.map((entry) => (
        <Entry key={entry.id} entry={entry} />
      ))}
    </ol>
  );
}

/**
 * The campaign's activity: the server's pages when signed in; offline, what was last loaded with a
 * notice (and a fresh load as soon as the connection returns); for guests, the history the device
 * can tell (created and completed items).
 */
export function ActivityFeed({ campaignId }: { campaignId: number }) {
  const { source, online, query, local } = useCampaignActivity(campaignId);

  if (source === 'local') {
    if (local === undefined) return <FeedSkeleton />;
    if (local.length === 0) return <EmptyState icon={<History aria-hidden />} title={EMPTY_TEXT} />;
    return (
      <div className="flex flex-col gap-3">
        <p className="text-xs text-zinc-500 dark:text-zinc-400">History from this device.</p>
        <EntryList entries={local} />
      </div>
    );
  }

  const entries = query.data?.pages.flatMap((p) => p.data) ?? null;
  const offlineNotice = !online ? (
    <Notice tone="offline" icon={<WifiOff />}>
      <p className="font-medium">{OFFLINE_TEXT}</p>
      <p className="text-xs opacity-90">
        {entries
          ? 'Showing the activity last loaded. It updates when you are back online.'
          : 'Activity loads when you are back online.'}
      </p>
    </Notice>
  ) : null;

  if (!entries) {
    if (offlineNotice) return offlineNotice;
    if (query.isError) {
      return (
        <Notice
          tone="error"
          icon={<AlertCircle />}
          action={
            <Button
              variant="outline"
              size="sm"
              onClick={() => void query.refetch()}
              disabled={query.isFetching}
            >
              {query.isFetching ? 'Trying…' : 'Try again'}
            </Button>
          }
        >
          <p className="font-medium">Failed to load activity. Please try again.</p>
          <p className="text-xs opacity-90">Outpost could not reach its server.</p>
        </Notice>
      );
    }
    return <FeedSkeleton />;
  }
  if (entries.length === 0)
    return (
      <div className="flex flex-col gap-3">
        {offlineNotice}
        <EmptyState icon={<History aria-hidden />} title={EMPTY_TEXT} />
      </div>
    );
  return (
    <div className="flex flex-col gap-3">
      {offlineNotice}
      <EntryList entries={entries} />
      {query.hasNextPage && online ? (
        <Button
          variant="outline"
          size="sm"
          className="self-center"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}

function FeedSkeleton() {
  return (
    <div role="status" aria-label="Loading activity" className="flex flex-col gap-2">
      {Array.from({ length: 4 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders never reorder
        <div key={i} className="flex gap-3 rounded-xl border border-zinc-200 px-4 py-3 dark:border-zinc-800">
          <Skeleton className="mt-1.5 size-2.5 shrink-0 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-3.5 w-2/3" />
            <Skeleton className="h-3 w-1/3" />
          </div>
        </div>
      ))}
    </div>
  );
}
