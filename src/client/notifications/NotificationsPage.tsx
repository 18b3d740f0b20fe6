import { formatDistanceToNow } from 'date-fns';
import { Bell, BellRing, CheckCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { NotificationEntry, NotificationKind } from '../../shared/notifications';
import { useSignedInUser } from '../app/door';
import { Avatar } from '../components/ui/Avatar';
import { Button } from '../components/ui/Button';
import { cn, focusRing } from '../components/ui/cn';
import { EmptyState } from '../components/ui/EmptyState';
import { SkeletonRows } from '../components/ui/Skeleton';
import { useLoadMore, useMarkRead } from './mutations';
import { useEntryRoute, useNotifications } from './queries';

/** The spec's action colours as small dots: what kind of change an entry is at a glance. */
const KIND_DOT: Record<NotificationKind, string> = {
  assigned: 'bg-orange-500',
  unassigned: 'bg-orange-300 dark:bg-orange-700',
  completed: 'bg-purple-500',
  reopened: 'bg-blue-400',
  updated: 'bg-blue-500',
  deleted: 'bg-red-500',
  restored: 'bg-green-500',
  due: 'bg-indigo-500',
  mentioned: 'bg-teal-500',
  commented: 'bg-teal-400',
  added: 'bg-emerald-500',
  removed: 'bg-zinc-400 dark:bg-zinc-500',
  role_changed: 'bg-emerald-400',
};

function ago(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatDistanceToNow(date, { addSuffix: true });
}

function EntryLink({
  item,
  commentId,
  onOpen,
  className,
  children,
}: {
  item: NonNullable<NotificationEntry['item']>;
  /** A comment's entry opens the item scrolled to that comment. */
  commentId?: number | null;
  onOpen: () => void;
  className: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={`${useEntryRoute(item)}${commentId ? `#comment-${commentId}` : ''}`}
      onClick={onOpen}
      className={className}
    >
      {children}
    </Link>
  );
}

function EntryRow({ entry, onOpen }: { entry: NotificationEntry; onOpen: () => void }) {
  const unread = entry.read_at === null;
  const body = (
    <>
      {entry.kind === 'due' ? (
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
          <BellRing className="size-4" aria-hidden />
        </span>
      ) : (
        <Avatar name={entry.actor?.name ?? '?'} userId={entry.actor?.id} size="sm" />
      )}
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span
          className={cn(
            'text-sm',
            unread ? 'font-semibold text-zinc-900 dark:text-zinc-50' : 'text-zinc-700 dark:text-zinc-300',
          )}
        >
          {entry.text}
        </span>
        {/* zinc-500 on an unread row's indigo tint was 4.46:1; zinc-600 / zinc-300 pass AA on both. */}
        <span
          className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-300"
          data-testid="notification-meta"
        >
          <span aria-hidden className={cn('size-1.5 rounded-full', KIND_DOT[entry.kind])} />
          <time dateTime={entry.created_at} title={new Date(entry.created_at).toLocaleString()}>
            {ago(entry.created_at)}
          </time>
          {entry.item === null ? <span>· no longer available</span> : null}
        </span>
      </span>
      {unread ? (
        <span className="mt-1.5 size-2.5 shrink-0 rounded-full bg-indigo-600 dark:bg-indigo-400">
          <span className="sr-only">Unread</span>
        </span>
      ) : null}
    </>
  );
  const rowClasses = cn(
    'flex w-full items-start gap-3 rounded-lg px-3 py-3 text-left',
    unread
      ? 'bg-indigo-50/70 hover:bg-indigo-50 dark:bg-indigo-950/40 dark:hover:bg-indigo-950/60'
      : 'hover:bg-zinc-50 dark:hover:bg-zinc-900',
    focusRing,
  );
  return (
    <li>
      {entry.item ? (
        <EntryLink item={entry.item} commentId={entry.comment_id} onOpen={onOpen} className={rowClasses}>
          {body}
        </EntryLink>
      ) : (
        <button type="button" onClick={onOpen} className={rowClasses}>
          {body}
        </button>
      )}
    </li>
  );
}

/**
 * What others did to your items and your reminders, newest first: from the server when online, from
 * the device's copy of the last fetch when not. Opening an entry marks it read.
 */
export default function NotificationsPage() {
  const user = useSignedInUser();
  const state = useNotifications();
  const markRead = useMarkRead();
  const loadMore = useLoadMore();
  const entries = user ? (state.entries ?? []) : [];
  const loading = user !== null && state.entries === null;

  return (
    <section aria-labelledby="notifications-heading" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-2">
        <h1 id="notifications-heading" className="text-2xl font-semibold tracking-tight">
          Recent Notifications
        </h1>
        {user && state.unread > 0 ? (
          <Button variant="outline" size="sm" onClick={() => void markRead()}>
            <CheckCheck className="size-4" aria-hidden />
            Mark all as read
          </Button>
        ) : null}
      </div>
      {user && state.unread > 0 ? (
        <p className="sr-only" aria-live="polite">
          {state.unread} unread
        </p>
      ) : null}
      {state.fromCache && entries.length > 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Showing what was last fetched; new notifications arrive when you are back online.
        </p>
      ) : null}
      {loading ? (
        <SkeletonRows count={4} />
      ) : entries.length === 0 ? (
        <EmptyState
          icon={<Bell />}
          title="No notifications yet."
          description={
            user
              ? 'When someone assigns you an item or changes one of yours, it shows up here.'
              : 'Sign in to hear when others change your items. Reminders still show while the app is open.'
          }
        />
      ) : (
        <ul aria-label="Notifications" className="flex flex-col gap-1">
          {entries.map((entry) => (
            <EntryRow
              key={entry.id}
              entry={entry}
              onOpen={() => {
                if (entry.read_at === null) void markRead([entry.id]);
              }}
            />
          ))}
        </ul>
      )}
      {user && state.hasMore ? (
        <Button variant="ghost" className="self-center" onClick={() => void loadMore().catch(() => {})}>
          Show older
        </Button>
      ) : null}
    </section>
  );
}
