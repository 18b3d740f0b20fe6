import { MessageSquare } from 'lucide-react';
import { Link } from 'react-router';
import { cn, focusRing } from '../components/ui/cn';

/** '1 comment', '3 comments': the count's accessible name and tooltip. */
export function commentCountLabel(count: number): string {
  return count === 1 ? '1 comment' : `${count} comments`;
}

/**
 * An item's comment count as a small speech bubble with the number (ARCHITECTURE §4 `comments_count`,
 * kept by the server; absent reads as 0). Nothing at 0, so a quiet list stays quiet. With `to`, the
 * bubble is a link to the item's timeline.
 */
export function CommentCount({
  count,
  to,
  className,
}: {
  count: number | null | undefined;
  to?: string | null;
  className?: string;
}) {
  const n = count ?? 0;
  if (n <= 0) return null;
  const label = commentCountLabel(n);
  const body = (
    <>
      <MessageSquare className="size-3" aria-hidden />
      <span aria-hidden>{n}</span>
      <span className="sr-only">{label}</span>
    </>
  );
  const look = cn('inline-flex shrink-0 items-center gap-1 tabular-nums', className);
  return to ? (
    <Link to={to} title={label} className={cn(look, 'rounded-sm hover:underline', focusRing)}>
      {body}
    </Link>
  ) : (
    <span title={label} className={look}>
      {body}
    </span>
  );
}
