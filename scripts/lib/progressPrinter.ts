/**
 * Prints a progress line at most every `everyMs` (and always the last one): rewritten in place on a
 * terminal, one line at a time in a log.
 */
export function progressPrinter(everyMs = 1_000): {
  show(line: string, force?: boolean): void;
  done(): void;
} {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let shown = false;
  return {
    show(line, force = false) {
      const now = Date.now();
      if (!force && now - last < everyMs) return;
      last = now;
      shown = true;
      if (tty) process.stderr.write(`\r\x1b[2K${line}`);
      else process.stderr.write(`${line}\n`);
    },
    done() {
      if (tty && shown) process.stderr.write('\n');
    },
  };
}
