import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../components/ui';

function explain(error: unknown): { title: string; message: string } {
  const text = error instanceof Error ? error.message : '';
  // A lazily loaded screen that cannot be fetched: offline before it was cached, or a new version.
  if (/dynamically imported module|Importing a module script failed|Failed to fetch/i.test(text)) {
    return {
      title: 'This screen could not be loaded',
      message: 'Check your connection and reload. Your items are safe on this device.',
    };
  }
  return {
    title: 'Something went wrong',
    message: 'This screen hit an unexpected error. Your items are safe on this device.',
  };
}

/** What every error boundary shows: what happened and a way back, never a blank page. */
export function RouteError({ error }: { error: unknown }) {
  const { title, message } = explain(error);
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600 dark:bg-red-950 dark:text-red-400">
        <TriangleAlert className="size-6" aria-hidden />
      </span>
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{message}</p>
      <div className="mt-2 flex gap-2">
        <Button variant="outline" onClick={() => window.location.reload()}>
          Reload
        </Button>
        <Button asChild>
          <Link to="/">Go to Home</Link>
        </Button>
      </div>
    </div>
  );
}
