/**
 * One drain of an outbox at a time (push, webhooks, mail): a `run` while one drains asks for exactly
 * one more after it, so no two overlap and no wake-up is lost however many arrive meanwhile.
 */
export class SingleDrain {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly hooks: {
      /** A drain that threw (its outbox logs it; the next wake-up tries again). */
      failed: (error: unknown) => void;
      /** Runs the drain asked for meanwhile: the outbox's own wake-up, with what it does first. */
      rerun: () => void;
      /** After a drain with none asked for meanwhile (the webhooks arm their retry timer). */
      idle?: () => void;
    },
  ) {}

  /** Starts a drain, or asks for one more after the drain under way. */
  run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch(this.hooks.failed)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.hooks.rerun();
        } else this.hooks.idle?.();
      });
  }

  /** The drain under way, if any (to wait for it, or to know one runs). */
  get current(): Promise<void> | null {
    return this.running;
  }
}
