import { Check, UserRound } from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../components/ui/cn';
import type { AssigneeOption } from './assignees';
import { type AssigneeContext, useAssigneeOptions } from './mutations';

export const menuContentClasses =
  'z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] min-w-52 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg data-[state=open]:animate-[fade-in_120ms_ease-out] motion-reduce:animate-none dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100';

export const menuItemClasses =
  'flex h-9 cursor-default select-none items-center gap-2 rounded-md px-2 text-sm outline-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-zinc-500 dark:[&_svg]:text-zinc-400';

/** Unassigned plus the options, as radio items: used by the desktop picker and the phone sub-menu. */
export function AssigneeRadioItems({
  value,
  options,
  onChange,
}: {
  value: number | null;
  options: readonly AssigneeOption[];
  onChange: (userId: number) => void;
}) {
  const current = String(value ?? 0);
  const all: AssigneeOption[] = [{ id: 0, name: 'Unassigned' }, ...options];
  return (
    <Menu.RadioGroup value={current} onValueChange={(v) => onChange(Number(v))}>
      {all.map((o) => (
        <Menu.RadioItem key={o.id} value={String(o.id)} className={cn(menuItemClasses, 'pr-8 relative')}>
          <span className="min-w-0 flex-1 truncate">{o.name}</span>
          <Menu.ItemIndicator className="absolute right-2 inline-flex">
            <Check aria-hidden />
          </Menu.ItemIndicator>
        </Menu.RadioItem>
      ))}
    </Menu.RadioGroup>
  );
}

/**
 * The radio items of whom an item may be assigned to, read only while a menu shows them: a row's
 * closed menus read nothing (its campaign, the contacts, the campaign's roster).
 */
export function WithinAssigneeItems({
  within,
  value,
  onChange,
}: {
  within: AssigneeContext;
  value: number | null;
  onChange: (userId: number) => void;
}) {
  return <AssigneeRadioItems value={value} options={useAssigneeOptions(within)} onChange={onChange} />;
}

export interface AssigneeMenuProps {
  value: number | null;
  /** The item assigned: whom the menu offers is read once it opens. */
  within: AssigneeContext;
  onChange: (userId: number) => void;
  trigger: ReactNode;
}

/** A dropdown picker of assignees around any trigger button. */
export function AssigneeMenu({ value, within, onChange, trigger }: AssigneeMenuProps) {
  return (
    <Menu.Root>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Menu.Portal>
        <Menu.Content align="end" sideOffset={6} className={menuContentClasses}>
          <Menu.Label className="flex items-center gap-2 px-2 py-1.5 text-xs font-medium text-zinc-500 dark:text-zinc-400">
            <UserRound className="size-3.5" aria-hidden /> Assign to
          </Menu.Label>
          <WithinAssigneeItems within={within} value={value} onChange={onChange} />
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
