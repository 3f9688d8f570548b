/**
 * Coalesces a burst of changes into one action on the newest: the action runs `delay` ms after the last change,
 * but no later than `maxWait` ms after the first, so a steady stream of pushes still gets applied. A transient
 * state seen mid-burst is never acted on (consul-template users were bitten by exactly that: one transient view
 * rendered and reloaded three times in 31 s). Actions never overlap: a change during one waits for it.
 */
export interface DebounceTiming {
  readonly delay: number;
  readonly maxWait: number;
}

export class Debouncer<T> {
  #pending: { value: T } | undefined;
  #firstAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(
    private readonly timing: DebounceTiming,
    /** Handles its own failures: it must not reject. */
    private readonly action: (value: T) => Promise<void>,
  ) {}

  /** A new value: (re)starts the wait. */
  push(value: T): void {
    if (this.#stopped) return;
    const now = Date.now();
    if (this.#pending === undefined) this.#firstAt = now;
    this.#pending = { value };
    clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.timing.delay, this.#firstAt + this.timing.maxWait - now));
    this.#timer = setTimeout(() => this.#fire(), wait);
  }

  /** Drops a pending value and waits for a running action. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#pending = undefined;
    await this.#running;
  }

  #fire(): void {
    const running = this.#running;
    if (running) {
      // Still applying the previous one: this one goes right after it.
      void running.then(() => this.#fire());
      return;
    }
    const pending = this.#pending;
    if (pending === undefined || this.#stopped) return;
    this.#pending = undefined;
    this.#running = this.action(pending.value).finally(() => {
      this.#running = undefined;
    });
  }
}
