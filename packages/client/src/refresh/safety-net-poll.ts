/**
 * The client's safety net: every `interval` (jittered, so a fleet does not poll in step) it asks the config
 * server for the current version and refreshes when it differs — a change whose bus event was lost (broker
 * down, server down when the push came, bus disabled) still arrives. Apollo (5 min) and Nacos 2.x (5 min)
 * keep the same fallback beside their push channels. While the server cannot be reached, it retries sooner
 * (from `retryMin` doubling up to `interval`), so the check happens soon after the connection comes back.
 */
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';

export interface PollTarget {
  /** Fetches and refreshes if the version moved: the changed keys, or null when nothing changed. */
  check(): Promise<{ keys: string[]; from: string | null; to: string | null } | null>;
}

export interface SafetyNetPollOptions {
  /** Milliseconds between checks while the server answers; 0 = no poll. */
  readonly interval: number;
  /** First retry delay after a failed check. */
  readonly retryMin: number;
  /** True when the client has not got its configuration from the server yet (started from a backup). */
  readonly startStale: boolean;
}

/** ±10%: spreads a fleet's polls without making any one interval much longer. */
const JITTER = 0.1;

export class SafetyNetPoll {
  #timer: NodeJS.Timeout | undefined;
  #retry: number;
  #failing: boolean;
  #stopped = false;

  constructor(
    private readonly target: PollTarget,
    private readonly logger: Logger,
    private readonly options: SafetyNetPollOptions,
  ) {
    this.#retry = options.retryMin;
    this.#failing = options.startStale;
  }

  start(): void {
    if (this.options.interval <= 0) return;
    this.#schedule(this.#failing ? this.#retry : this.options.interval);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    const jittered = Math.round(delay * (1 - JITTER + 2 * JITTER * Math.random()));
    this.#timer = setTimeout(() => void this.#run(), jittered);
    this.#timer.unref();
  }

  async #run(): Promise<void> {
    try {
      // A refresh it makes logs its own line ("Config server moved from version …", refresh-log.ts).
      await this.target.check();
      if (this.#failing) this.logger.info({}, 'Config server reachable again');
      this.#failing = false;
      this.#retry = this.options.retryMin;
      this.#schedule(this.options.interval);
    } catch (error) {
      if (!this.#failing) {
        this.logger.warn(
          {},
          `Safety-net check of the config server failed (${messageOf(error)}); retrying with backoff`,
        );
      }
      this.#failing = true;
      const delay = this.#retry;
      this.#retry = Math.min(this.#retry * 2, this.options.interval);
      this.#schedule(delay);
    }
  }
}
