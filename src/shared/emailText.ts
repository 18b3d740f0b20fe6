import { TITLE_MAX_LENGTH } from './item';
import { stripControlsLine, stripControlsMultiline } from './text';

/**
 * How much of a mail's text is read: what a person writes above the history comes first, and a task's
 * description or a comment keeps far less, so the rest of a long mail is never worked through.
 */
export const MAIL_TEXT_READ_MAX = 100_000;

/** How much of a subject is read: a title keeps TITLE_MAX_LENGTH characters of it. */
export const SUBJECT_READ_MAX = 2_000;

// A lone surrogate cannot be stored (text.ts): mail decoded from a broken charset may hold one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text the database can store: no NUL, no lone surrogate (each becomes U+FFFD or goes). */
function storable(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replaceAll('\0', '');
}

// Where a client starts the history it quotes below a reply. Each is matched on one line, after the
// line's own white space is trimmed; "On … wrote:" may be wrapped over two lines (Gmail does).
const ATTRIBUTION = /^(on\b.+\bwrote|am\b.+\bschrieb\b.*|le\b.+\ba écrit)\s*:$/i;
const ORIGINAL_MESSAGE = /^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{2,}$/i;
const FORWARDED = /^-{2,}\s*forwarded message\s*-{2,}$/i;
// Outlook's block: a rule of underscores and/or "From: …" followed within a few lines by "Sent: …".
const OUTLOOK_RULE = /^_{10,}$/;
const OUTLOOK_FROM = /^(from|von|de)\s*:/i;
const OUTLOOK_SENT = /^(sent|gesendet|envoyé|date)\s*:/i;
// The signature delimiter is "-- " (RFC 3676 §4.3); clients that trim lines leave "--".
const SIGNATURE = /^--\s?$/;

/** Where the quoted history starts in these lines (their index), or the number of lines when none. */
function historyStart(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.trim();
    if (SIGNATURE.test(raw.trimStart())) return i;
    if (ORIGINAL_MESSAGE.test(line) || FORWARDED.test(line)) return i;
    if (ATTRIBUTION.test(line)) return i;
    const next = (lines[i + 1] ?? '').trim();
    if (/^on\b/i.test(line) && next !== '' && ATTRIBUTION.test(`${line} ${next}`)) return i;
    if (OUTLOOK_RULE.test(line) && OUTLOOK_FROM.test(next)) return i;
    if (OUTLOOK_FROM.test(line)) {
      const within = lines.slice(i + 1, i + 5).map((l) => l.trim());
      if (within.some((l) => OUTLOOK_SENT.test(l))) return i;
    }
  }
  return lines.length;
}

/**
 * The words a person wrote in a mail (ARCHITECTURE §4 'Email', 'In'): the plain text without the
 * history it quotes (from an "On … wrote:" line, Outlook's "-----Original Message-----" or
 * "From: … Sent: …" block, or a forwarded message on), without lines quoted with '>' and without the
 * signature after "-- "; line ends made \n, control characters and unstorable ones gone, lines'
 * trailing white space and blank lines at either end dropped, at most one blank line in a row.
 */
export function mailPlainText(text: string): string {
  const lines = stripControlsMultiline(storable(text.slice(0, MAIL_TEXT_READ_MAX))).split('\n');
  const kept = lines
    .slice(0, historyStart(lines))
    .filter((line) => !line.trimStart().startsWith('>'))
    .map((line) => line.trimEnd());
  const out: string[] = [];
  for (const line of kept) {
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

// Reply and forward markers as mail clients in several languages put them before a subject, with
// an optional count ("Re[2]:", "RE (3):"): the whole run of them in one pass.
const SUBJECT_PREFIXES = /^(?:(?:re|fwd?|fw|aw|wg|sv|vs|tr|antw)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*)+/i;

/**
 * An item's title from a mail's subject: one line (line breaks, tabs and control characters become
 * spaces or go), every leading Re:/Fwd:/AW:/WG: (and kin) taken off, white space collapsed and
 * trimmed, at most TITLE_MAX_LENGTH characters (never cutting a character in two). Empty when
 * nothing is left; the caller chooses the stand-in.
 */
export function titleFromSubject(subject: string): string {
  const title = stripControlsLine(storable(subject.slice(0, SUBJECT_READ_MAX)))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(SUBJECT_PREFIXES, '');
  if (title.length <= TITLE_MAX_LENGTH) return title;
  let cut = title.slice(0, TITLE_MAX_LENGTH);
  // A high surrogate at the end has lost its pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trimEnd();
}
