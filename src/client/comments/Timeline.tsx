import { QueryClientProvider } from '@tanstack/react-query';
import { tokenize } from 'linkifyjs';
import { Bell, BellOff, MessageSquare } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { activityDetails } from '../../shared/activity';
import { bodyText, type Comment } from '../../shared/comments';
import { type HistoryEntry, RESTORABLE_NAMES } from '../../shared/history';
import type { ItemType } from '../../shared/item';
import { preloadCommands } from '../app/door';
import { appQueryClient, FollowDataChanges } from '../app/queryProvider';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Button } from '../components/ui/Button';
import { commentCountLabel } from '../items/CommentCount';
import { useViewer } from '../items/queries';
import { CommentBody } from './CommentBody';
import { CommentByline, TimelineTime } from './CommentByline';
import { Composer } from './Composer';
import { type PendingComment, type RevertTarget, useCommentActions, usePendingComments } from './mutations';
import { useComments, useDeviceHistory, useHistory, useMuted, usePeople } from './queries';
import { RefusedComment, refusalOf } from './RefusedComment';
import { TIMELINE_WINDOW_FROM, useTimelineWindow } from './useTimelineWindow';
import { ViaToken } from './ViaToken';

export interface TimelineItem extends RevertTarget {
  id: number;
  type: ItemType;
  title: string;
  /** Live comments as the device last heard from the server (absent reads as 0). */
  comments_count?: number;
}

/** A row's height before it is measured: a history line, or a comment card of a line or two. */
const HISTORY_ESTIMATE = 20;
const COMMENT_ESTIMATE = 96;

const HEADLINES: Record<string, string> = {
  created: 'created this',
  updated: 'changed',
  completed: 'completed this',
  reopened: 'reopened this',
  assigned: 'changed the assignee',
  deleted: 'deleted this',
  restored: 'restored this',
};

/** The entry's changes in words: 'Title: Draft → Final', 'Assignee: none → Sam'. */
function changeLines(entry: HistoryEntry): string[] {
  const lines: string[] = [];
  for (const [field, { from, to }] of Object.entries(entry.changes)) {
    if (field === 'status' && (entry.action === 'completed' || entry.action === 'reopened')) continue;
    if (field === 'assignee') {
      lines.push(`Assignee: ${from ?? 'none'} → ${to ?? 'none'}`);
      continue;
    }
    lines.push(...activityDetails({ action: 'updated', metadata: { [field]: { old: from, new: to } } }));
  }
  return lines;
}

/** One history entry in words, with its Restore where the entry set back a field a restore can. */
export function HistoryRow({
  entry,
  canRestore,
  onRestore,
  measureRef,
}: {
  entry: HistoryEntry;
  canRestore: boolean;
  onRestore: () => void;
  measureRef?: (el: HTMLLIElement | null) => void;
}) {
  const lines = changeLines(entry);
  const restorable = canRestore && Object.keys(entry.changes).some((f) => RESTORABLE_NAMES.has(f));
  return (
    <li
      ref={measureRef}
      className="flex gap-2 px-1 text-xs text-zinc-500 dark:text-zinc-400"
      data-history={entry.id}
    >
      <span aria-hidden className="mt-1.5 size-1.5 shrink-0 rounded-full bg-zinc-300 dark:bg-zinc-600" />
      <div className="min-w-0 flex-1">
        <p>
          <span className="font-medium text-zinc-700 dark:text-zinc-300">{entry.user.name}</span>{' '}
          {entry.summary ?? HEADLINES[entry.action] ?? entry.action.replaceAll('_', ' ')}
          {entry.via ? <ViaToken name={entry.via} /> : null}
          {lines.length === 1 ? <> · {lines[0]}</> : null} · <TimelineTime at={entry.at} />
          {restorable ? (
            <>
              {' · '}
              <button
                type="button"
                onClick={onRestore}
                className="font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
                aria-label={`Restore: ${lines.join('; ') || HEADLINES[entry.action] || entry.action}`}
              >
                Restore
              </button>
            </>
          ) : null}
        </p>
        {lines.length > 1 ? (
          <ul className="mt-0.5 flex flex-col">
            {lines.map((line) => (
              <li key={line} className="[overflow-wrap:anywhere]">
                {line}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

function CommentCard({
  comment,
  mine,
  mayDelete,
  people,
  pending,
  onEdit,
  onDelete,
  measureRef,
}: {
  comment: Comment;
  mine: boolean;
  mayDelete: boolean;
  people: { id: number; name: string }[];
  pending?: PendingComment['state'];
  onEdit: (body: string) => Promise<boolean>;
  onDelete: () => void;
  measureRef?: (el: HTMLLIElement | null) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <li
      ref={measureRef}
      id={comment.id > 0 ? `comment-${comment.id}` : undefined}
      tabIndex={-1}
      className="grid scroll-mt-24 grid-cols-[minmax(0,1fr)_auto] rounded-xl border border-zinc-200 bg-white p-3 outline-none target:ring-2 target:ring-indigo-500/60 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-zinc-800 dark:bg-zinc-900"
      data-comment={comment.uuid}
    >
      <div className="col-start-1 row-start-1 mb-1 flex min-w-0 items-center gap-2">
        <CommentByline name={comment.user.name}>
          {pending ? (
            <span className="font-medium text-amber-700 dark:text-amber-300">
              {pending === 'pending' ? 'Pending sync' : 'Sending…'}
            </span>
          ) : (
            <TimelineTime at={comment.created_at} />
          )}
          {comment.edited ? ' · edited' : null}
        </CommentByline>
      </div>
      {!pending && (mine || mayDelete) && !editing ? (
        // Under the text at the left on a phone: at the right they lay where the floating add button
        // floats, which covered them as the page scrolled; beside the byline from sm up.
        <span className="col-start-1 row-start-3 -ml-2 mt-1 flex shrink-0 gap-1 justify-self-start sm:col-start-2 sm:row-start-1 sm:mt-0 sm:ml-0 sm:self-start">
          {mine ? (
            <Button variant="ghost" size="sm" onClick={() => setEditing(true)} aria-label="Edit comment">
              Edit
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label="Delete comment">
            Delete
          </Button>
        </span>
      ) : null}
      <div className="col-span-2 row-start-2">
        {editing ? (
          <Composer
            people={people}
            label="Edit comment"
            submitLabel="Save"
            initial={bodyText(comment.body, comment.mentions)}
            initialPicked={comment.mentions}
            onCancel={() => setEditing(false)}
            onSend={async (body) => {
              if (await onEdit(body)) setEditing(false);
            }}
          />
        ) : (
          <CommentBody comment={comment} />
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this comment?"
        description={
          mine
            ? 'It goes for everyone who sees this item.'
            : `${comment.user.name}’s comment goes for everyone.`
        }
        confirmLabel="Delete"
        tone="danger"
        onConfirm={onDelete}
      />
    </li>
  );
}

type Row =
  | { kind: 'history'; at: string; key: string; entry: HistoryEntry }
  | { kind: 'comment'; at: string; key: string; comment: Comment; pending?: PendingComment['state'] };

function TimelineBody({ item, ownerId }: { item: TimelineItem; ownerId: number | null }) {
  const viewer = useViewer();
  const signedIn = !viewer.isGuest;
  const live = signedIn && viewer.online;
  const { loaded, comments, total } = useComments(item.id);
  const { query: historyQuery, entries: serverEntries } = useHistory(item.id, live);
  // A guest's history is the device's (SYNC.md K19), shown and restored as the server's is.
  const deviceEntries = useDeviceHistory(item.id, viewer.isGuest);
  const entries: HistoryEntry[] = viewer.isGuest ? deviceEntries : serverEntries;
  const people = usePeople(item.id, live) ?? [];
  const muted = useMuted(item.id, live);
  const pending = usePendingComments(item.id);
  const actions = useCommentActions(item.id);
  const location = useLocation();
  // linkify builds its scanner on its first use: done here while the first pages are on their way,
  // not when the first comment is drawn (the timeline's first row waited for it).
  useEffect(() => {
    tokenize('');
    // The comment commands' code comes now, while online: a comment written offline later needs it.
    preloadCommands('comments');
  }, []);

  const rows: Row[] = [
    ...entries.map((entry): Row => ({ kind: 'history', at: entry.at, key: `h${entry.id}`, entry })),
    ...comments.map(
      (comment): Row => ({ kind: 'comment', at: comment.created_at, key: `c${comment.id}`, comment }),
    ),
  ].sort((a, b) => (a.at === b.at ? a.key.localeCompare(b.key) : a.at < b.at ? -1 : 1));
  const stored = new Set(comments.map((c) => c.uuid));
  for (const p of pending) {
    if (stored.has(p.uuid)) continue;
    rows.push({
      kind: 'comment',
      at: p.created_at,
      key: `p${p.uuid}`,
      pending: p.state,
      comment: {
        id: 0,
        uuid: p.uuid,
        item_id: item.id,
        user: { id: viewer.user.id, name: viewer.user.name },
        body: p.body,
        mentions: p.mentions,
        created_at: p.created_at,
        updated_at: p.created_at,
        edited: false,
      },
    });
  }

  // A long timeline renders only the rows near the viewport (500 comments and 500 changes open as
  // fast as none, issue 31).
  const keys = rows.map((r) => r.key);
  const keyList = keys.join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys' identity is their joined text.
  const stableKeys = useMemo(() => keys, [keyList]);
  const kinds = rows.map((r) => (r.kind === 'history' ? 'h' : 'c')).join('');
  const estimate = useCallback(
    (index: number) => (kinds[index] === 'h' ? HISTORY_ESTIMATE : COMMENT_ESTIMATE),
    [kinds],
  );
  const timeline = useTimelineWindow(stableKeys, estimate, rows.length > TIMELINE_WINDOW_FROM);
  // A notification opens the item at its comment (#comment-{id}), the row's comment count at the
  // timeline (#timeline). A comment outside the rendered window is scrolled to first, then focused.
  const { scrollToIndex } = timeline;
  useEffect(() => {
    if (location.hash === '#timeline') {
      document.getElementById('timeline')?.scrollIntoView({ block: 'start' });
      return;
    }
    if (!loaded || !location.hash.startsWith('#comment-')) return;
    const id = location.hash.slice(1);
    const index = stableKeys.indexOf(`c${id.slice('comment-'.length)}`);
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
      } else if (index >= 0 && tries++ < 8) {
        scrollToIndex(index);
        frame = requestAnimationFrame(() => {
          frame = requestAnimationFrame(attempt);
        });
      }
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [loaded, location.hash, stableKeys, scrollToIndex]);

  // A guest's comments and history live on this device (SYNC.md K16, K19): no mentions until sign-in.
  const guestNote = signedIn ? null : (
    <p className="text-sm text-zinc-500 dark:text-zinc-400">
      Your comments and changes stay on this device. Sign in to share them and to mention people.
    </p>
  );

  return (
    <div className="flex flex-col gap-3">
      {guestNote}
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {/* The server's count as the device last pulled it, until a page of comments says (offline too). */}
          {commentCountLabel(loaded ? total : (item.comments_count ?? 0))}
        </p>
        {muted !== undefined ? (
          <Button
            variant="ghost"
            size="sm"
            aria-pressed={muted}
            onClick={() => void actions.setMuted(!muted)}
            title={muted ? 'You hear of mentions only' : 'Stop hearing of new comments and edits'}
          >
            {muted ? <BellOff className="size-4" aria-hidden /> : <Bell className="size-4" aria-hidden />}
            {muted ? 'Muted' : 'Mute'}
          </Button>
        ) : null}
      </div>
      {historyQuery.hasNextPage ? (
        <Button
          variant="link"
          size="sm"
          className="self-start"
          onClick={() => void historyQuery.fetchNextPage()}
          disabled={historyQuery.isFetchingNextPage}
        >
          Show earlier changes
        </Button>
      ) : null}
      {!viewer.online && comments.length === 0 && entries.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          You’re offline: the timeline shows when the connection returns. Comments you write now are sent
          then.
        </p>
      ) : null}
      {rows.length === 0 && live && loaded ? (
        <p data-timeline-empty className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
          <MessageSquare className="size-4" aria-hidden /> No comments yet.
        </p>
      ) : null}
      <div ref={timeline.containerRef}>
        <ol
          className="flex flex-col gap-2"
          aria-label={`Timeline of ${item.title}`}
          style={{ paddingTop: timeline.padTop, paddingBottom: timeline.padBottom }}
        >
          {rows
            .slice(timeline.start, timeline.end)
            .map((row) =>
              row.kind === 'history' ? (
                <HistoryRow
                  key={row.key}
                  entry={row.entry}
                  canRestore={live || viewer.isGuest}
                  measureRef={(el) => timeline.measure(row.key, el)}
                  onRestore={() =>
                    void actions.restore(row.entry, item, changeLines(row.entry)[0] ?? 'the change')
                  }
                />
              ) : refusalOf(row.comment) ? (
                <RefusedComment
                  key={row.key}
                  comment={row.comment}
                  people={people.filter((p) => p.id !== viewer.user.id)}
                  measureRef={(el) => timeline.measure(row.key, el)}
                />
              ) : (
                <CommentCard
                  key={row.key}
                  comment={row.comment}
                  mine={row.comment.user.id === viewer.user.id}
                  mayDelete={ownerId !== null && ownerId === viewer.user.id}
                  people={people}
                  {...(row.pending ? { pending: row.pending } : {})}
                  measureRef={(el) => timeline.measure(row.key, el)}
                  onEdit={(body) => actions.edit(row.comment, body)}
                  onDelete={() => void actions.remove(row.comment)}
                />
              ),
            )}
        </ol>
      </div>
      <Composer
        people={people.filter((p) => p.id !== viewer.user.id)}
        onSend={(body, mentions) => actions.create(body, mentions)}
      />
    </div>
  );
}

/**
 * An item's timeline (ARCHITECTURE §5 'Comments'): its history, small and grey with a Restore per
 * change, and its comments as cards, oldest first, with the composer at the bottom. `ownerId` is the
 * creator of the campaign the item lies in, who may delete any comment.
 */
export function Timeline({ item, ownerId }: { item: TimelineItem; ownerId: number | null }) {
  return (
    <section
      id="timeline"
      aria-labelledby={`timeline-${item.id}`}
      className="mt-8 flex scroll-mt-20 flex-col gap-3"
    >
      <h2 id={`timeline-${item.id}`} className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
        Timeline
      </h2>
      <QueryClientProvider client={appQueryClient()}>
        {/* A comment from another device or person arrives with a `changed` event's sync run. */}
        <FollowDataChanges />
        <TimelineBody item={item} ownerId={ownerId} />
      </QueryClientProvider>
    </section>
  );
}

export default Timeline;
