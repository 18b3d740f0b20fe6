import { DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH } from './item';

/**
 * What a phone shares into Outpost (the manifest's share_target, ARCHITECTURE §6 'Files offline'):
 * a title, a text and a url as the sharing app fills them (each may be empty; many apps put the link
 * in the text), and files. Quick add opens with a title and a description made from them.
 */
export interface SharedWords {
  title: string;
  text: string;
  url: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `text` cut to `max` characters with an ellipsis, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * Quick add's title and description for a share: the shared title, else the text's first line, else
 * the url, else the first file's name; the description holds the rest of the words (the text, the url
 * when the text does not hold it already), so nothing shared is lost, and a title too long for an
 * item keeps its whole text in the description.
 */
export function sharedPrefill(
  shared: SharedWords,
  fileNames: readonly string[] = [],
): { title: string; description: string } {
  const title = shared.title.trim();
  const text = shared.text.trim();
  const url = shared.url.trim();
  const lines = text === '' ? [] : text.split(/\r?\n/);
  let head = oneLine(title);
  let rest = text;
  if (head === '' && lines.length > 0) {
    head = oneLine(lines[0] ?? '');
    rest = lines.slice(1).join('\n').trim();
  }
  if (head === '' && url !== '') head = url;
  if (head === '') head = oneLine(fileNames[0] ?? '');
  const parts: string[] = [];
  if ([...head].length > TITLE_MAX_LENGTH) parts.push(head);
  if (rest !== '' && rest !== head) parts.push(rest);
  if (url !== '' && url !== head && !text.includes(url)) parts.push(url);
  return {
    title: cut(head, TITLE_MAX_LENGTH),
    description: cut(parts.join('\n\n'), DESCRIPTION_MAX_LENGTH),
  };
}

/** The `share` query of the app's address: a share's id, or 'failed' / 'again' when none arrived. */
export type ShareQuery = { kind: 'share'; id: string } | { kind: 'failed' } | { kind: 'again' } | null;

/** Reads the `share` query parameter the worker (or, before any worker, the server) sent the app to. */
export function readShareQuery(value: string | null): ShareQuery {
  if (value === null || value === '') return null;
  if (value === 'failed') return { kind: 'failed' };
  if (value === 'again') return { kind: 'again' };
  return /^[0-9a-f-]{36}$/i.test(value) ? { kind: 'share', id: value.toLowerCase() } : null;
}
