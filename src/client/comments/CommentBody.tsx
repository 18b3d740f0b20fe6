import { tokenize } from 'linkifyjs';
import { Fragment } from 'react';
import { type BodyPart, bodyParts, type Comment, UNKNOWN_MENTION } from '../../shared/comments';
import { linkableRuns } from '../../shared/text';

/** Links a comment may open: the web and mail. `javascript:`, `data:` and the rest stay text. */
const SAFE_HREF = /^(https?:|mailto:)/i;

function LinkedRun({ text, offset }: { text: string; offset: number }) {
  return (
    <>
      {tokenize(text).map((token) => {
        const value = token.toString();
        const key = offset + token.startIndex();
        const href = token.isLink ? token.toHref('https') : null;
        if (href === null || !SAFE_HREF.test(href)) return <Fragment key={key}>{value}</Fragment>;
        return (
          <a
            key={key}
            href={href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200"
          >
            {value}
          </a>
        );
      })}
    </>
  );
}

/** Text with its links made links; a link ends at an invisible character, never carrying one (K28). */
function LinkedText({ text }: { text: string }) {
  let offset = 0;
  return (
    <>
      {linkableRuns(text).map((run, i) => {
        const at = offset;
        offset += run.length;
        if (run === '') return null;
        return i % 2 === 1 ? (
          <Fragment key={at}>{run}</Fragment>
        ) : (
          <LinkedRun key={at} text={run} offset={at} />
        );
      })}
    </>
  );
}

/** Each part with its offset in the body, a key that stays with the part while the text is the same. */
function keyed(parts: BodyPart[]): { part: BodyPart; key: number }[] {
  let offset = 0;
  return parts.map((part) => {
    const key = offset;
    offset +=
      part.kind === 'text'
        ? part.text.length
        : part.kind === 'mention'
          ? String(part.id).length + 3
          : part.length;
    return { part, key };
  });
}

/**
 * A comment's body as a reader sees it: plain text with its line breaks, links made links, mentions
 * shown by name (a token of nobody it names as '@unknown', never its id). React renders every part as text, so markup in a body stays the characters typed.
 */
export function CommentBody({ comment }: { comment: Pick<Comment, 'body' | 'mentions'> }) {
  return (
    <p className="text-sm whitespace-pre-wrap text-zinc-800 [overflow-wrap:anywhere] dark:text-zinc-200">
      {keyed(bodyParts(comment.body, comment.mentions)).map(({ part, key }) =>
        part.kind === 'text' ? (
          <LinkedText key={key} text={part.text} />
        ) : part.kind === 'unknown' ? (
          // A mention of someone this comment no longer names: no id on screen, nobody to link.
          <span
            key={key}
            title="Someone who can no longer be named here"
            className="font-medium text-zinc-500 dark:text-zinc-400"
          >
            {UNKNOWN_MENTION}
          </span>
        ) : (
          <span
            key={key}
            data-mention={part.id}
            className="rounded bg-indigo-50 px-0.5 font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
          >
            @{part.name}
          </span>
        ),
      )}
    </p>
  );
}
