import { DropdownMenu as Menu } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { cn } from './cn';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuGroup = Menu.Group;

export const DropdownMenuContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof Menu.Content>>(
  function DropdownMenuContent({ className, sideOffset = 6, align = 'end', ...props }, ref) {
    return (
      <Menu.Portal>
        <Menu.Content
          ref={ref}
          sideOffset={sideOffset}
          align={align}
          className={cn(
            'z-50 min-w-48 overflow-hidden rounded-lg border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg data-[state=open]:animate-[fade-in_120ms_ease-out] motion-reduce:animate-none dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
            className,
          )}
          {...props}
        />
      </Menu.Portal>
    );
  },
);

export interface DropdownMenuItemProps extends ComponentPropsWithoutRef<typeof Menu.Item> {
  destructive?: boolean;
}

export const DropdownMenuItem = forwardRef<HTMLDivElement, DropdownMenuItemProps>(function DropdownMenuItem(
  { className, destructive, ...props },
  ref,
) {
  return (
    <Menu.Item
      ref={ref}
      className={cn(
        'flex h-9 cursor-default select-none items-center gap-2 rounded-md px-2 text-sm outline-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800 [&_svg]:size-4 [&_svg]:text-zinc-500 dark:[&_svg]:text-zinc-400',
        destructive &&
          'text-red-600 data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-red-950/50 [&_svg]:text-current',
        className,
      )}
      {...props}
    />
  );
});

export function DropdownMenuLabel({ className, ...props }: ComponentPropsWithoutRef<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2 py-1.5 text-sm', className)} {...props} />;
}

export function DropdownMenuSeparator({
  className,
  ...props
}: ComponentPropsWithoutRef<typeof Menu.Separator>) {
  return (
    <Menu.Separator className={cn('-mx-1 my-1 h-px bg-zinc-200 dark:bg-zinc-800', className)} {...props} />
  );
}
