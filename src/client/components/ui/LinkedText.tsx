import { Fragment, useMemo } from 'react';
import { linkify } from '../../../shared/linkify';
import { cn, focusRing } from './cn';

/**
 * Text with its http(s) URLs as links (shared/linkify), each opening in a new tab with no opener and
 * no referrer: a description is anyone's text, and its page must not be reachable from the link's.
 */
export function LinkedText({ text }: { text: string }) {
  const runs = useMemo(() => linkify(text), [text]);
  return runs.map((run, i) =>
    run.kind === 'text' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one text, in order, never reordered
      <Fragment key={i}>{run.text}</Fragment>
    ) : (
      <a
        // biome-ignore lint/suspicious/noArrayIndexKey: as above
        key={i}
        href={run.href}
        target="_blank"
        rel="noopener noreferrer"
        className={cn(
          'rounded-sm text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100',
          focusRing,
        )}
      >
        {run.text}
      </a>
    ),
  );
}
