import {
  ArrowUpRight,
  Bell,
  CalendarDays,
  CloudOff,
  Flag,
  MoreHorizontal,
  Trash2,
  UserRoundPlus,
  Users,
} from 'lucide-react';
import {
  type KeyboardEvent,
  lazy,
  memo,
  type ReactNode,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Link, useNavigate } from 'react-router';
import type { ItemStatus, ItemType } from '../../shared/item';
import { labelHref } from '../../shared/labels';
import { mayDo, type Role } from '../../shared/membership';
import { cn, focusRing } from '../components/ui/cn';
import {
  closedTriggerAria,
  lazyModule,
  type MenuIntent,
  placeholderTriggerHandlers,
} from '../components/ui/lazyMenu';
import { ProgressLine } from '../components/ui/Progress';
import { guardPointer, pointerGuarded } from '../components/ui/pointerGuard';
import { useTimer } from '../time/mutations';
import { SpentMeta } from '../time/SpentMeta';
import { TimerButton } from '../time/TimerButton';
import { useRunningOn } from '../time/timerStore';
import { AssigneeTag } from './AssigneeTag';
import { assigneeName } from './assignees';
import { CommentCount } from './CommentCount';
import { InlineTitle, useSavingTitle } from './InlineTitle';
import {
  formatDay,
  isOverdue,
  itemHref,
  itemPageHref,
  PRIORITY_TEXT,
  reminderText,
  TYPE_DOT,
  TYPE_LABEL,
} from './itemStyle';
import { useAssigneeOptions, useItemMutations } from './mutations';
import { useViewer } from './queries';
import { nextStatus, StatusControl } from './StatusControl';

const RepeatSummary = lazy(() => import('./RepeatSummary'));

/** Every row is exactly this tall, so long lists can be windowed without measuring. */
export const ITEM_ROW_HEIGHT = 60;

/** The fields a row shows; a LocalItem fits. */
export interface RowItem {
  id: number;
  title: string;
  type: ItemType;
  status: ItemStatus;
  parent_id: number | null;
  assigned_to: number | null;
  due_date: string | null;
  end_date?: string | null;
  recurrence?: string | null;
  /** The reminder's moment (ISO), shown as a bell and its time while the item is open. */
  remind_at?: string | null;
  /** 1–4, 1 the most urgent; absent reads as 4 (no flag). */
  priority?: number;
  labels?: readonly string[];
  parent?: { id: number; title: string; type: ItemType } | null;
  assignedUser?: { name: string } | null;
  _syncStatus?: string;
  /** The caller's role in the shared campaign the item lies in (null or absent: not shared). */
  my_role?: Role | null;
  /** Who created it: an editor deletes only what they created (§5 'Roles'). */
  user_id?: number;
  /** A campaign's members, its owner included (more than one: shared). */
  members_count?: number | null;
  /** Live comments on the item, kept by the server (absent reads as 0: no bubble). */
  comments_count?: number;
  /** The estimate, in minutes: 'spent / estimate' on the meta line (issue 53). */
  estimate_minutes?: number | null;
}

export interface ItemRowProps {
  item: RowItem;
  /** The parent's title when known locally (overrides the server's embedded parent). */
  parentTitle?: string | null;
  /** Hide 'in {parent}' where the parent is the page itself. */
  showParent?: boolean;
  /** The row lies in a campaign shared with others (the lists ask the campaign: useSharedParents). */
  inShared?: boolean;
  className?: string;
  /**
   * In a list with a roving tab stop (ItemList): the row itself takes focus, true for the one row Tab
   * reaches, and its controls leave the tab order (the row's keys and its actions menu reach them).
   */
  tabStop?: boolean;
  /** Progress through the subtree of a campaign or task (its todos count), shown on the meta line. */
  progress?: { total: number; completed: number } | undefined;
  /** Called when focus enters the row (the list moves its tab stop here). */
  onRowFocus?: (id: number) => void;
  /** What a screen adds to the meta line after the due date (Today's 'three days overdue'). */
  meta?: ReactNode;
  /** A screen's own action, always shown before the actions menu (Today's and Upcoming's reschedule). */
  actions?: ReactNode;
}

/** The controls inside a row: out of the tab order when the row is a roving tab stop. */
const INNER_FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** Opens a row's actions menu the way a key press on its trigger does (Radix, or the lazy placeholder). */
function openRowActions(row: HTMLElement) {
  const trigger = row.querySelector<HTMLButtonElement>('button[aria-label^="More actions for"]');
  if (!trigger) return;
  trigger.focus();
  trigger.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
}

// The menus and the delete dialog load on the first press (ItemRowMenus.tsx): a list's first paint
// shows only the buttons, with the same look, name and ARIA.
const rowMenus = lazyModule(() => import('./ItemRowMenus'));

const actionButton = cn(
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-zinc-500 transition-colors duration-150 hover:bg-zinc-100 hover:text-zinc-900 motion-reduce:transition-none dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 [&_svg]:size-4',
  focusRing,
);

const moreButton = cn(
  actionButton,
  'md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:focus-visible:opacity-100',
);

/**
 * One item on one line: status control, title (inline-editable), a quiet meta line, and actions that
 * appear on hover or focus on desktop and sit behind a menu on phones.
 */
export const ItemRow = memo(function ItemRow({
  item,
  parentTitle,
  showParent = true,
  inShared = false,
  className,
  tabStop,
  onRowFocus,
  progress,
  meta,
  actions,
}: ItemRowProps) {
  const roving = tabStop !== undefined;
  const rowRef = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const { rename, setStatus, assign, remove, setPriority } = useItemMutations();
  const [editing, setEditing] = useState(false);
  const [title, saveTitle] = useSavingTitle(item.title, (next) => rename(item, next));
  const [confirming, setConfirming] = useState(false);
  const [menus, setMenus] = useState(rowMenus.current);
  const [pressed, setPressed] = useState<{ menu: 'more' | 'assign'; intent: MenuIntent } | null>(null);
  const loadMenus = () => rowMenus.load().then(setMenus);
  const press = (menu: 'more' | 'assign') => (intent: MenuIntent) => {
    if (pressed) return;
    setPressed({ menu, intent });
    loadMenus().catch(() => setPressed(null));
  };
  // Deleting a campaign or task takes everything under it, so those ask first; a todo goes at once,
  // and the rest of a double click cannot delete the row that slides up under the pointer.
  const requestDelete = () => {
    if (pointerGuarded()) return;
    if (item.type === 'todo') {
      guardPointer();
      return void remove(item);
    }
    void loadMenus().then(
      () => setConfirming(true),
      () => {},
    );
  };
  const onAssign = (userId: number) => void assign(item, userId);
  const href = itemHref(item);
  // Every item's page, a todo's too (its facts and timeline); a todo's title stays for renaming.
  const pageHref = itemPageHref(item);
  // A viewer's row is read-only (§5 'Roles'): no status, title, assign, delete or menu.
  const readOnly = item.my_role === 'viewer';
  // Delete is offered only where the server allows it (§5): an owner anything in their campaign, an
  // editor (or someone outside a shared campaign) what they created; a guest owns every item.
  const viewer = useViewer();
  const deletable =
    !readOnly &&
    mayDo(
      item.my_role ?? null,
      'delete',
      viewer.isGuest || item.user_id === undefined || item.user_id === viewer.user.id,
    );
  const shared = readOnly || item.my_role === 'editor' || (item.members_count ?? 0) > 1 || inShared;
  const editable = !readOnly && !(item.type === 'todo' && item.status === 'completed');
  const parentName = parentTitle ?? item.parent?.title ?? null;
  const parentHref =
    item.parent_id && item.parent_id > 0 && parentName
      ? itemHref({
          id: item.parent_id,
          type: item.parent?.type ?? (item.type === 'task' ? 'campaign' : 'task'),
        })
      : null;
  const due = formatDay(item.type === 'campaign' ? (item.due_date ?? item.end_date) : item.due_date);
  const overdue = isOverdue(item.due_date ?? item.end_date, item.status);
  const pending = item._syncStatus === 'pending';
  const done = item.status === 'completed';
  const flag = item.priority ? PRIORITY_TEXT[item.priority] : undefined;
  // Issue 50: a reminder set by quick add showed only on the item's page.
  const reminder = reminderText(item.remind_at);
  // Issue 53: tasks and todos take a timer (a viewer's do not: they read time only).
  const timeable = !readOnly && item.type !== 'campaign';
  const runningHere = useRunningOn(item.id);
  const timer = useTimer();

  // Every render (the menus swap placeholders for Radix triggers): inner controls stay out of Tab.
  useLayoutEffect(() => {
    const row = rowRef.current;
    if (!roving || !row) return;
    for (const el of row.querySelectorAll(INNER_FOCUSABLE)) {
      if (el.getAttribute('tabindex') !== '-1') el.setAttribute('tabindex', '-1');
    }
  });

  // A rename that ends (Enter, Escape) removes the focused field: focus returns to the row, not the body.
  const wasEditing = useRef(false);
  useEffect(() => {
    const ended = wasEditing.current && !editing;
    wasEditing.current = editing;
    const row = rowRef.current;
    if (!ended || !row) return;
    const active = document.activeElement;
    if (!active || active === document.body || (roving && row.contains(active) && active !== row)) {
      if (roving) row.focus();
      else row.querySelector<HTMLElement>('a[href], button')?.focus();
    }
  }, [editing, roving]);

  const onRowKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      event.preventDefault();
      openRowActions(event.currentTarget);
    } else if (event.shiftKey) {
      return;
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (href) navigate(href);
      else if (editable) setEditing(true);
    } else if (event.key === ' ') {
      event.preventDefault();
      if (!readOnly) void setStatus(item, nextStatus(item.type, item.status));
    } else if (event.key === 'F2' && editable) {
      event.preventDefault();
      setEditing(true);
    } else if (event.key === 't' && timeable) {
      event.preventDefault();
      void (runningHere ? timer.stop(runningHere.uuid) : timer.start(item.id));
    }
  };
  return (
    <div
      ref={rowRef}
      {...(roving
        ? {
            role: 'group',
            'aria-label': `${TYPE_LABEL[item.type]}: ${item.title}`,
            tabIndex: tabStop ? 0 : -1,
            onKeyDown: onRowKeyDown,
            onFocus: () => onRowFocus?.(item.id),
          }
        : {})}
      className={cn(
        'group flex items-center gap-2 border-b border-zinc-200 px-2 sm:px-3 dark:border-zinc-800',
        'outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-inset',
        'transition-colors duration-150 hover:bg-zinc-50 focus-within:bg-zinc-50 motion-reduce:transition-none dark:hover:bg-zinc-900/60 dark:focus-within:bg-zinc-900/60',
        className,
      )}
      style={{ height: ITEM_ROW_HEIGHT }}
      data-item-id={item.id}
    >
      <StatusControl
        type={item.type}
        status={item.status}
        title={item.title}
        onChange={(next) => void setStatus(item, next)}
        disabled={readOnly}
      />
      <div className="flex min-w-0 flex-1 flex-col justify-center gap-0.5">
        <div
          data-row-title
          className={cn(
            'min-w-0 text-[15px] leading-5 font-medium',
            done
              ? 'text-zinc-500 line-through decoration-zinc-400 dark:text-zinc-400'
              : 'text-zinc-900 dark:text-zinc-100',
          )}
        >
          {href && !editing ? (
            <Link
              to={href}
              className={cn(
                'block min-w-0 truncate rounded-sm hover:underline underline-offset-2',
                focusRing,
              )}
            >
              {title}
            </Link>
          ) : (
            <InlineTitle
              value={title}
              editable={editable}
              editing={editing}
              onEditingChange={setEditing}
              onSave={saveTitle}
            />
          )}
        </div>
        {/* One line: what does not fit wraps onto a second line that is never shown, so a pill is read
            whole or not at all (issue 50: 'urg' and 'Ev…' on a phone). */}
        <div className="flex h-4 min-w-0 flex-wrap items-center gap-x-2.5 overflow-hidden text-xs leading-4 whitespace-nowrap text-zinc-500 dark:text-zinc-400">
          <span className="inline-flex shrink-0 items-center gap-1.5">
            <span aria-hidden className={cn('size-2 rounded-full', TYPE_DOT[item.type])} />
            {TYPE_LABEL[item.type]}
          </span>
          {shared ? (
            <span className="inline-flex shrink-0 items-center gap-1" title="Shared campaign">
              <Users className="size-3" aria-hidden />
              <span className="sr-only">Shared</span>
            </span>
          ) : null}
          {flag ? (
            <span className={cn('inline-flex shrink-0 items-center gap-0.5 font-medium', flag)}>
              <Flag className="size-3" aria-hidden />
              <span className="sr-only">Priority </span>
              <span>p{item.priority}</span>
            </span>
          ) : null}
          {showParent && parentName ? (
            <span className="min-w-0 truncate">
              in{' '}
              {parentHref ? (
                <Link to={parentHref} className={cn('rounded-sm hover:underline', focusRing)}>
                  {parentName}
                </Link>
              ) : (
                parentName
              )}
            </span>
          ) : null}
          {item.assigned_to ? <RowAssignee item={item} id={item.assigned_to} /> : null}
          {due ? (
            <span
              className={cn(
                'inline-flex shrink-0 items-center gap-1',
                overdue && 'font-medium text-red-600 dark:text-red-400',
              )}
            >
              <CalendarDays className="size-3" aria-hidden />
              <span className="sr-only">Due</span>
              {due}
            </span>
          ) : null}
          {reminder && !done ? (
            <span className="inline-flex shrink-0 items-center gap-1" data-row-reminder>
              <Bell className="size-3" aria-hidden />
              <span className="sr-only">Reminder</span>
              {reminder}
            </span>
          ) : null}
          <CommentCount count={item.comments_count} to={`${pageHref}#timeline`} />
          {meta}
          {item.labels && item.labels.length > 0 ? <RowLabels labels={item.labels} /> : null}
          {item.recurrence ? (
            <Suspense fallback={null}>
              <RepeatSummary rule={item.recurrence} />
            </Suspense>
          ) : null}
          <SpentMeta itemId={item.id} estimate={item.estimate_minutes} />
          {progress && progress.total > 0 ? (
            <ProgressLine total={progress.total} completed={progress.completed} className="w-40 shrink-0" />
          ) : null}
          {pending ? (
            <span
              className="inline-flex shrink-0 items-center gap-1"
              title="Saved on this device; waiting to sync"
            >
              <CloudOff className="size-3" aria-hidden />
              Pending sync
            </span>
          ) : null}
        </div>
      </div>

      {/* Desktop: quick actions revealed on hover or keyboard focus (always reachable by Tab). */}
      {/* A todo's page (its facts and timeline), for a viewer too, who has no menu. */}
      {href ? null : (
        <Link
          to={pageHref}
          className={cn(
            actionButton,
            readOnly ? 'flex' : 'hidden md:flex',
            'md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:transition-opacity',
          )}
          aria-label={`Open ${item.title}`}
          title="Open"
        >
          <ArrowUpRight aria-hidden />
        </Link>
      )}
      {/* The timer: on hover or focus like the quick actions, and shown always while it runs here. */}
      {timeable ? (
        <TimerButton
          item={item}
          className={actionButton}
          idleClassName="hidden md:flex md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:transition-opacity"
          runningClassName="flex bg-emerald-50 text-emerald-700! hover:bg-emerald-100 dark:bg-emerald-950/60 dark:text-emerald-300! dark:hover:bg-emerald-900/60"
        />
      ) : null}
      {readOnly ? null : (
        <div className="hidden items-center gap-0.5 md:flex md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:transition-opacity">
          {menus ? (
            <menus.RowAssignMenu
              title={item.title}
              value={item.assigned_to}
              intent={pressed?.menu === 'assign' ? pressed.intent : null}
              triggerClassName={actionButton}
              within={item}
              onAssign={onAssign}
              icon={<UserRoundPlus aria-hidden />}
            />
          ) : (
            <button
              type="button"
              className={actionButton}
              aria-label={`Assign ${item.title}`}
              title="Assign"
              {...closedTriggerAria}
              {...placeholderTriggerHandlers(press('assign'))}
            >
              <UserRoundPlus aria-hidden />
            </button>
          )}
          {deletable ? (
            <button
              type="button"
              className={cn(actionButton, 'hover:text-red-600 dark:hover:text-red-400')}
              aria-label={`Delete ${item.title}`}
              title="Delete"
              onClick={requestDelete}
            >
              <Trash2 aria-hidden />
            </button>
          ) : null}
        </div>
      )}

      {actions}

      {/* Phone (and desktop keyboard users who prefer a menu): everything behind one button. */}
      {readOnly ? null : menus ? (
        <menus.RowActionsMenu
          item={item}
          intent={pressed?.menu === 'more' ? pressed.intent : null}
          triggerClassName={moreButton}
          editable={editable}
          onStatus={(next) => void setStatus(item, next)}
          onRename={() => setEditing(true)}
          onOpen={href ? undefined : () => navigate(pageHref)}
          onAssign={onAssign}
          onPriority={(p) => void setPriority(item, p)}
          onDelete={deletable ? requestDelete : undefined}
          {...(timeable
            ? {
                timerRunning: !!runningHere,
                onTimer: () => void (runningHere ? timer.stop(runningHere.uuid) : timer.start(item.id)),
              }
            : {})}
        />
      ) : (
        <button
          type="button"
          className={moreButton}
          aria-label={`More actions for ${item.title}`}
          {...closedTriggerAria}
          {...placeholderTriggerHandlers(press('more'))}
        >
          <MoreHorizontal aria-hidden />
        </button>
      )}
      {menus && confirming ? (
        <menus.DeleteConfirmDialog
          item={item}
          open={confirming}
          onOpenChange={setConfirming}
          onConfirm={() => void remove(item)}
        />
      ) : null}
    </div>
  );
});

/**
 * The row's assignee. The item's own relation names them; only a row without it reads the people the
 * pickers offer (live reads of the item's campaign and contacts, its roster asked for): a list's
 * first paint of unassigned rows reads none of them.
 */
function RowAssignee({ item, id }: { item: RowItem; id: number }) {
  const known = item.assignedUser?.name;
  return known ? (
    <AssigneeTag name={known} className="truncate" />
  ) : (
    <AssigneeFromOptions item={item} id={id} />
  );
}

function AssigneeFromOptions({ item, id }: { item: RowItem; id: number }) {
  const name = assigneeName(id, useAssigneeOptions(item));
  return name ? <AssigneeTag name={name} className="truncate" /> : null;
}

/** A row shows this many label chips whole, then '+N' for the rest (all are on the item's page). */
const ROW_LABELS = 2;

/**
 * Small muted chips, each a link to its label's page (/labels/{name}), whole: a chip cut to 'urg' on a
 * phone read as another label (issue 50), so the row shows two and counts the rest.
 */
function RowLabels({ labels }: { labels: readonly string[] }) {
  const shown = labels.slice(0, ROW_LABELS);
  const rest = labels.length - shown.length;
  return (
    <span className="inline-flex shrink-0 items-center gap-1">
      <span className="sr-only">Labels:</span>
      {shown.map((label) => (
        <Link
          key={label}
          to={labelHref(label)}
          className={cn(
            'max-w-32 shrink-0 truncate rounded bg-zinc-100 px-1.5 leading-4 text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-700 dark:hover:text-zinc-100',
            focusRing,
          )}
        >
          {label}
        </Link>
      ))}
      {rest > 0 ? (
        <span>
          +{rest}
          <span className="sr-only"> more</span>
        </span>
      ) : null}
    </span>
  );
}
