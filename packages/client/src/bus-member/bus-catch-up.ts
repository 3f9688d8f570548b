/**
 * After a broker outage: Spring loses the events sent while a node is disconnected; confbus asks the config
 * server whether the version moved meanwhile and refreshes when it did. Checks run one at a time; a reconnect
 * during one asks for one more.
 */
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { BusRefreshTarget } from './client-bus-types.js';

export class BusCatchUp {
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(
    private readonly target: Pick<BusRefreshTarget, 'refreshIfVersionChanged' | 'currentVersion'>,
    private readonly logger: Logger,
  ) {}

  /** The bus came back: check now, or once more after the check in flight. */
  request(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = undefined;
    });
  }

  /** No further checks; waits for the one in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#running;
  }

  async #loop(): Promise<void> {
    const { logger, target } = this;
    do {
      this.#again = false;
      if (this.#closed) return;
      try {
        // A refresh it makes logs its own line (the target's); only "nothing was missed" is said here.
        const outcome = await target.refreshIfVersionChanged();
        if (outcome === null) {
          logger.info(
            { version: target.currentVersion() },
            `Bus reconnected: config version ${target.currentVersion() ?? 'none'} is current, no refresh event was missed`,
          );
        }
      } catch (error) {
        logger.warn(
          {},
          `Bus reconnected, but checking for a missed configuration version failed: ${messageOf(error)}`,
        );
      }
    } while (this.#again);
  }
}
