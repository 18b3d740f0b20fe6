/**
 * SYNC.md W8: only the local-write funnel creates queue rows and undo records. A call that adds or puts
 * a row of `syncQueue` or `undo` anywhere else in the client's non-test code is a problem; updating
 * an entry (a retry count) and deleting one (sent, undone) are the sync engine's and undo's business.
 */
export const FUNNEL = 'src/client/data/changes/applyLocalChange.ts';

const CREATES = /\.(syncQueue|undo)\s*\.\s*(add|bulkAdd|put|bulkPut)\s*\(/g;

/** The lines of `text` (a file at `file`) that create queue rows or undo records outside the funnel. */
export function funnelProblems(file: string, text: string): string[] {
  if (file === FUNNEL || !file.startsWith('src/client/') || /\.test\.tsx?$/.test(file)) return [];
  const problems: string[] = [];
  for (const match of text.matchAll(CREATES)) {
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(
      `${file}:${line} writes ${match[1]} rows (${match[2]}): only ${FUNNEL} creates queue rows and undo records (SYNC.md W8)`,
    );
  }
  return problems;
}
