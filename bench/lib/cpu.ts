import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time used by processes, from /proc (Linux only; elsewhere every figure is null). Used to show
 * where a request's cost goes: the server's Node process, the PostgreSQL backends serving it, and
 * the load generator itself, which shares the machine's cores with both.
 */

// Linux reports utime and stime in clock ticks; 100 per second on every common configuration.
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of one process, or null when it cannot be read. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses; the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds of every process whose command line passes `match` (null when none is visible). */
export function cpuSecondsWhere(match: (cmdline: string) => boolean): number | null {
  let total = 0;
  let found = false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!match(cmdline)) continue;
    const seconds = processCpuSeconds(Number(entry));
    if (seconds === null) continue;
    total += seconds;
    found = true;
  }
  return found ? total : null;
}

/**
 * CPU seconds of all local PostgreSQL backends connected to `database`, found by their process
 * title ("postgres: … user database host(port) state"). Null when none are visible, e.g. when the
 * server runs on another machine or in another container.
 */
export function postgresCpuSeconds(database: string): number | null {
  return cpuSecondsWhere((title) => title.startsWith('postgres:') && title.split(' ').includes(database));
}

/** This process's CPU seconds (the load generator). */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}
