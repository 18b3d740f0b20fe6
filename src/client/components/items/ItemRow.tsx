import {
  CalendarDays,
  CloudOff,
  MoreHorizontal,
  Pencil,
  Trash2,
  UserRound,
  UserRoundPlus,
} from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import { memo, useState } from 'react';
import { Link } from 'react-router';
import type { ItemStatus, ItemType } from '../../../shared/item';
import { useAssigneeOptions, useItemMutations } from '../../items/mutations';
import { Button } from '../ui/Button';
import { cn, focusRing } from '../ui/cn';
import { Dialog, DialogContent, DialogFooter } from '../ui/Dialog';
import { AssigneeMenu, AssigneeRadioItems, menuContentClasses, menuItemClasses } from './AssigneeMenu';
import { assigneeName } from './assignees';
import { InlineTitle } from './InlineTitle';
import { formatDay, isOverdue, itemHref, TYPE_DOT, TYPE_LABEL } from './itemStyle';
import { StatusControl, statusActionLabel } from './StatusControl';

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
  parent?: { id: number; title: string; type: ItemType } | null;
  assignedUser?: { name: string } | null;
  _syncStatus?: string;
}

export interface ItemRowProps {
  item: RowItem;
  /** The parent's title when known locally (overrides the server's embedded parent). */
  parentTitle?: string | null;
  /** Hide 'in {parent}' where the parent is the page itself. */
  showParent?: boolean;
  className?: string;
}

const actionButton = cn(
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-zinc-500 transition-colors duration-150 hover:bg-zinc-100 hover:text-zinc-900 motion-reduce:transition-none dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 [&_svg]:size-4',
  focusRing,
);

/**
 * One item on one line: status control, title (inline-editable), a quiet meta line, and actions that
 * appear on hover or focus on desktop and sit behind a menu on phones.
 */
export const ItemRow = memo(function ItemRow({
  item,
  parentTitle,
  showParent = true,
  className,
}: ItemRowProps) {
  const { rename, setStatus, assign, remove } = useItemMutations();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Deleting a campaign or task takes everything under it, so those ask first; a todo goes at once.
  const requestDelete = () => (item.type === 'todo' ? void remove(item) : setConfirming(true));
  const href = itemHref(item);
  const editable = !(item.type === 'todo' && item.status === 'completed');
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
  const options = useAssigneeOptions();
  const assignee = assigneeName(item.assigned_to, options, item.assignedUser);
  const done = item.status === 'completed';

  return (
    <div
      className={cn(
        'group flex items-center gap-2 border-b border-zinc-200 px-2 sm:px-3 dark:border-zinc-800',
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
      />
      <div className="flex min-w-0 flex-1 flex-col justify-center gap-0.5">
        <div
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
              {item.title}
            </Link>
          ) : (
            <InlineTitle
              value={item.title}
              editable={editable}
              editing={editing}
              onEditingChange={setEditing}
              onSave={(title) => rename(item, title)}
            />
          )}
        </div>
        <div className="flex min-w-0 items-center gap-x-2.5 overflow-hidden text-xs leading-4 whitespace-nowrap text-zinc-500 dark:text-zinc-400">
          <span className="inline-flex shrink-0 items-center gap-1.5">
            <span aria-hidden className={cn('size-2 rounded-full', TYPE_DOT[item.type])} />
            {TYPE_LABEL[item.type]}
          </span>
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
          {assignee ? (
            <span className="inline-flex min-w-0 shrink items-center gap-1 truncate">
              <UserRound className="size-3 shrink-0" aria-hidden />
              <span className="sr-only">Assigned to</span>
              <span className="truncate">{assignee}</span>
            </span>
          ) : null}
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
      <div className="hidden items-center gap-0.5 md:flex md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:transition-opacity">
        <AssigneeMenu
          value={item.assigned_to}
          options={options}
          onChange={(userId) => void assign(item, userId)}
          trigger={
            <button type="button" className={actionButton} aria-label={`Assign ${item.title}`} title="Assign">
              <UserRoundPlus aria-hidden />
            </button>
          }
        />
        <button
          type="button"
          className={cn(actionButton, 'hover:text-red-600 dark:hover:text-red-400')}
          aria-label={`Delete ${item.title}`}
          title="Delete"
          onClick={requestDelete}
        >
          <Trash2 aria-hidden />
        </button>
      </div>

      {/* Phone (and desktop keyboard users who prefer a menu): everything behind one button. */}
      {/* Not modal: a modal menu aria-hides the page while it stays focusable (axe aria-hidden-focus). */}
      <Menu.Root modal={false}>
        <Menu.Trigger asChild>
          <button
            type="button"
            className={cn(
              actionButton,
              'md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:focus-visible:opacity-100',
            )}
            aria-label={`More actions for ${item.title}`}
          >
            <MoreHorizontal aria-hidden />
          </button>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content align="end" sideOffset={6} className={menuContentClasses}>
            <Menu.Item className={menuItemClasses} onSelect={() => void setStatusByLabel()}>
              <StatusIcon />
              {statusActionLabel(item.type, item.status)}
            </Menu.Item>
            {editable ? (
              <Menu.Item
                className={menuItemClasses}
                // Let the menu close and return focus first, or the input would lose focus at once.
                onSelect={() => setTimeout(() => setEditing(true), 0)}
              >
                <Pencil aria-hidden /> Rename
              </Menu.Item>
            ) : null}
            <Menu.Sub>
              <Menu.SubTrigger
                className={cn(
                  menuItemClasses,
                  'data-[state=open]:bg-zinc-100 dark:data-[state=open]:bg-zinc-800',
                )}
              >
                <UserRoundPlus aria-hidden /> Assign
              </Menu.SubTrigger>
              <Menu.Portal>
                <Menu.SubContent sideOffset={4} className={menuContentClasses}>
                  <AssigneeRadioItems
                    value={item.assigned_to}
                    options={options}
                    onChange={(userId) => void assign(item, userId)}
                  />
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
            <Menu.Separator className="-mx-1 my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
            <Menu.Item
              className={cn(
                menuItemClasses,
                'text-red-600 data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-red-950/50 [&_svg]:text-current dark:[&_svg]:text-current',
              )}
              onSelect={requestDelete}
            >
              <Trash2 aria-hidden /> Delete
            </Menu.Item>
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent
          size="sm"
          title={`Delete this ${TYPE_LABEL[item.type].toLowerCase()}?`}
          description={`“${item.title}” and everything in it will be deleted.`}
        >
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirming(false);
                void remove(item);
              }}
            >
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );

  function setStatusByLabel() {
    const label = statusActionLabel(item.type, item.status);
    const next: ItemStatus =
      label === 'Start' ? 'in_progress' : label === 'Complete' ? 'completed' : 'pending';
    return setStatus(item, next);
  }
});

function StatusIcon() {
  return <span aria-hidden className="inline-block size-4 rounded-full border-2 border-current opacity-70" />;
}
