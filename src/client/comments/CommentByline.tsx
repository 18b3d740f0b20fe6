import { formatDistanceToNow } from 'date-fns';
import type { ReactNode } from 'react';
import { Avatar } from '../components/ui/Avatar';

function ago(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatDistanceToNow(date, { addSuffix: true });
}

/** When something happened on a timeline: how long ago, the full date and time on hover. */
export function TimelineTime({ at }: { at: string }) {
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {ago(at)}
    </time>
  );
}

/** A comment card's first line: the author's avatar and name, then what `children` says of it. */
export function CommentByline({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <Avatar name={name} size="sm" />
      <p className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2">
        <span className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">{name}</span>
        <span className="text-xs whitespace-nowrap text-zinc-500 dark:text-zinc-400">{children}</span>
      </p>
    </>
  );
}
