import { Tabs as TabsPrimitive } from 'radix-ui';
import { type ComponentPropsWithoutRef, createContext, forwardRef, useContext, useId } from 'react';
import { cn, focusRing } from './cn';

// Radix's Tabs.Content wraps every panel in Presence, whose ref reads the new panel's computed
// animation name (forcing the whole new page's style inside React's commit) and whose mount sets
// state in a layout effect, which makes React run every passive effect of the page before the
// first paint. Our panels never animate, so they are plain tabpanels beside Radix's root, list and
// triggers (roving focus, activation), named from the same ids.
/** The tabs' id stem (useId) and the open tab's value, for the triggers' and panels' ARIA. */
interface TabsIdsValue {
  base: string;
  value: string;
}

const TabsIds = createContext<TabsIdsValue | null>(null);

const triggerId = (base: string, value: string) => `${base}-trigger-${value}`;
const panelId = (base: string, value: string) => `${base}-panel-${value}`;

type TabsProps = Omit<ComponentPropsWithoutRef<typeof TabsPrimitive.Root>, 'value' | 'defaultValue'> & {
  value: string;
};

/** Tabs are always controlled here: the open tab lives in the URL or the form that shows them. */
export const Tabs = forwardRef<HTMLDivElement, TabsProps>(function Tabs({ value, ...props }, ref) {
  const base = useId();
  return (
    <TabsIds.Provider value={{ base, value }}>
      <TabsPrimitive.Root ref={ref} value={value} {...props} />
    </TabsIds.Provider>
  );
});

function useTabsIds(part: string): TabsIdsValue {
  const ids = useContext(TabsIds);
  if (!ids) throw new Error(`${part} must be inside Tabs`);
  return ids;
}

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
>(function TabsTrigger({ className, value, ...props }, ref) {
  const { base } = useTabsIds('TabsTrigger');
  return (
    <TabsPrimitive.Trigger
      ref={ref}
      value={value}
      id={triggerId(base, value)}
      aria-controls={panelId(base, value)}
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

type TabsContentProps = ComponentPropsWithoutRef<'div'> & { value: string };

/** A tab's panel: in the page only while its tab is open, as Radix's own panel. */
export const TabsContent = forwardRef<HTMLDivElement, TabsContentProps>(function TabsContent(
  { className, value, children, ...props },
  ref,
) {
  const ids = useTabsIds('TabsContent');
  const open = ids.value === value;
  return (
    <div
      ref={ref}
      role="tabpanel"
      id={panelId(ids.base, value)}
      aria-labelledby={triggerId(ids.base, value)}
      data-state={open ? 'active' : 'inactive'}
      hidden={!open}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a tabpanel is a tab stop (WAI-ARIA's tabs pattern, as Radix's own panel), so Tab reaches a panel that starts with text
      tabIndex={0}
      className={cn('mt-4 rounded-md', focusRing, className)}
      {...props}
    >
      {open ? children : null}
    </div>
  );
});
