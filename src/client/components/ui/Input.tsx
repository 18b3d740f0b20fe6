import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';

/** 16 px text on phones so iOS does not zoom on focus; 14 px from the tablet width up. */
const fieldBase =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 text-base text-zinc-900 shadow-xs placeholder:text-zinc-400 transition-colors duration-150 motion-reduce:transition-none md:text-sm outline-none focus-visible:border-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-500/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-red-500 aria-invalid:focus-visible:ring-red-500/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500 dark:focus-visible:border-indigo-400';

export const inputClasses = (className?: string) => cn(fieldBase, 'h-10', className);

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return <input ref={ref} className={inputClasses(className)} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function Textarea({ className, rows = 3, ...props }, ref) {
    return (
      <textarea ref={ref} rows={rows} className={cn(fieldBase, 'min-h-20 py-2', className)} {...props} />
    );
  },
);

/** A date field that refuses years the server cannot store (before 1900, after 9999). */
export const DateInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(
  function DateInput(props, ref) {
    return <Input ref={ref} type="date" min="1900-01-01" max="9999-12-31" {...props} />;
  },
);
