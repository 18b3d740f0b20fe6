/**
 * Plain text cut into runs of text and web links, for descriptions (issue 50: a URL in one was only
 * text). Only http(s) addresses become links, so a 'javascript:' or 'data:' text is never one; the
 * punctuation that closes a sentence ('see https://x.org.') stays text, as does a ')' the URL did not
 * open.
 */

import { linkableRuns } from './text';

/** A run of the text: words as they are, or a link with the address it opens. */
export type TextRun = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// From 'http://' or 'https://' (any case) to the next space or character a URL never holds unescaped.
const URL_START = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;
const TRAILING = /[.,;:!?*]+$/;

/** `candidate` without the sentence's punctuation and unopened closing brackets at its end. */
function trimEnd(candidate: string): string {
  let url = candidate;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
    ] as const) {
      if (url.endsWith(close) && url.split(close).length > url.split(open).length) url = url.slice(0, -1);
    }
    if (url === before) return url;
  }
}

/** The address a link opens, or null when `text` is no http(s) URL with a host. */
function hrefOf(text: string): string | null {
  try {
    const url = new URL(text);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * `text` as runs: every http(s) URL a link, the rest text; joined, the runs' texts are `text`. Links
 * are found between invisible format characters (K28, as in comments: `linkableRuns`), so a link
 * ends before a bidi override or a zero-width character and its address never carries one.
 */
export function linkify(text: string): TextRun[] {
  const runs: TextRun[] = [];
  const push = (words: string) => {
    if (words === '') return;
    const last = runs.at(-1);
    if (last?.kind === 'text') last.text += words;
    else runs.push({ kind: 'text', text: words });
  };
  linkableRuns(text).forEach((part, i) => {
    // Odd places hold the invisible characters themselves: text, never part of a link.
    if (i % 2 === 1) {
      push(part);
      return;
    }
    let from = 0;
    for (const match of part.matchAll(URL_START)) {
      const url = trimEnd(match[0]);
      const href = hrefOf(url);
      if (href === null) continue;
      push(part.slice(from, match.index));
      runs.push({ kind: 'link', text: url, href });
      from = match.index + url.length;
    }
    push(part.slice(from));
  });
  return runs;
}
