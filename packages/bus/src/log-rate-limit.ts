/**
 * At most `lines` log lines of one kind per window; the lines held back are counted and reported with the next
 * line let through. A flood of hostile messages must not become a flood of log lines: one line per malformed
 * message cost the event loop more than dropping the message did, and buried everything else in the log.
 */
export interface LogRateLimitOptions {
  lines: number;
  windowMs: number;
  /** Monotonic milliseconds (tests move it). */
  now?: () => number;
}

export class LogRateLimit {
  private readonly now: () => number;
  private windowStart = Number.NEGATIVE_INFINITY;
  private logged = 0;
  private held = 0;

  constructor(private readonly options: LogRateLimitOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Whether to log this line; when it may be logged, how many lines were held back since the last one that was
   * (0 when none). Undefined: hold this one back.
   */
  take(): { heldBack: number } | undefined {
    const now = this.now();
    if (now - this.windowStart >= this.options.windowMs) {
      this.windowStart = now;
      this.logged = 0;
    }
    if (this.logged >= this.options.lines) {
      this.held++;
      return undefined;
    }
    this.logged++;
    const heldBack = this.held;
    this.held = 0;
    return { heldBack };
  }
}
