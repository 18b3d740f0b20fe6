/**
 * Rules for free text that both the server's schemas and the client's forms apply, so a title the
 * client accepts is one the server stores, and the other way round. No zod here: the client's forms
 * import these without pulling the schema library in.
 */

/**
 * Why `text` cannot be stored as it is, or null when it can. PostgreSQL text cannot hold a NUL
 * (U+0000) at all (the insert fails), and a lone UTF-16 surrogate has no UTF-8 form (the driver
 * would silently store U+FFFD instead), so neither may reach the database.
 */
export function unstorableTextProblem(text: string): 'nul' | 'surrogate' | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return 'nul';
    if (code < 0xd800 || code > 0xdfff) continue;
    // A high surrogate must be followed by a low one; a low one must follow a high one (skipped here).
    const next = text.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    return 'surrogate';
  }
  return null;
}

/** Whether `text` can be stored faithfully: no NUL and no unpaired surrogate. */
export const isStorableText = (text: string): boolean => unstorableTextProblem(text) === null;

/**
 * The message a form or a 422 shows for a field whose text cannot be stored, or null when it can.
 * `label` names the field as a sentence starts it: 'The title'.
 */
export function unstorableTextMessage(text: string, label: string): string | null {
  const problem = unstorableTextProblem(text);
  return problem === null ? null : unstorableProblemMessage(problem, label);
}

/** The message for text with `problem` (unstorableTextProblem) in the field `label` names. */
export function unstorableProblemMessage(problem: 'nul' | 'surrogate', label: string): string {
  return problem === 'nul'
    ? `${label} must not contain a NUL character.`
    : `${label} contains an invalid character (an unpaired surrogate).`;
}

// A NUL or any surrogate: only text holding one needs the exact check (most text holds neither).
const MAYBE_UNSTORABLE = /[\0\ud800-\udfff]/;

/** Where a request's text cannot be stored: the path of the field (or key) and what is wrong with it. */
export interface UnstorableAt {
  /**
   * Dotted path of the field ('response.transports.0'), '' for a value that is text itself; for a
   * bad key, the path of the object holding it (the key itself is never repeated back).
   */
  path: string;
  problem: 'nul' | 'surrogate';
  /** Whether a key of the object at `path` is the bad text, not a value. */
  key: boolean;
}

/**
 * The first text inside a parsed request part (a JSON body, a query string, path parameters) that
 * cannot be stored (unstorableTextProblem), keys included, or null when all of it can. The one rule
 * every text input meets before any SQL sees it (the server's door, http/storableText.ts): a field
 * nobody thought to check cannot carry a NUL into a query, whatever its schema says.
 */
export function findUnstorableText(value: unknown, path = ''): UnstorableAt | null {
  if (typeof value === 'string') {
    if (!MAYBE_UNSTORABLE.test(value)) return null;
    const problem = unstorableTextProblem(value);
    return problem === null ? null : { path, problem, key: false };
  }
  if (value === null || typeof value !== 'object') return null;
  const entries: Iterable<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as [string, unknown])
    : Object.entries(value);
  for (const [key, inner] of entries) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!Array.isArray(value) && MAYBE_UNSTORABLE.test(key)) {
      const problem = unstorableTextProblem(key);
      if (problem !== null) return { path, problem, key: true };
    }
    const found = findUnstorableText(inner, at);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Characters that show nothing on their own: white space (JavaScript's \s, which includes U+00A0,
 * U+2000–U+200A, U+3000 and U+FEFF), control characters, format characters (U+200B–U+200F, U+2060–
 * U+2064, U+00AD, bidirectional marks…) and the rest of Unicode's default-ignorable code points
 * (U+3164 HANGUL FILLER, variation selectors, tags…), plus U+2800 BRAILLE PATTERN BLANK.
 */
const INVISIBLE = /^[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/**
 * Whether a title is empty for every practical purpose: nothing but white space and invisible
 * characters. Such a title is refused like an empty one ('The title is required.'), on the server and
 * in the client's forms; so are such a comment and such a label (K27), with their own empty message.
 */
export function isBlankTitle(title: string): boolean {
  return INVISIBLE.test(title);
}

/** Whether free text (a comment, a label) is nothing but white space and invisible characters (K27). */
export const isBlankText = isBlankTitle;

const LINE_BREAKS = /\r\n?|[\n\v\f\u0085\u2028\u2029]/g;
// Control characters (C0, DEL, C1) but the two a multi-line text keeps.
const CONTROLS_BUT_LINES = /(?![\t\n])\p{Cc}/gu;
const CONTROLS = /\p{Cc}/gu;

/**
 * Text of one line (a title, a label) without control characters (K27): a line break or a tab is a
 * space, every other control character (C0, DEL, C1) goes. Stripping twice changes nothing.
 */
export function stripControlsLine(text: string): string {
  return text.replace(/\r\n?|[\n\t\v\f\u0085\u2028\u2029]/g, ' ').replace(CONTROLS, '');
}

/**
 * Text of many lines (a comment, a description) without control characters (K27): it keeps its line
 * breaks (\r\n, \r and the Unicode ones read as \n) and tabs; every other control character goes.
 * Stripping twice changes nothing.
 */
export function stripControlsMultiline(text: string): string {
  return text.replace(LINE_BREAKS, '\n').replace(CONTROLS_BUT_LINES, '');
}

/** Invisible format characters (zero-width, bidirectional marks and overrides, joiners, tags…). */
const LINK_BREAKS = /([\p{Cf}\p{Default_Ignorable_Code_Point}]+)/u;

/**
 * Text cut where an invisible format character stands (K28): the runs in order, the invisible ones
 * at odd places. Links are found within each run alone, so a link ends before a bidi override or a
 * zero-width character and never carries one in its address.
 */
export function linkableRuns(text: string): string[] {
  return text.split(LINK_BREAKS);
}
