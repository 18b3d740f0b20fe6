import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef, type ReactNode, useId } from 'react';
import { cn, focusRing } from './cn';

export const RadioGroup = forwardRef<
  HTMLDivElement,
  ComponentPropsWithoutRef<typeof RadioGroupPrimitive.Root>
>(function RadioGroup({ className, ...props }, ref) {
  return <RadioGroupPrimitive.Root ref={ref} className={cn('flex flex-col gap-2', className)} {...props} />;
});

export interface RadioOptionProps {
  value: string;
  label: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/** A whole-row radio option: the label is clickable and the row shows the choice. */
export function RadioOption({ value, label, description, icon, disabled, className }: RadioOptionProps) {
  const id = useId();
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex cursor-pointer items-center gap-3 rounded-lg border border-zinc-200 px-3 py-2.5 transition-colors duration-150 motion-reduce:transition-none hover:bg-zinc-50 has-[[data-state=checked]]:border-indigo-500 has-[[data-state=checked]]:bg-indigo-50/60 dark:border-zinc-800 dark:hover:bg-zinc-800/60 dark:has-[[data-state=checked]]:border-indigo-400 dark:has-[[data-state=checked]]:bg-indigo-950/40',
        disabled && 'cursor-not-allowed opacity-50',
        className,
      )}
    >
      <RadioGroupPrimitive.Item
        id={id}
        value={value}
        disabled={disabled}
        className={cn(
          'flex size-4 shrink-0 items-center justify-center rounded-full border border-zinc-400 bg-white data-[state=checked]:border-indigo-600 dark:border-zinc-600 dark:bg-zinc-900 dark:data-[state=checked]:border-indigo-400',
          focusRing,
        )}
      >
        <RadioGroupPrimitive.Indicator className="size-2 rounded-full bg-indigo-600 dark:bg-indigo-400" />
      </RadioGroupPrimitive.Item>
      {icon ? <span className="text-zinc-500 dark:text-zinc-400 [&_svg]:size-4">{icon}</span> : null}
      <span className="flex min-w-0 flex-col">
        <span className="text-sm font-medium">{label}</span>
        {description ? <span className="text-xs text-zinc-500 dark:text-zinc-400">{description}</span> : null}
      </span>
    </label>
  );
}
