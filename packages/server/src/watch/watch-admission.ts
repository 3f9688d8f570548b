/**
 * Who may open a watch connection: bounded in all (confbus.watch.max-connections, 503), per client
 * (max-connections-per-client, 429: one client cannot take every slot) and per second
 * (max-opens-per-second, 503 with a randomised Retry-After: a fleet reconnecting at once after a restart is
 * spread over the next seconds instead of rebuilding every environment in the same instant).
 */
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

export interface AdmissionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerClient: number;
  readonly maxOpensPerSecond: number;
}

/** Retry-After (seconds) for a refused open is drawn from 1..RETRY_SPREAD_SECONDS. */
export const RETRY_SPREAD_SECONDS = 10;

export class WatchAdmission {
  #open = 0;
  readonly #perClient = new Map<string, number>();
  #windowStart = 0;
  #opensInWindow = 0;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get openConnections(): number {
    return this.#open;
  }

  /** Takes a slot for `client` or throws the 4xx/5xx ConfbusError saying which bound was reached. */
  admit(client: string): () => void {
    const { maxConnections, maxConnectionsPerClient, maxOpensPerSecond } = this.limits;
    const now = this.now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#opensInWindow = 0;
    }
    if (this.#opensInWindow >= maxOpensPerSecond) {
      throw new ConfbusError(
        serverErrors.CONFBUS_WATCH_TOO_MANY_OPENS,
        `More than ${maxOpensPerSecond} watch connections opened this second (confbus.watch.max-opens-per-second); retry after the Retry-After delay`,
      );
    }
    if (this.#open >= maxConnections) {
      throw new ConfbusError(
        serverErrors.CONFBUS_WATCH_CONNECTIONS_EXHAUSTED,
        `${maxConnections} watch connections are open (confbus.watch.max-connections)`,
      );
    }
    const held = this.#perClient.get(client) ?? 0;
    if (held >= maxConnectionsPerClient) {
      throw new ConfbusError(
        serverErrors.CONFBUS_WATCH_CLIENT_CONNECTIONS,
        `This client already holds ${maxConnectionsPerClient} watch connections (confbus.watch.max-connections-per-client)`,
      );
    }
    this.#opensInWindow++;
    this.#open++;
    this.#perClient.set(client, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open--;
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
    };
  }
}

/** A Retry-After in whole seconds, random so refused clients do not come back together. */
export function spreadRetryAfter(random: () => number = Math.random): number {
  return 1 + Math.floor(random() * RETRY_SPREAD_SECONDS);
}
