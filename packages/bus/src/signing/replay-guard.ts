/**
 * Stops a captured signed message from being obeyed again: a signed event must be fresh (its timestamp, which the
 * signature covers, within max-age of this node's clock) and not seen before (ids of the signed events of the
 * last max-age are remembered, at most MAX_REMEMBERED; beyond, the oldest are forgotten first, and an event that
 * old fails the freshness check anyway unless the flood came faster than that).
 */
import type { BusEvent } from '@confbus/core';

const MAX_REMEMBERED = 100_000;

export type ReplayVerdict = 'fresh' | 'stale' | 'replayed';

export class ReplayGuard {
  /** Event id → its timestamp; in arrival order, so the oldest come first. */
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  check(event: BusEvent): ReplayVerdict {
    const now = this.now();
    this.#forgetBefore(now - this.maxAgeMs);
    if (Math.abs(now - event.timestamp) > this.maxAgeMs) return 'stale';
    if (this.#seen.has(event.id)) return 'replayed';
    this.#seen.set(event.id, now);
    if (this.#seen.size > MAX_REMEMBERED) this.#seen.delete(this.#seen.keys().next().value as string);
    return 'fresh';
  }

  #forgetBefore(limit: number): void {
    for (const [id, seenAt] of this.#seen) {
      if (seenAt >= limit) break;
      this.#seen.delete(id);
    }
  }
}
