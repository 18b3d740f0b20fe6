/**
 * SYNC.md W8, Q13: only the local-write funnel creates queue rows and undo records, and only the
 * queue's owner (sync/queue.ts) changes queue rows, which the funnel asks it to create (`enqueue`).
 * This check reads the client's non-test code for every way of writing IndexedDB: a Dexie table
 * (`db.syncQueue`, `table('syncQueue')`, `db['syncQueue']`) followed by a call chain that writes
 * (`add`, `put`, `update`, `delete`, `modify`, `clear`, their bulk forms, through any `where`,
 * `filter` or `toCollection` in between), a raw write (`rawWrite`/`issueWrite` naming the store) and
 * a raw IndexedDB store (`objectStore('syncQueue')`). Reads are anyone's. A store named through a
 * variable is not seen: name stores by their literal.
 */
export const FUNNEL = 'src/client/data/changes/applyLocalChange.ts';
/** The queue's one owner (ARCHITECTURE §6 'The queue has one owner'). */
export const QUEUE_OWNER = 'src/client/data/sync/queue.ts';
/** The schema, whose upgrade functions rewrite stored rows as the database opens (a version's migration). */
export const SCHEMA = 'src/client/data/store/db.ts';

/** Calls that change a Dexie table's or collection's rows, or a raw store's. */
const WRITES = new Set([
  'add',
  'bulkAdd',
  'put',
  'bulkPut',
  'update',
  'bulkUpdate',
  'delete',
  'bulkDelete',
  'modify',
  'clear',
]);
const CREATES = new Set(['add', 'bulkAdd', 'put', 'bulkPut']);

/** Where a store's rows are reached: the name's group is the store. */
const tableRefs = (store: string, asProperty: boolean) =>
  new RegExp(
    [
      // db.syncQueue, tx.syncQueue, a destructured `syncQueue` (the queue's name is its own; `undo`
      // is a common word, so only as a property).
      asProperty ? `\\.\\s*${store}\\b(?!['"])` : `(?<![\\w'"$])${store}(?![\\w'"$])`,
      // db.table('syncQueue'), tx.table<QueueEntry, string>('syncQueue')
      `\\btable\\s*(?:<[^>()]*>)?\\s*\\(\\s*['"]${store}['"]\\s*\\)`,
      // db['syncQueue']
      `\\[\\s*['"]${store}['"]\\s*\\]`,
      // a raw IndexedDB store
      `\\bobjectStore\\s*\\(\\s*['"]${store}['"]\\s*\\)`,
    ].join('|'),
    'g',
  );
const QUEUE_REFS = tableRefs('syncQueue', false);
const UNDO_REFS = tableRefs('undo', true);
/** A raw write naming the store (store/rawWrites.ts): `rawWrite('syncQueue', …)`, `issueWrite(idb, 'undo', …)`. */
const RAW_WRITES = /\b(rawWrite|issueWrite)\s*\(\s*(?:[\w$.]+\s*,\s*)?['"](syncQueue|undo)['"]/g;
const RAW_STORE = /\bobjectStore\s*\(\s*['"]syncQueue['"]/g;
/** The queue owner's creating operations: the funnel's alone to call. */
const ENQUEUE = /(?<![\w$.])(enqueue|enqueueRaw)\s*\(/g;

/** The index just past the bracketed run opening at `i` (strings skipped). */
function skipBracketed(text: string, i: number): number {
  const close: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
  const stack: string[] = [];
  for (let j = i; j < text.length; j++) {
    const c = text[j]!;
    if (c === "'" || c === '"' || c === '`') {
      for (j++; j < text.length && text[j] !== c; j++) if (text[j] === '\\') j++;
      continue;
    }
    if (c === '/' && text[j + 1] === '/') {
      j = text.indexOf('\n', j);
      if (j < 0) return text.length;
      continue;
    }
    // Generics hold no other brackets that matter; `=>` inside an argument is no closer.
    if (c === '>' && text[j - 1] === '=') continue;
    if (stack.length > 0 && c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return j + 1;
    } else if (c in close && (c !== '<' || stack.length === 0)) stack.push(close[c]!);
  }
  return text.length;
}

/** The methods called down the chain that starts at `i` (`.where(…).equals(x).delete()`), with their offsets. */
function chainCalls(text: string, i: number): { name: string; at: number }[] {
  const calls: { name: string; at: number }[] = [];
  let j = i;
  const space = () => {
    while (j < text.length && /[\s!]/.test(text[j]!)) j++;
  };
  for (;;) {
    space();
    if (text[j] === '?' && text[j + 1] === '.') j++;
    if (text[j] === '[') {
      j = skipBracketed(text, j);
      continue;
    }
    if (text[j] !== '.') return calls;
    j++;
    space();
    const name = /^[\w$]+/.exec(text.slice(j))?.[0];
    if (!name) return calls;
    const at = j;
    j += name.length;
    space();
    if (text[j] === '<') {
      j = skipBracketed(text, j);
      space();
    }
    if (text[j] === '(') {
      calls.push({ name, at });
      j = skipBracketed(text, j);
    }
  }
}

const lineOf = (text: string, at: number) => text.slice(0, at).split('\n').length;

/** The lines of `text` (a file at `file`) that write queue rows outside their owner or undo records outside the funnel. */
export function funnelProblems(file: string, text: string): string[] {
  if (!file.startsWith('src/client/') || /\.test\.tsx?$/.test(file)) return [];
  const problems: { line: number; text: string }[] = [];
  const problem = (at: number, what: string) =>
    problems.push({ line: lineOf(text, at), text: `${file}:${lineOf(text, at)} ${what}` });
  const owner = file === QUEUE_OWNER;
  if (!owner) {
    for (const ref of text.matchAll(QUEUE_REFS)) {
      // The schema's upgrades rewrite stored rows as the database opens, before anything reads them.
      if (file === SCHEMA && ref[0].startsWith('table')) continue;
      for (const call of chainCalls(text, ref.index + ref[0].length))
        if (WRITES.has(call.name))
          problem(
            call.at,
            `changes syncQueue rows (${call.name}): only ${QUEUE_OWNER} changes queue rows (SYNC.md Q13)`,
          );
    }
    for (const raw of text.matchAll(RAW_STORE))
      problem(raw.index, `opens syncQueue raw: only ${QUEUE_OWNER} writes queue rows (SYNC.md Q13)`);
  }
  if (file !== FUNNEL && !owner) {
    for (const call of text.matchAll(ENQUEUE))
      problem(call.index, `calls ${call[1]}: only ${FUNNEL} creates queue rows (SYNC.md W8)`);
  }
  for (const raw of text.matchAll(RAW_WRITES)) {
    const store = raw[2]!;
    if (store === 'syncQueue' ? owner : file === FUNNEL) continue;
    const who = store === 'syncQueue' ? QUEUE_OWNER : FUNNEL;
    problem(raw.index, `writes ${store} rows raw (${raw[1]}): only ${who} creates them (SYNC.md W8, Q13)`);
  }
  if (file !== FUNNEL) {
    for (const ref of text.matchAll(UNDO_REFS))
      for (const call of chainCalls(text, ref.index + ref[0].length))
        if (CREATES.has(call.name))
          problem(
            call.at,
            `writes undo rows (${call.name}): only ${FUNNEL} creates queue rows and undo records (SYNC.md W8)`,
          );
  }
  return problems.sort((a, b) => a.line - b.line).map((p) => p.text);
}
