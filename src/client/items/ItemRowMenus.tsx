/**
 * The parts of an item row that only a press opens: the actions menu, the assignee picker and the
 * delete confirmation. Their Radix menus and dialog (with positioning and focus libraries) are their
 * own chunk, loaded on the first press (ItemRow), so a list's first paint does not pay for them.
 */
import {
  ArrowUpRight,
  Flag,
  MoreHorizontal,
  Pencil,
  Play,
  Square,
  Trash2,
  UserRoundPlus,
} from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import { type ReactNode, useRef, useSyncExternalStore } from 'react';
import type { ItemStatus, ItemType } from '../../shared/item';
import { Button } from '../components/ui/Button';
import { cn } from '../components/ui/cn';
import { Dialog, DialogContent, DialogFooter } from '../components/ui/Dialog';
import { type MenuIntent, useReplayMenuIntent } from '../components/ui/lazyMenu';
import { guardPointer } from '../components/ui/pointerGuard';
import { AssigneeMenu, menuContentClasses, menuItemClasses, WithinAssigneeItems } from './AssigneeMenu';
import { PRIORITY_TEXT, priorityName, TYPE_LABEL } from './itemStyle';
import type { AssigneeContext } from './mutations';
import { useRowEditItems } from './RowEditItems';
import { statusActionLabel } from './StatusControl';

/** Phones (< 768 px): no room for a sub-menu beside the menu, so the assignees are listed inline. */
const PHONE = '(max-width: 767px)';
const phoneQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(PHONE) : null);
function subscribePhone(notify: () => void) {
  const query = phoneQuery();
  if (!query) return () => {};
  query.addEventListener('change', notify);
  return () => query.removeEventListener('change', notify);
}
function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribePhone,
    () => phoneQuery()?.matches ?? false,
    () => false,
  );
}

/** Keeps a menu 8 px inside the viewport and its width within a phone's. */
const menuFit = 'max-w-[calc(100vw-16px)] [overflow-wrap:anywhere]';

/** The item a row's menus act on; a campaign's sharing fields (M16) decide whom its picker offers. */
interface RowMenuItem extends Pick<AssigneeContext, 'my_role' | 'members_count'> {
  id: number;
  parent_id: number | null;
  title: string;
  type: ItemType;
  status: ItemStatus;
  assigned_to: number | null;
  priority?: number;
  labels?: readonly string[];
}

type PriorityValue = 1 | 2 | 3 | 4;
const PRIORITY_CHOICES: readonly PriorityValue[] = [1, 2, 3, 4];

/** p1–p4 as radio items, each with its flag's colour (p4, no priority, a grey flag). */
function PriorityRadioItems({ value, onChange }: { value: number; onChange: (p: PriorityValue) => void }) {
  return (
    <Menu.RadioGroup value={String(value)} onValueChange={(v) => onChange(Number(v) as PriorityValue)}>
      {PRIORITY_CHOICES.map((p) => (
        <Menu.RadioItem
          key={p}
          value={String(p)}
          className={cn(menuItemClasses, 'data-[state=checked]:font-semibold')}
        >
          <Flag aria-hidden className={PRIORITY_TEXT[p] ?? 'text-zinc-500 dark:text-zinc-400'} />
          {priorityName(p)}
          <Menu.ItemIndicator aria-hidden className="ml-auto text-xs">
            ✓
          </Menu.ItemIndicator>
        </Menu.RadioItem>
      ))}
    </Menu.RadioGroup>
  );
}

export interface RowActionsMenuProps {
  item: RowMenuItem;
  intent: MenuIntent | null;
  triggerClassName: string;
  editable: boolean;
  onStatus: (next: ItemStatus) => void;
  onRename: () => void;
  /** A todo's row (its title renames in place): opens its page, with its facts and timeline. */
  onOpen?: (() => void) | undefined;
  onAssign: (userId: number) => void;
  onPriority: (priority: PriorityValue) => void;
  /** Absent where the person may not delete the item (an editor's view of another's item, §5). */
  onDelete?: (() => void) | undefined;
  /** Starts or stops the timer on the item (issue 53); absent where it takes none. */
  onTimer?: (() => void) | undefined;
  timerRunning?: boolean;
}

/** The row's 'More actions' menu: status, rename, priority and assign (sub-menus), labels and delete. */
export function RowActionsMenu({
  item,
  intent,
  triggerClassName,
  editable,
  onStatus,
  onRename,
  onOpen,
  onAssign,
  onPriority,
  onDelete,
  onTimer,
  timerRunning = false,
}: RowActionsMenuProps) {
  const priority = item.priority ?? 4;
  const trigger = useRef<HTMLButtonElement>(null);
  useReplayMenuIntent(trigger, intent);
  const edit = useRowEditItems(item, trigger);
  const phone = useIsPhone();
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
        <Menu.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          // A long menu scrolls (phones list the assignees inline): its region takes focus itself, so
          // the keyboard reaches what is below the fold (axe scrollable-region-focusable).
          tabIndex={0}
          className={cn(menuContentClasses, menuFit)}
        >
          <Menu.Item className={menuItemClasses} onSelect={() => onStatus(next)}>
            <span
              aria-hidden
              className="inline-block size-4 rounded-full border-2 border-current opacity-70"
            />
            {label}
          </Menu.Item>
          {onOpen ? (
            <Menu.Item className={menuItemClasses} onSelect={onOpen}>
              <ArrowUpRight aria-hidden /> Open
            </Menu.Item>
          ) : null}
          {editable ? (
            <Menu.Item
              className={menuItemClasses}
              // Let the menu close and return focus first, or the input would lose focus at once.
              onSelect={() => setTimeout(onRename, 0)}
            >
              <Pencil aria-hidden /> Rename
            </Menu.Item>
          ) : null}
          {edit.menuItems}
          {onTimer ? (
            <Menu.Item className={menuItemClasses} onSelect={onTimer}>
              {timerRunning ? <Square aria-hidden /> : <Play aria-hidden />}
              {timerRunning ? 'Stop timer' : 'Start timer'}
            </Menu.Item>
          ) : null}
          {phone ? (
            <>
              <Menu.Separator className="-mx-1 my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
              <Menu.Group aria-label="Priority">
                <Menu.Label className="flex items-center gap-2 px-2 pt-1 pb-0.5 text-xs font-medium text-zinc-500 dark:text-zinc-400">
                  <Flag aria-hidden className="size-3.5" /> Priority
                </Menu.Label>
                <PriorityRadioItems value={priority} onChange={onPriority} />
              </Menu.Group>
            </>
          ) : (
            <Menu.Sub>
              <Menu.SubTrigger
                className={cn(
                  menuItemClasses,
                  'data-[state=open]:bg-zinc-100 dark:data-[state=open]:bg-zinc-800',
                )}
              >
                <Flag aria-hidden /> Priority
              </Menu.SubTrigger>
              <Menu.Portal>
                <Menu.SubContent
                  sideOffset={4}
                  collisionPadding={8}
                  avoidCollisions
                  className={cn(menuContentClasses, menuFit)}
                >
                  <PriorityRadioItems value={priority} onChange={onPriority} />
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
          )}
          {phone ? (
            <>
              <Menu.Separator className="-mx-1 my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
              <Menu.Group aria-label="Assign">
                <Menu.Label className="flex items-center gap-2 px-2 pt-1 pb-0.5 text-xs font-medium text-zinc-500 dark:text-zinc-400">
                  <UserRoundPlus aria-hidden className="size-3.5" /> Assign
                </Menu.Label>
                <WithinAssigneeItems within={item} value={item.assigned_to} onChange={onAssign} />
              </Menu.Group>
            </>
          ) : (
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
                <Menu.SubContent
                  sideOffset={4}
                  collisionPadding={8}
                  tabIndex={0}
                  avoidCollisions
                  className={cn(menuContentClasses, menuFit)}
                >
                  <WithinAssigneeItems within={item} value={item.assigned_to} onChange={onAssign} />
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
          )}
          {onDelete ? (
            <>
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
            </>
          ) : null}
        </Menu.Content>
      </Menu.Portal>
      {/* Edit details… and Move to… (Root renders no element: the dialogs sit beside the menu). */}
      {edit.dialogs}
    </Menu.Root>
  );
}

export interface RowAssignMenuProps {
  title: string;
  value: number | null;
  intent: MenuIntent | null;
  triggerClassName: string;
  /** The item assigned: whom the picker offers is read once it opens. */
  within: AssigneeContext;
  onAssign: (userId: number) => void;
  icon: ReactNode;
}

/** The desktop row's assignee picker. */
export function RowAssignMenu({
  title,
  value,
  intent,
  triggerClassName,
  within,
  onAssign,
  icon,
}: RowAssignMenuProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  useReplayMenuIntent(trigger, intent);
  return (
    <AssigneeMenu
      value={value}
      within={within}
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

/**
 * Asks before any delete (a todo too: a double click on a row's delete must never take two). A press
 * outside does not dismiss it, so the second click of a double click lands on its overlay and does
 * nothing, and for the double-click window after Delete the page takes no pointer input.
 */
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
  const inside = item.type === 'todo' ? '' : ' and everything in it';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="sm"
        title={`Delete this ${TYPE_LABEL[item.type].toLowerCase()}?`}
        description={`“${item.title}”${inside} will be deleted.`}
        onPointerDownOutside={(event) => event.preventDefault()}
      >
        <DialogFooter className="mt-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              guardPointer();
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
