/**
 * The parts of an item row that only a press opens: the actions menu, the assignee picker and the
 * delete confirmation. Their Radix menus and dialog (with positioning and focus libraries) are their
 * own chunk, loaded on the first press (ItemRow), so a list's first paint does not pay for them.
 */
import { MoreHorizontal, Pencil, Trash2, UserRoundPlus } from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import { type ReactNode, useRef } from 'react';
import type { ItemStatus, ItemType } from '../../../shared/item';
import type { AssigneeOption } from '../../items/assignees';
import { TYPE_LABEL } from '../../items/itemStyle';
import { Button } from '../ui/Button';
import { cn } from '../ui/cn';
import { Dialog, DialogContent, DialogFooter } from '../ui/Dialog';
import { type MenuIntent, useReplayMenuIntent } from '../ui/lazyMenu';
import { AssigneeMenu, AssigneeRadioItems, menuContentClasses, menuItemClasses } from './AssigneeMenu';
import { statusActionLabel } from './StatusControl';

interface RowMenuItem {
  title: string;
  type: ItemType;
  status: ItemStatus;
  assigned_to: number | null;
}

export interface RowActionsMenuProps {
  item: RowMenuItem;
  intent: MenuIntent | null;
  triggerClassName: string;
  editable: boolean;
  options: readonly AssigneeOption[];
  onStatus: (next: ItemStatus) => void;
  onRename: () => void;
  onAssign: (userId: number) => void;
  onDelete: () => void;
}

/** The row's 'More actions' menu: status, rename, assign (a sub-menu) and delete. */
export function RowActionsMenu({
  item,
  intent,
  triggerClassName,
  editable,
  options,
  onStatus,
  onRename,
  onAssign,
  onDelete,
}: RowActionsMenuProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  useReplayMenuIntent(trigger, intent);
  const label = statusActionLabel(item.type, item.status);
  const next: ItemStatus = label === 'Start' ? 'in_progress' : label === 'Complete' ? 'completed' : 'pending';
  return (
    // Not modal: a modal menu aria-hides the page while it stays focusable (axe aria-hidden-focus).
    <Menu.Root modal={false}>
      <Menu.Trigger asChild>
        <button
          ref={trigger}
          type="button"
          className={triggerClassName}
          aria-label={`More actions for ${item.title}`}
        >
          <MoreHorizontal aria-hidden />
        </button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content align="end" sideOffset={6} className={menuContentClasses}>
          <Menu.Item className={menuItemClasses} onSelect={() => onStatus(next)}>
            <span
              aria-hidden
              className="inline-block size-4 rounded-full border-2 border-current opacity-70"
            />
            {label}
          </Menu.Item>
          {editable ? (
            <Menu.Item
              className={menuItemClasses}
              // Let the menu close and return focus first, or the input would lose focus at once.
              onSelect={() => setTimeout(onRename, 0)}
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
                <AssigneeRadioItems value={item.assigned_to} options={options} onChange={onAssign} />
              </Menu.SubContent>
            </Menu.Portal>
          </Menu.Sub>
          <Menu.Separator className="-mx-1 my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
          <Menu.Item
            className={cn(
              menuItemClasses,
              'text-red-600 data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-red-950/50 [&_svg]:text-current dark:[&_svg]:text-current',
            )}
            onSelect={onDelete}
          >
            <Trash2 aria-hidden /> Delete
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

export interface RowAssignMenuProps {
  title: string;
  value: number | null;
  intent: MenuIntent | null;
  triggerClassName: string;
  options: readonly AssigneeOption[];
  onAssign: (userId: number) => void;
  icon: ReactNode;
}

/** The desktop row's assignee picker. */
export function RowAssignMenu({
  title,
  value,
  intent,
  triggerClassName,
  options,
  onAssign,
  icon,
}: RowAssignMenuProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  useReplayMenuIntent(trigger, intent);
  return (
    <AssigneeMenu
      value={value}
      options={options}
      onChange={onAssign}
      trigger={
        <button
          ref={trigger}
          type="button"
          className={triggerClassName}
          aria-label={`Assign ${title}`}
          title="Assign"
        >
          {icon}
        </button>
      }
    />
  );
}

/** Asks before a campaign or task goes with everything in it. */
export function DeleteConfirmDialog({
  item,
  open,
  onOpenChange,
  onConfirm,
}: {
  item: { title: string; type: ItemType };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="sm"
        title={`Delete this ${TYPE_LABEL[item.type].toLowerCase()}?`}
        description={`“${item.title}” and everything in it will be deleted.`}
      >
        <DialogFooter className="mt-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              onOpenChange(false);
              onConfirm();
            }}
          >
            Delete
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
