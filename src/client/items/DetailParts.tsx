import { ArrowLeft, Eye, SearchX } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ItemStatus, ItemType } from '../../shared/item';
import { type Departure, VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import { progressOf } from '../../shared/progress';
import { useCommand } from '../app/door';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Button } from '../components/ui/Button';
import { cn, focusRing } from '../components/ui/cn';
import { EmptyState } from '../components/ui/EmptyState';
import { Progress } from '../components/ui/Progress';
import { Skeleton } from '../components/ui/Skeleton';
import { type LiveQuery, useLive } from '../data/live';
import type { LostItem } from '../data/store/keptChanges';
import { DetailDescription } from './DetailEditors';
import { InlineTitle, useSavingTitle } from './InlineTitle';
import { formatDay, priorityName, STATUS_PILL, statusText, TYPE_DOT, TYPE_LABEL } from './itemStyle';
import { useItemMutations } from './mutations';
import type { LocalItem } from './queries';
import { nextStatus, statusActionLabel } from './StatusControl';

/** A small labelled fact ('Created by: Sam') in the detail pages' fact grid. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-lg border border-zinc-200 bg-white px-3 py-2.5 dark:border-zinc-800 dark:bg-zinc-900">
      <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}:</dt>
      <dd className="mt-0.5 truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">{children}</dd>
    </div>
  );
}

/** A viewer's page says why nothing on it can be changed (§5 'Roles'). */
/** What a campaign's viewer sees of a task or todo: its facts as text, no control (§5 'Roles'). */
export function ViewerFacts({
  item,
  parent,
  endDate = false,
}: {
  item: Pick<
    LocalItem,
    'created_by' | 'assignedUser' | 'status' | 'priority' | 'due_date' | 'end_date' | 'labels'
  >;
  /** The parent's fact: its label ('Campaign', 'In') and title, when the viewer knows one. */
  parent: { label: string; title: string } | null;
  /** Whether an end date shows (a task's, from an import). */
  endDate?: boolean;
}) {
  return (
    <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
      <Fact label="Created by">{item.created_by?.name ?? 'Unknown'}</Fact>
      <Fact label="Assigned to">{item.assignedUser?.name ?? 'Unassigned'}</Fact>
      <Fact label="Status">{statusText(item.status)}</Fact>
      <Fact label="Priority">{priorityName(item.priority ?? 4)}</Fact>
      {item.due_date ? <Fact label="Due">{formatDay(item.due_date)}</Fact> : null}
      {endDate && item.end_date ? <Fact label="End date">{formatDay(item.end_date)}</Fact> : null}
      {parent ? <Fact label={parent.label}>{parent.title}</Fact> : null}
      {item.labels && item.labels.length > 0 ? <Fact label="Labels">{item.labels.join(', ')}</Fact> : null}
    </dl>
  );
}

export function ViewerNote() {
  return (
    <p
      role="note"
      className="mb-4 flex items-start gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
    >
      <Eye className="mt-0.5 size-4 shrink-0" aria-hidden />
      {VIEWER_READ_ONLY_MESSAGE}
    </p>
  );
}

export function StatusPill({ status }: { status: ItemStatus }) {
  return (
    <span
      className={cn(
        'inline-flex h-5 items-center rounded-full px-2 text-xs font-medium',
        STATUS_PILL[status],
      )}
    >
      {statusText(status)}
    </span>
  );
}

/** 'N of M done', the percentage and a thin bar. */
export function ProgressBlock({ total, completed }: { total: number; completed: number }) {
  // Counted through the whole subtree (shared subtreeProgress): a task's todos count in its campaign.
  const { percent } = progressOf(total, completed);
  return (
    <section
      aria-label="Progress"
      className="rounded-xl border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="mb-2 flex items-baseline justify-between text-sm">
        <span className="font-medium text-zinc-900 dark:text-zinc-100">
          {completed} of {total} done
        </span>
        <span className="text-zinc-600 tabular-nums dark:text-zinc-400">{percent}%</span>
      </div>
      <Progress value={percent} label={`${percent}% complete`} tone={percent === 100 ? 'green' : 'indigo'} />
    </section>
  );
}

// An item's files load with its page, after it: never with Home (DESIGN.md release 5, the strip).
const AttachmentStrip = lazy(() => import('../attachments/AttachmentStrip'));

/** Titles longer than this are set smaller on the detail pages. */
const LONG_TITLE = 60;

interface HeadingItem {
  id: number;
  type: ItemType;
  title: string;
  status: ItemStatus;
  description: string | null;
  parent_id: number | null;
  completed_at: string | null;
}

/** What sits inside an item (children and the task children's children), from its counters. */
export interface InsideCounts {
  inside: number;
  open: number;
}

/**
 * Title (click to rename), type and status, and the Start/Complete/Reopen button. Completing an item
 * with open items inside asks first ('Complete 3 open items too?'); Reopen keeps status and progress
 * in agreement (see the shared reopenDirect). `inside` is live from the item's counters (undefined
 * while it loads; a todo has nothing inside).
 */
export function DetailHeading({
  item,
  back,
  inside,
  readOnly = false,
}: {
  item: HeadingItem;
  back?: { to: string; label: string } | null;
  inside?: InsideCounts;
  /** A viewer's page (§5 'Roles'): the title, status and description are shown, not editable. */
  readOnly?: boolean;
}) {
  const { rename, setStatus, complete, reopen } = useItemMutations();
  const [title, saveTitle] = useSavingTitle(item.title, (next) => rename(item, next));
  const [asking, setAsking] = useState(false);
  const action = statusActionLabel(item.type, item.status);
  const open = inside?.open ?? 0;
  const onAction = () => {
    if (action === 'Complete') {
      if (open > 0) setAsking(true);
      else void complete(item, 0);
    } else if (action === 'Reopen' && inside && inside.inside > 0) {
      void reopen(item);
    } else {
      void setStatus(item, nextStatus(item.type, item.status));
    }
  };
  return (
    <header className="mb-5 flex min-w-0 flex-col gap-3">
      {back ? (
        // On a phone the header's Back is the page's one back control (issue 50: two were one too many).
        <Link
          to={back.to}
          data-detail-back
          className={cn(
            'hidden w-fit max-w-full items-center gap-1 truncate rounded-sm text-sm text-zinc-600 hover:text-zinc-900 md:inline-flex dark:text-zinc-400 dark:hover:text-zinc-100',
            focusRing,
          )}
        >
          <ArrowLeft className="size-4 shrink-0" aria-hidden />
          <span className="truncate">{back.label}</span>
        </Link>
      ) : null}
      <div className="flex items-center gap-2 text-xs font-medium text-zinc-600 dark:text-zinc-400">
        <span aria-hidden className={cn('size-2 rounded-full', TYPE_DOT[item.type])} />
        {TYPE_LABEL[item.type]}
        <StatusPill status={item.status} />
      </div>
      <div className="flex min-w-0 items-start justify-between gap-3">
        <h1
          className={cn(
            'min-w-0 flex-1 font-semibold tracking-tight text-zinc-900 [overflow-wrap:anywhere] dark:text-zinc-50',
            // A very long title wraps at a smaller size instead of filling the phone's screen.
            item.title.length > LONG_TITLE ? 'text-lg leading-snug' : 'text-2xl',
          )}
        >
          <InlineTitle value={title} editable={!readOnly} wrap onSave={saveTitle} />
        </h1>
        {readOnly ? null : (
          <Button variant={action === 'Reopen' ? 'outline' : 'primary'} size="sm" onClick={onAction}>
            {action}
          </Button>
        )}
      </div>
      {/* Shown, and editable in place (DetailEditors). */}
      <DetailDescription item={item} readOnly={readOnly} />
      {/* Its files under the description; an editor's page takes a drop or a pasted image anywhere. */}
      <Suspense fallback={null}>
        <AttachmentStrip itemId={item.id} itemTitle={item.title} readOnly={readOnly} />
      </Suspense>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Complete ${open} open ${open === 1 ? 'item' : 'items'} too?`}
        description={`Completing “${item.title}” completes everything inside it. You can reopen it later.`}
        confirmLabel="Complete"
        onConfirm={() => void complete(item, open)}
      />
    </header>
  );
}

export function DetailLoading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-4">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-4 w-full" />
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </div>
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function DetailNotFound({
  title,
  back,
  itemId,
}: {
  title: string;
  back: { to: string; label: string };
  /** The id the page was opened for: an item that left with a lost campaign says so (Q24). */
  itemId?: number;
}) {
  const lost = useLive(lostQuery, itemId ?? 0);
  const departure = useDeparture(lost?.campaignId ?? null);
  const description = lost
    ? departure?.removed
      ? `You were removed from “${lost.title}”${departure.by ? ` by ${departure.by}` : ''}.`
      : departure && !departure.removed
        ? `You left “${lost.title}”.`
        : `You no longer have access to “${lost.title}”.`
    : 'It may have been deleted, or it has not synced to this device yet.';
  return (
    <EmptyState
      icon={<SearchX aria-hidden />}
      title={title}
      description={description}
      action={
        <Button asChild variant="outline" size="sm">
          <Link to={back.to}>{back.label}</Link>
        </Button>
      }
    />
  );
}

const lostQuery: LiveQuery<number, LostItem | null> = (reads, id) => (id ? reads.lostItem(id) : null);

/** Who removed the user from campaign `id` (asked once the page knows the campaign). */
function useDeparture(id: number | null): Departure | null {
  const departure = useCommand('sharing.departure');
  const [answer, setAnswer] = useState<Departure | null>(null);
  useEffect(() => {
    if (id === null) return;
    let live = true;
    void departure(id)
      .then((d) => {
        if (live) setAnswer(d);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, departure]);
  return answer;
}
