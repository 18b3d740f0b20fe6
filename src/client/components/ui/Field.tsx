import { Label as LabelPrimitive } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef, type ReactNode, useId } from 'react';
import { cn } from './cn';

export const Label = forwardRef<HTMLLabelElement, ComponentPropsWithoutRef<typeof LabelPrimitive.Root>>(
  function Label({ className, ...props }, ref) {
    return (
      <LabelPrimitive.Root
        ref={ref}
        className={cn('text-sm font-medium text-zinc-800 dark:text-zinc-200', className)}
        {...props}
      />
    );
  },
);

export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export interface FieldProps {
  label: ReactNode;
  /** Shown under the control; replaced by `error` when there is one. */
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
  /** Hide the label visually but keep it for screen readers. */
  labelHidden?: boolean;
  /** Receives the ids to spread on the control so label, hint and error are wired up. */
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, a control and its hint or error, with the ARIA links done once here. */
export function Field({ label, hint, error, className, labelHidden, children }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const message = error ?? hint;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id} className={labelHidden ? 'sr-only' : undefined}>
        {label}
      </Label>
      {children({
        id,
        ...(message ? { 'aria-describedby': messageId } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
      })}
      {message ? (
        <p
          id={messageId}
          className={cn(
            'text-sm',
            error ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400',
          )}
          role={error ? 'alert' : undefined}
        >
          {message}
        </p>
      ) : null}
    </div>
  );
}
