/**
 * How many environments are built at once, and how many more may wait: a storm of requests for environments
 * not in the cache (thousands of new URLs, or a hostile client inventing profiles) otherwise starts a build for
 * each, all reading files through the same git process and parsing on the same two worker threads, and nothing
 * bounds the queues. Requests for the same environment share one build before they reach the gate (a fleet
 * re-fetching after a push costs one slot), and every repository's builds share the same gate.
 */
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

export class ServerBusyError extends ConfbusError<'CONFBUS_SERVER_BUSY'> {
  override readonly name = 'ServerBusyError';
  constructor(message: string) {
    super(serverErrors.CONFBUS_SERVER_BUSY, message);
  }
}

export class BuildGate {
  private running = 0;
  /** Builds waiting for a slot, oldest first. */
  private readonly waiting: Array<() => void> = [];

  /**
   * @param concurrency builds running at once (confbus.server.max-concurrent-builds)
   * @param maxQueued builds waiting beyond those (confbus.server.max-queued-builds); more are refused
   */
  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
  ) {}

  /** Runs `build` when a slot is free; throws ServerBusyError at once when the queue is full. */
  async run<T>(build: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length >= this.maxQueued) {
      throw new ServerBusyError(
        `${this.running} environments are being built and ${this.waiting.length} wait ` +
          '(confbus.server.max-concurrent-builds, confbus.server.max-queued-builds); retry',
      );
    } else {
      // The slot is handed over by the build that frees it: `running` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await build();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Builds running and waiting now (health details, tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
