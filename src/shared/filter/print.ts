import { durationInput } from '../duration';
import type { FilterAst, FilterTerm, Who } from './ast';
import { folded } from './words';

/** A quoted value: `"` and `\` escaped with `\`. */
const quote = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** A value as written after a keyword: bare when it reads back the same, else quoted. */
function value(text: string, reserved: readonly string[] = []): string {
  const bare =
    text !== '' &&
    text === text.trim().replace(/\s+/g, ' ') &&
    !/[&|()"]/.test(text) &&
    !reserved.includes(folded(text));
  return bare ? text : quote(text);
}

/** A name after `#`, `@` or `+`: bare when it has no space or operator, else quoted. */
const token = (text: string) => (text !== '' && !/[\s&|()"]/.test(text) ? text : quote(text));

function who(w: Who): string {
  if (w.kind === 'me') return 'me';
  if (w.kind === 'none') return 'none';
  return value(w.name, ['me', 'none']);
}

function term(t: FilterTerm): string {
  switch (t.kind) {
    case 'today':
      return 'today';
    case 'overdue':
      return 'overdue';
    case 'noDate':
      return 'no date';
    case 'due':
      return `due ${t.op}: ${value(t.date)}`;
    case 'start':
      return `start ${t.op} ${value(t.date)}`;
    case 'priority':
      return `p${t.value}`;
    case 'label':
      return `+${token(t.name)}`;
    case 'campaign':
      return `#${token(t.name)}`;
    case 'assigned':
      // '@Ann' for a plain name; 'assigned: …' for me, none, and a name '@' would read otherwise.
      if (t.who.kind === 'name' && folded(t.who.name) !== 'me' && token(t.who.name) === t.who.name)
        return `@${t.who.name}`;
      return `assigned: ${who(t.who)}`;
    case 'status':
      return `status: ${t.value === 'in_progress' ? 'in progress' : t.value}`;
    case 'type':
      return `type: ${t.value}`;
    case 'createdBy':
      return `created by: ${who(t.who)}`;
    case 'has':
      return `has: ${t.what}`;
    case 'tracked':
      return `tracked ${t.op} ${durationInput(t.minutes)}`;
    case 'search':
      return `search: ${value(t.words)}`;
  }
}

const PRECEDENCE = { or: 1, and: 2, not: 3 } as const;
const precedenceOf = (ast: FilterAst) =>
  ast.kind === 'or' || ast.kind === 'and' || ast.kind === 'not' ? PRECEDENCE[ast.kind] : 4;

/** The query in its one canonical spelling: parse(print(ast)) gives `ast` back. */
export function print(ast: FilterAst): string {
  if (ast.kind === 'not') {
    const inner = print(ast.term);
    return precedenceOf(ast.term) < PRECEDENCE.not ? `!(${inner})` : `!${inner}`;
  }
  if (ast.kind === 'and' || ast.kind === 'or') {
    const own = PRECEDENCE[ast.kind];
    // Left-associative: a left side of the same strength needs no parentheses, a right side does.
    const left = precedenceOf(ast.left) < own ? `(${print(ast.left)})` : print(ast.left);
    const right = precedenceOf(ast.right) <= own ? `(${print(ast.right)})` : print(ast.right);
    return `${left} ${ast.kind === 'and' ? '&' : '|'} ${right}`;
  }
  return term(ast);
}
