import { parseDuration } from '../duration';
import {
  FILTER_MAX_DEPTH,
  FILTER_MAX_LENGTH,
  type FilterAst,
  type FilterError,
  type FilterTerm,
  HAS_WHAT,
  type HasWhat,
  type ParseResult,
  START_OPS,
  type StartOp,
  TRACKED_OPS,
  type TrackedOp,
  type Who,
} from './ast';
import { folded, readFilterDate } from './words';

/**
 * The filter language's parser: `|` binds loosest, then `&`, then `!`; parentheses group. A term's
 * value (a date, a name, words) runs to the next `&`, `|`, `(` or `)`, or is quoted ("…", with \"
 * and \\ inside). Keywords and values are read without case.
 */

// Any day reads a phrase the same way as a date or not; this one only decides whether it is one.
const REFERENCE_DAY = '2026-01-15';
const STOPS = '&|()';

class Failure extends Error {
  constructor(readonly error: FilterError) {
    super(error.message);
  }
}

const fail = (column: number, expected: string): never => {
  throw new Failure({ column, expected, message: `Expected ${expected} at ${column}` });
};

const STATUS_WORDS: Record<string, FilterTerm & { kind: 'status' }> = {
  pending: { kind: 'status', value: 'pending' },
  'in progress': { kind: 'status', value: 'in_progress' },
  in_progress: { kind: 'status', value: 'in_progress' },
  completed: { kind: 'status', value: 'completed' },
};
const TYPE_WORDS = ['campaign', 'task', 'todo'] as const;
const HAS_WORDS: Record<string, HasWhat> = { file: 'files', comment: 'comments' };
for (const what of HAS_WHAT) HAS_WORDS[what] = what;

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  /** The 1-based column of index `at`. */
  private col(at = this.pos): number {
    return at + 1;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] as string)) this.pos += 1;
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  query(): FilterAst {
    const ast = this.or();
    this.skipSpace();
    if (this.pos < this.text.length)
      fail(this.col(), this.peek() === ')' ? 'no ")" without its "("' : '"&", "|" or the end');
    return ast;
  }

  private or(): FilterAst {
    let left = this.and();
    for (;;) {
      this.skipSpace();
      if (this.peek() !== '|') return left;
      this.pos += 1;
      left = { kind: 'or', left, right: this.and() };
    }
  }

  private and(): FilterAst {
    let left = this.unary();
    for (;;) {
      this.skipSpace();
      if (this.peek() !== '&') return left;
      this.pos += 1;
      left = { kind: 'and', left, right: this.unary() };
    }
  }

  private nest(): void {
    this.depth += 1;
    if (this.depth > FILTER_MAX_DEPTH) fail(this.col(), `at most ${FILTER_MAX_DEPTH} levels of "(" and "!"`);
  }

  private unary(): FilterAst {
    this.skipSpace();
    const c = this.peek();
    if (c === '!') {
      this.nest();
      this.pos += 1;
      const term = this.unary();
      this.depth -= 1;
      return { kind: 'not', term };
    }
    if (c === '(') {
      this.nest();
      this.pos += 1;
      const inner = this.or();
      this.skipSpace();
      if (this.peek() !== ')') fail(this.col(), '")"');
      this.pos += 1;
      this.depth -= 1;
      return inner;
    }
    return this.term();
  }

  /** The keyword `words` (spaces between them free) at the cursor, ending at a word's end; taken if so. */
  private keyword(words: string): boolean {
    const pattern = new RegExp(`${words.split(' ').join('\\s+')}(?![\\p{L}\\p{N}_])`, 'iuy');
    pattern.lastIndex = this.pos;
    const m = pattern.exec(this.text);
    if (!m) return false;
    this.pos += m[0].length;
    return true;
  }

  private colon(after: string): void {
    this.skipSpace();
    if (this.peek() !== ':') fail(this.col(), `":" after "${after}"`);
    this.pos += 1;
  }

  /** A quoted string at the cursor (the quote taken), its text; fails at an unclosed one. */
  private quoted(): string {
    const start = this.pos;
    this.pos += 1;
    let out = '';
    while (this.pos < this.text.length) {
      const c = this.text[this.pos] as string;
      if (c === '"') {
        this.pos += 1;
        return out;
      }
      if (c === '\\' && this.pos + 1 < this.text.length) {
        out += this.text[this.pos + 1];
        this.pos += 2;
        continue;
      }
      out += c;
      this.pos += 1;
    }
    return fail(this.col(), `a closing quote for the one at ${this.col(start)}`);
  }

  /** A value: quoted, or the words up to the next operator (spaces folded); null when there is none. */
  private value(): { text: string; quoted: boolean; column: number } | null {
    this.skipSpace();
    const column = this.col();
    if (this.peek() === '"') return { text: this.quoted(), quoted: true, column };
    const start = this.pos;
    while (this.pos < this.text.length && !STOPS.includes(this.peek())) this.pos += 1;
    const text = this.text.slice(start, this.pos).trim().replace(/\s+/g, ' ');
    return text === '' ? null : { text, quoted: false, column };
  }

  /** A name right after `#`, `@` or `+`: quoted, or up to a space or an operator. */
  private token(): string | null {
    if (this.peek() === '"') return this.quoted();
    const start = this.pos;
    while (this.pos < this.text.length && !/[\s&|()]/.test(this.peek())) this.pos += 1;
    const text = this.text.slice(start, this.pos);
    return text === '' ? null : text;
  }

  private date(after: string): string {
    const v = this.value();
    const words = v ? folded(v.text) : '';
    if (!v || readFilterDate(words, REFERENCE_DAY) === null)
      fail(v?.column ?? this.col(), `a date after "${after}"`);
    return words;
  }

  private op<T extends string>(ops: readonly T[], after: string): T {
    this.skipSpace();
    for (const op of ops)
      if (this.text.startsWith(op, this.pos)) {
        this.pos += op.length;
        return op;
      }
    return fail(this.col(), `${ops.map((o) => `"${o}"`).join(', ')} after "${after}"`);
  }

  private who(after: string, none: boolean): Who {
    const v = this.value();
    if (!v || v.text.trim() === '')
      return fail(v?.column ?? this.col(), `${none ? 'me, none' : 'me'} or a name after "${after}"`);
    if (!v.quoted && folded(v.text) === 'me') return { kind: 'me' };
    if (!v.quoted && none && folded(v.text) === 'none') return { kind: 'none' };
    return { kind: 'name', name: v.text };
  }

  private term(): FilterTerm {
    const start = this.pos;
    const c = this.peek();
    if (c === '+' || c === '#' || c === '@') {
      this.pos += 1;
      const name = this.token();
      const what = c === '+' ? 'a label' : c === '#' ? 'a campaign' : 'a person';
      if (name === null || name.trim() === '') return fail(this.col(start + 1), `${what} after "${c}"`);
      if (c === '+') return { kind: 'label', name };
      if (c === '#') return { kind: 'campaign', name };
      return { kind: 'assigned', who: folded(name) === 'me' ? { kind: 'me' } : { kind: 'name', name } };
    }
    if (this.keyword('today')) return { kind: 'today' };
    if (this.keyword('overdue')) return { kind: 'overdue' };
    if (this.keyword('no date')) return { kind: 'noDate' };
    const priority = /p([1-4])(?![\p{L}\p{N}_])/iuy;
    priority.lastIndex = this.pos;
    const p = priority.exec(this.text);
    if (p) {
      this.pos += p[0].length;
      return { kind: 'priority', value: Number(p[1]) as 1 | 2 | 3 | 4 };
    }
    for (const op of ['before', 'after'] as const)
      if (this.keyword(`due ${op}`)) {
        this.colon(`due ${op}`);
        return { kind: 'due', op, date: this.date(`due ${op}:`) };
      }
    if (this.keyword('start')) {
      const op: StartOp = this.op(START_OPS, 'start');
      return { kind: 'start', op, date: this.date(`start ${op}`) };
    }
    if (this.keyword('tracked')) {
      const op: TrackedOp = this.op(TRACKED_OPS, 'tracked');
      const v = this.value();
      const minutes = v ? parseDuration(v.text) : null;
      if (!v || minutes === null)
        return fail(v?.column ?? this.col(), `a duration such as 2h after "tracked ${op}"`);
      return { kind: 'tracked', op, minutes };
    }
    if (this.keyword('assigned')) {
      this.colon('assigned');
      return { kind: 'assigned', who: this.who('assigned:', true) };
    }
    if (this.keyword('created by')) {
      this.colon('created by');
      const who = this.who('created by:', false);
      return { kind: 'createdBy', who: who.kind === 'none' ? { kind: 'name', name: 'none' } : who };
    }
    if (this.keyword('status')) {
      this.colon('status');
      const v = this.value();
      const found = v ? STATUS_WORDS[folded(v.text)] : undefined;
      if (!found) return fail(v?.column ?? this.col(), 'pending, in progress or completed after "status:"');
      return found;
    }
    if (this.keyword('type')) {
      this.colon('type');
      const v = this.value();
      const found = TYPE_WORDS.find((t) => v && folded(v.text) === t);
      if (!found) return fail(v?.column ?? this.col(), 'campaign, task or todo after "type:"');
      return { kind: 'type', value: found };
    }
    if (this.keyword('has')) {
      this.colon('has');
      const v = this.value();
      const found = v ? HAS_WORDS[folded(v.text)] : undefined;
      if (!found) return fail(v?.column ?? this.col(), 'files, comments, estimate or time after "has:"');
      return { kind: 'has', what: found };
    }
    if (this.keyword('search')) {
      this.colon('search');
      const v = this.value();
      if (!v || v.text.trim() === '') return fail(v?.column ?? this.col(), 'words after "search:"');
      return { kind: 'search', words: v.text };
    }
    return fail(this.col(start), 'a term such as today, p1, +label or status:');
  }
}

/** Reads a filter query: its tree, or where and why it does not read (column 1-based). */
export function parse(text: string): ParseResult {
  if (text.length > FILTER_MAX_LENGTH)
    return {
      ok: false,
      error: {
        column: FILTER_MAX_LENGTH + 1,
        expected: `at most ${FILTER_MAX_LENGTH} characters`,
        message: `Expected at most ${FILTER_MAX_LENGTH} characters at ${FILTER_MAX_LENGTH + 1}`,
      },
    };
  // Control characters never belong in a query (and PostgreSQL refuses a NUL in text).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.exec(text);
  if (control) {
    const column = control.index + 1;
    return {
      ok: false,
      error: {
        column,
        expected: 'a printable character',
        message: `Expected a printable character at ${column}`,
      },
    };
  }
  try {
    return { ok: true, ast: new Parser(text).query() };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.error };
    throw error;
  }
}
