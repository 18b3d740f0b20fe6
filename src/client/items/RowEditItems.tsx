/**
 * The row menu's 'Edit details…', 'Labels…' and 'Move to…': the menu items and the dialogs they open. The
 * dialogs are their own chunks, loaded when first chosen, so the row menu's chunk stays small.
 */
import { FolderInput, SlidersHorizontal, Tag } from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import { lazy, type ReactNode, type RefObject, Suspense, useState } from 'react';
import type { ItemType } from '../../shared/item';
import { menuItemClasses } from './AssigneeMenu';

const EditItemDialog = lazy(() => import('./EditItemDialog'));
const MoveToDialog = lazy(() => import('./MoveToDialog'));
const LabelsDialog = lazy(() => import('./LabelsDialog'));

export interface RowEditTarget {
  id: number;
  type: ItemType;
  title: string;
  parent_id: number | null;
  labels?: readonly string[];
}

/** Menu items to place in the row's menu, and the dialogs to render beside the menu. */
export function useRowEditItems(
  item: RowEditTarget,
  trigger: RefObject<HTMLElement | null>,
): { menuItems: ReactNode; dialogs: ReactNode } {
  const [open, setOpen] = useState<'edit' | 'move' | 'labels' | null>(null);
  // Let the menu close and hand focus back first, or it would take focus from the dialog.
  const choose = (which: 'edit' | 'move' | 'labels') => () => setTimeout(() => setOpen(which), 0);
  const onOpenChange = (next: boolean) => {
    if (!next) setOpen(null);
  };
  // Back to the row's menu button (gone if the move took the row off this list: focus the list then).
  const onCloseAutoFocus = (event: Event) => {
    event.preventDefault();
    const button = trigger.current;
    if (button?.isConnected) button.focus();
  };
  const menuItems = (
    <>
      <Menu.Item className={menuItemClasses} onSelect={choose('edit')}>
        <SlidersHorizontal aria-hidden /> Edit details…
      </Menu.Item>
      <Menu.Item className={menuItemClasses} onSelect={choose('labels')}>
        <Tag aria-hidden /> Labels…
      </Menu.Item>
      {item.type === 'campaign' ? null : (
        <Menu.Item className={menuItemClasses} onSelect={choose('move')}>
          <FolderInput aria-hidden /> Move to…
        </Menu.Item>
      )}
    </>
  );
  const dialogs =
    open === null ? null : (
      <Suspense fallback={null}>
        {open === 'edit' ? (
          <EditItemDialog
            itemId={item.id}
            open
            onOpenChange={onOpenChange}
            onCloseAutoFocus={onCloseAutoFocus}
          />
        ) : open === 'labels' ? (
          <LabelsDialog item={item} open onOpenChange={onOpenChange} onCloseAutoFocus={onCloseAutoFocus} />
        ) : (
          <MoveToDialog item={item} open onOpenChange={onOpenChange} onCloseAutoFocus={onCloseAutoFocus} />
        )}
      </Suspense>
    );
  return { menuItems, dialogs };
}
