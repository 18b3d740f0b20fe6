import type { ReactNode } from 'react';
import { Card, cn, Skeleton } from '../components/ui';

const TONES = {
  neutral: 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300',
  done: 'bg-green-50 text-green-700 dark:bg-green-950 dark:text-green-300',
  failed: 'bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
} as const;

/**
 * The card the email pages (verify, unsubscribe) show their one step in: an icon, a heading, a line
 * and the actions, centred, the width of a dialog on a desktop and full width on a phone.
 */
export function EmailPagePanel({
  icon,
  tone = 'neutral',
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  tone?: keyof typeof TONES;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card className="mx-auto mt-4 flex w-full max-w-md flex-col items-center gap-3 p-6 text-center sm:mt-10">
      <span
        className={cn('flex size-11 items-center justify-center rounded-full [&_svg]:size-5', TONES[tone])}
      >
        {icon}
      </span>
      <h1 className="text-xl font-semibold tracking-tight text-zinc-900 [overflow-wrap:anywhere] dark:text-zinc-50">
        {title}
      </h1>
      {children ? <div className="text-sm text-zinc-600 dark:text-zinc-400">{children}</div> : null}
      {actions ? <div className="mt-2 flex w-full flex-col gap-2">{actions}</div> : null}
    </Card>
  );
}

/** The panel's place while the page asks the server: its final size, no spinner alone. */
export function EmailPageLoading({ label }: { label: string }) {
  return (
    <Card
      role="status"
      aria-label={label}
      className="mx-auto mt-4 flex w-full max-w-md flex-col items-center gap-3 p-6 sm:mt-10"
    >
      <Skeleton className="size-11 rounded-full" />
      <Skeleton className="h-7 w-3/4" />
      <Skeleton className="h-4 w-2/3" />
      <Skeleton className="mt-2 h-10 w-full" />
      <span className="sr-only">{label}</span>
    </Card>
  );
}

/** The server's words for a refusal (a 422's message), else `fallback`. */
export function refusalText(error: unknown, fallback: string): string {
  const { status, data } = (error ?? {}) as { status?: number; data?: unknown };
  if (status === 0) return 'You are offline. Open the link again when the connection returns.';
  const body = (typeof data === 'object' && data !== null ? data : {}) as {
    message?: unknown;
    error?: unknown;
    errors?: Record<string, string[] | undefined>;
  };
  const field = body.errors ? Object.values(body.errors)[0]?.[0] : undefined;
  for (const words of [body.message, body.error, field])
    if (typeof words === 'string' && words.trim() !== '') return words;
  return fallback;
}
