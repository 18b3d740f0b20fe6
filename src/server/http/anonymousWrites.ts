import { HttpError } from './errors';

const MINUTE = 60_000;
/** Past this many addresses, windows that are over are dropped; past ten times as many, all are. */
const TIDY_FROM = 10_000;

/**
 * The per-address budget of writes without a signed-in session (ARCHITECTURE §4: 429 with
 * Retry-After). Only refused ones count (a wrong or missing anti-forgery token, no session, an invalid
 * or rate-limited sign-in, any 4xx), so people signing in, even hundreds a minute behind one address
 * (a test suite, an office behind NAT), never meet it, while a flood of forged or junk writes is cut
 * off after `max` a minute. Once over, every write without a session from the address is refused
 * with 429 before its body is read, until the window ends.
 *
 * Fixed one-minute windows, in the instance's memory, like the other per-address limits.
 */
export class AnonymousWriteLimit {
  private readonly windows = new Map<string, { startedAt: number; refused: number }>();

  constructor(
    readonly max: number,
    private readonly now: () => number = Date.now,
    readonly windowMs = MINUTE,
  ) {}

  /** Throws the 429 when `address` has used up its refused writes for this window. */
  check(address: string): void {
    const window = this.current(address);
    if (!window || window.refused < this.max) return;
    const seconds = Math.max(1, Math.ceil((window.startedAt + this.windowMs - this.now()) / 1000));
    throw new HttpError(
      429,
      `Too many refused requests from this address. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
      {},
      { 'Retry-After': String(seconds) },
    );
  }

  /** Counts one refused write from `address`. */
  refused(address: string): void {
    const window = this.current(address);
    if (window) {
      window.refused++;
      return;
    }
    if (this.windows.size >= TIDY_FROM) this.tidy();
    this.windows.set(address, { startedAt: this.now(), refused: 1 });
  }

  private current(address: string) {
    const window = this.windows.get(address);
    if (window && this.now() - window.startedAt >= this.windowMs) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }

  private tidy(): void {
    const now = this.now();
    for (const [address, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs) this.windows.delete(address);
    }
    if (this.windows.size >= TIDY_FROM * 10) this.windows.clear();
  }
}
