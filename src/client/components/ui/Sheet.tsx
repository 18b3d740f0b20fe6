import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef, type ReactNode } from 'react';
import { cn, focusRing } from './cn';
import { overlayClasses } from './Dialog';

export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;
export const SheetClose = DialogPrimitive.Close;

export interface SheetContentProps
  extends Omit<ComponentPropsWithoutRef<typeof DialogPrimitive.Content>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  titleHidden?: boolean;
  side?: 'bottom' | 'left' | 'right';
}

const sides = {
  bottom:
    'inset-x-0 bottom-0 max-h-[85dvh] rounded-t-2xl border-t pb-[max(1.25rem,env(safe-area-inset-bottom))] data-[state=open]:animate-[sheet-up_200ms_ease-out] data-[state=closed]:animate-[sheet-down_150ms_ease-in]',
  left: 'inset-y-0 left-0 w-80 max-w-[85vw] border-r data-[state=open]:animate-[sheet-left-in_200ms_ease-out] data-[state=closed]:animate-[fade-out_150ms_ease-in]',
  right:
    'inset-y-0 right-0 w-80 max-w-[85vw] border-l data-[state=open]:animate-[sheet-right-in_200ms_ease-out] data-[state=closed]:animate-[fade-out_150ms_ease-in]',
};

/** A dialog anchored to an edge of the screen: the phone's way of showing secondary panels. */
export const SheetContent = forwardRef<HTMLDivElement, SheetContentProps>(function SheetContent(
  { title, description, titleHidden, side = 'bottom', className, children, ...props },
  ref,
) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content
        ref={ref}
        {...(description ? {} : { 'aria-describedby': undefined })}
        className={cn(
          'fixed z-50 flex flex-col overflow-y-auto border-zinc-200 bg-white px-5 pt-3 text-zinc-900 shadow-xl outline-none motion-reduce:animate-none dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
          sides[side],
          className,
        )}
        {...props}
      >
        {side === 'bottom' ? (
          <div
            aria-hidden
            className="mx-auto mb-3 h-1 w-10 shrink-0 rounded-full bg-zinc-300 dark:bg-zinc-700"
          />
        ) : null}
        <div className={cn('flex items-start justify-between gap-4 pb-3', titleHidden && 'sr-only')}>
          <div className="min-w-0">
            <DialogPrimitive.Title className="text-base font-semibold">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                {description}
              </DialogPrimitive.Description>
            ) : null}
          </div>
          <DialogPrimitive.Close
            aria-label="Close"
            className={cn(
              '-mr-2 inline-flex size-8 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
              focusRing,
            )}
          >
            <X className="size-4" aria-hidden />
          </DialogPrimitive.Close>
        </div>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
});
