import { Tabs as TabsPrimitive } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { cn, focusRing } from './cn';

export const Tabs = TabsPrimitive.Root;

export const TabsList = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof TabsPrimitive.List>>(
  function TabsList({ className, ...props }, ref) {
    return (
      <TabsPrimitive.List
        ref={ref}
        className={cn(
          // Scrolls sideways on narrow phones instead of wrapping or squashing the labels.
          'flex w-full max-w-full gap-1 overflow-x-auto rounded-lg bg-zinc-100 p-1 [scrollbar-width:none] dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800',
          className,
        )}
        {...props}
      />
    );
  },
);

export const TabsTrigger = forwardRef<
  HTMLButtonElement,
  ComponentPropsWithoutRef<typeof TabsPrimitive.Trigger>
>(function TabsTrigger({ className, ...props }, ref) {
  return (
    <TabsPrimitive.Trigger
      ref={ref}
      className={cn(
        'inline-flex h-8 flex-1 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap text-zinc-600 transition-colors duration-150 motion-reduce:transition-none hover:text-zinc-900 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-white data-[state=active]:text-zinc-900 data-[state=active]:shadow-sm dark:text-zinc-400 dark:hover:text-zinc-100 dark:data-[state=active]:bg-zinc-800 dark:data-[state=active]:text-zinc-50',
        focusRing,
        'focus-visible:ring-offset-0',
        className,
      )}
      {...props}
    />
  );
});

export const TabsContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof TabsPrimitive.Content>>(
  function TabsContent({ className, ...props }, ref) {
    return (
      <TabsPrimitive.Content ref={ref} className={cn('mt-4 rounded-md', focusRing, className)} {...props} />
    );
  },
);
