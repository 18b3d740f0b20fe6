/**
 * A question that must be answered (Radix AlertDialog): a title, what will happen, Cancel and one
 * action. Escape and Cancel keep things as they were; the overlay does not dismiss it by accident.
 * Long titles wrap ('overflow-wrap:anywhere') so the dialog stays inside a phone's width.
 */
import { AlertDialog as AlertPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { overlayClasses } from './Dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'primary' | 'danger';
  onConfirm: () => void;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'primary',
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <AlertPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertPrimitive.Portal>
        <AlertPrimitive.Overlay className={overlayClasses} />
        <AlertPrimitive.Content
          {...(description ? {} : { 'aria-describedby': undefined })}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl outline-none [overflow-wrap:anywhere] data-[state=open]:animate-[dialog-in_180ms_ease-out] data-[state=closed]:animate-[fade-out_150ms_ease-in] motion-reduce:animate-none sm:max-w-sm dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <AlertPrimitive.Title className="text-lg leading-7 font-semibold">{title}</AlertPrimitive.Title>
          {description ? (
            <AlertPrimitive.Description className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
              {description}
            </AlertPrimitive.Description>
          ) : null}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertPrimitive.Cancel asChild>
              <Button variant="outline">{cancelLabel}</Button>
            </AlertPrimitive.Cancel>
            <AlertPrimitive.Action asChild>
              <Button variant={tone} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertPrimitive.Action>
          </div>
        </AlertPrimitive.Content>
      </AlertPrimitive.Portal>
    </AlertPrimitive.Root>
  );
}

export default ConfirmDialog;
