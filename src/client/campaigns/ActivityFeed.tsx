import { formatDistanceToNow } from 'date-fns';
import { AlertCircle, History } from 'lucide-react';
import { Badge, type BadgeTone } from '../components/ui/Badge';
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
};

/** One metadata value in words: a change reads 'pending → in progress', a flag 'yes' or 'no'. */
export function metadataValue(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value.replace(/_/g, ' ');
  if (Array.isArray(value)) return value.map(metadataValue).join(', ');
  if (typeof value === 'object' && value !== null) {
    const change = value as Record<string, unknown>;
    if ('old' in change || 'new' in change) {
      const from = change.old === null || change.old === undefined ? 'none' : metadataValue(change.old);
      const to = change.new === null || change.new === undefined ? 'none' : metadataValue(change.new);
      return `${from} → ${to}`;
    }
    return Object.entries(change)
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${metadataValue(v)}`)
      .join(', ');
  }
  return String(value);
}

function metadataLines(metadata: Record<string, unknown> | null | undefined): [string, string][] {
  if (!metadata) return [];
  return Object.entries(metadata)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => [k.replace(/_/g, ' '), metadataValue(v)]);
}

function relative(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatDistanceToNow(date, { addSuffix: true });
}

const EMPTY_TEXT = 'No activity yet. Start by adding tasks or making changes to track progress.';

/**
 * The campaign's activity, page by page from the server. Guests (and campaigns that only exist on
 * this device) have no server history, so they see the empty state without any request.
 */
export function ActivityFeed({ campaignId }: { campaignId: number }) {
  const { enabled, query } = useCampaignActivity(campaignId);

  if (!enabled) return <EmptyState icon={<History aria-hidden />} title={EMPTY_TEXT} />;
  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading activity" className="flex flex-col gap-3">
        {Array.from({ length: 4 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders never reorder
          <div key={i} className="flex gap-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
            <Skeleton className="size-8 shrink-0 rounded-full" />
            <div className="flex flex-1 flex-col gap-2">
              <Skeleton className="h-3.5 w-1/2" />
              <Skeleton className="h-3 w-3/4" />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div
        role="alert"
        className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-6 py-8 text-center dark:border-red-900 dark:bg-red-950/40"
      >
        <AlertCircle className="size-5 text-red-600 dark:text-red-400" aria-hidden />
        <p className="text-sm font-medium text-red-800 dark:text-red-200">
          Failed to load activity. Please try again.
        </p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const entries = query.data.pages.flatMap((p) => p.data);
  if (entries.length === 0) return <EmptyState icon={<History aria-hidden />} title={EMPTY_TEXT} />;
  return (
    <div className="flex flex-col gap-3">
      <ol aria-label="Activity" className="flex flex-col gap-2">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className="rounded-xl border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900"
          >
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
              <span className="font-medium text-zinc-900 dark:text-zinc-100">
                {entry.user?.name ?? 'Someone'}
              </span>
              <Badge tone={ACTION_TONE[entry.action] ?? 'neutral'}>{entry.action}</Badge>
              {entry.item ? (
                <span className="min-w-0 truncate text-zinc-700 dark:text-zinc-300">
                  {entry.item.type} <span className="font-medium">“{entry.item.title}”</span>
                </span>
              ) : null}
              <time
                dateTime={entry.created_at}
                title={new Date(entry.created_at).toLocaleString()}
                className="ml-auto text-xs whitespace-nowrap text-zinc-500 dark:text-zinc-400"
              >
                {relative(entry.created_at)}
              </time>
            </div>
            {entry.description ? (
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{entry.description}</p>
            ) : null}
            {metadataLines(entry.metadata).length > 0 ? (
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
                {metadataLines(entry.metadata).map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-zinc-500 first-letter:uppercase dark:text-zinc-400">{k}</dt>
                    <dd className="min-w-0 truncate text-zinc-700 dark:text-zinc-300">{v}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </li>
        ))}
      </ol>
      {query.hasNextPage ? (
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
