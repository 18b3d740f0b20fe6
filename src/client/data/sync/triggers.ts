import { ECHO_WINDOW_MS } from '../../../shared/serverEvents';

export const SYNC_INTERVAL_MS = 30_000;

/** The first retry after a run that could not reach the server; each next one waits twice as long. */
export const UNREACHABLE_RETRY_MS = 2_000;

/**
 * The wait before the next periodic sync: the interval ±20 %, so a user's devices do not knock in
 * step. After `failures` runs in a row that could not reach the server, sooner: 2 s, 4 s, 8 s … up to
 * the interval, so a server back after a restart is found in seconds, not half a minute (P15).
 */
export function nextSyncDelay(
  interval: number = SYNC_INTERVAL_MS,
  random: () => number = Math.random,
  failures = 0,
): number {
  const base = failures > 0 ? Math.min(interval, UNREACHABLE_RETRY_MS * 2 ** (failures - 1)) : interval;
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * E1, the own echo. The server's `changed` event carries nothing and several commits may share one,
 * so no event can be proved to be only this device's echo; none is ever skipped. Instead an event
 * that arrives while this device's own push run is under way, or within `windowMs` after a run that
 * sent something, waits for the end of that window, and all such events make one pull. Any other
 * event pulls at once.
 */
export function createEchoGate(opts: { pull: () => void; windowMs?: number; now?: () => number }) {
  const windowMs = opts.windowMs ?? ECHO_WINDOW_MS;
  const now = opts.now ?? Date.now;
  let active = 0;
  let endedAt = Number.NEGATIVE_INFINITY;
  let waiting = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const inWindow = () => active > 0 || now() < endedAt + windowMs;
  const arm = () => {
    if (timer) clearTimeout(timer);
    const wait = active > 0 ? windowMs : Math.max(0, endedAt + windowMs - now());
    timer = setTimeout(fire, wait);
  };
  function fire(): void {
    timer = null;
    if (!waiting) return;
    if (inWindow()) {
      arm();
      return;
    }
    waiting = false;
    opts.pull();
  }

  return {
    /** A push run of this device starts. */
    pushStarted(): void {
      active++;
    },
    /** It ended; `sent` when it sent at least one request (only then can an echo follow). */
    pushEnded(sent: boolean): void {
      active = Math.max(0, active - 1);
      if (sent) endedAt = now();
      if (waiting) arm();
    },
    /** A `changed` event from the server. */
    changed(): void {
      if (!inWindow()) {
        opts.pull();
        return;
      }
      waiting = true;
      if (!timer) arm();
    },
    /** An event is waiting for the end of the window. */
    get waiting(): boolean {
      return waiting;
    },
    stop(): void {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = false;
    },
  };
}
