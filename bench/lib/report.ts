import { loadavg } from 'node:os';
/**
 * Shared reporting for every benchmark: each figure is printed beside its budget with PASS/FAIL,
 * and recorded so the dispatcher (bench/index.ts) can end with one summary table.
 *
 * Benchmarks call `check(...)` for a figure with a budget, or `info(...)` for a figure that is only
 * informational (no verdict, e.g. PGlite when the budget is stated for PostgreSQL).
 */

export type Verdict = 'PASS' | 'FAIL' | 'info' | 'skip';

export interface Figure {
  bench: string;
  /** What was measured, e.g. "PostgreSQL GET /api/items?type=todo&page=3". */
  subject: string;
  /** The figure's name, e.g. "p99 latency". */
  metric: string;
  value: string;
  budget: string;
  verdict: Verdict;
}

const figures: Figure[] = [];

export function recordedFigures(): readonly Figure[] {
  return figures;
}

/** The benchmark that new figures belong to; set by the dispatcher before each benchmark runs. */
let currentBench = 'unnamed';
export function setCurrentBench(name: string): void {
  currentBench = name;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function printFigure(f: Figure): void {
  console.log(`  ${pad(f.verdict, 5)} ${pad(f.metric, 22)} ${pad(f.value, 16)} budget ${f.budget}`);
}

/** Records and prints a figure with a budget; `enforced: false` shows the verdict as info only. */
export function check(options: {
  subject: string;
  metric: string;
  value: string;
  budget: string;
  ok: boolean;
  enforced?: boolean;
}): boolean {
  const enforced = options.enforced ?? true;
  const figure: Figure = {
    bench: currentBench,
    subject: options.subject,
    metric: options.metric,
    value: options.value,
    // An informational figure still says whether it would have met the budget.
    budget: enforced ? options.budget : `${options.budget} (${options.ok ? 'met' : 'missed'}, informational)`,
    verdict: enforced ? (options.ok ? 'PASS' : 'FAIL') : 'info',
  };
  figures.push(figure);
  printFigure(figure);
  return options.ok;
}

/** Records and prints a figure that has no budget. */
export function info(subject: string, metric: string, value: string): void {
  const figure: Figure = { bench: currentBench, subject, metric, value, budget: '-', verdict: 'info' };
  figures.push(figure);
  printFigure(figure);
}

/** Records a case that could not run (e.g. PostgreSQL unreachable), with the reason. */
export function skip(subject: string, reason: string): void {
  const figure: Figure = {
    bench: currentBench,
    subject,
    metric: 'skipped',
    value: '-',
    budget: reason,
    verdict: 'skip',
  };
  figures.push(figure);
  console.log(`  SKIP  ${subject}: ${reason}`);
}

export function heading(text: string): void {
  console.log(`\n${text}`);
}

/** A plain text table with left-aligned columns. */
export function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export const fmt = {
  // autocannon records whole milliseconds, so its 0 means "under a millisecond".
  ms: (v: number) => (v === 0 ? '<1 ms' : `${v.toFixed(v < 10 ? 2 : 1)} ms`),
  rps: (v: number) => `${Math.round(v).toLocaleString('en-US')} req/s`,
  bytes: (v: number) => `${v} B`,
  count: (v: number) => String(v),
  pct: (v: number) => `${(v * 100).toFixed(0)}%`,
};

/**
 * The closing table of an alternating bench (app beside its reference), with the machine's load
 * average before (`load0`, os.loadavg() at the start) and after, and how long the run took.
 */
export function printAlternatingSummary(
  caption: string,
  rows: string[][],
  load0: number[],
  started: number,
): void {
  const load1 = loadavg();
  console.log(`\n${caption}`);
  console.log(table(['figure', 'app', 'reference', 'ratio (spread)', 'budget', 'verdict'], rows));
  console.log(
    `load average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ${load1.map((l) => l.toFixed(2)).join(' ')} ` +
      `(1/5/15 min); run took ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}
