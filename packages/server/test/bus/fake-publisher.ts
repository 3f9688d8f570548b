import { type RefreshBusEvent, createRefreshEvent } from '@confbus/core';
import type { RefreshPublisher } from '../../src/bus/server-bus.js';

/** In place of the bus: records what was published, fails while `failing`, and can hold publications. */
export class FakePublisher implements RefreshPublisher {
  failing = false;
  attempts = 0;
  readonly published: RefreshBusEvent[] = [];
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;

  /** Publications wait until `release()`. */
  hold(): void {
    this.#gate = new Promise((resolve) => (this.#open = resolve));
  }

  release(): void {
    this.#open?.();
    this.#gate = undefined;
  }

  async publishRefresh(destination?: string): Promise<RefreshBusEvent> {
    this.attempts++;
    await this.#gate;
    if (this.failing) throw new Error('broker gone');
    const event = createRefreshEvent('configserver:0:fake', destination);
    this.published.push(event);
    return event;
  }
}
