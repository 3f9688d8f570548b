/**
 * Slows password guessing: failed logins are counted per source address over a fixed window; past the limit,
 * further attempts from that address are refused with 429 and Retry-After until the window ends, before any
 * bcrypt round runs. Requests whose credentials were verified before (authenticator.ts remembers them) are not
 * refused, so a fleet behind one NAT address keeps working while a guesser there is blocked.
 * Hand-written (a counter per address in the server's bounded LRU) rather than a rate-limit library: those count
 * every request, where only failures must count, and this check must be synchronous in the request hook.
 */
import type { Clock } from '../clock.js';
import { LruCache } from '../support/lru-cache.js';

/** Addresses tracked at once: an attacker rotating addresses evicts the oldest windows, memory stays bounded. */
const TRACKED_ADDRESSES = 10_000;

interface Window {
  readonly startedAt: number;
  failures: number;
}

export class LoginThrottle {
  private readonly windows = new LruCache<string, Window>(TRACKED_ADDRESSES);

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Seconds until `address` may try again, or undefined when it may try now. */
  retryAfterSeconds(address: string): number | undefined {
    const window = this.current(address);
    if (window === undefined || window.failures < this.maxFailures) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + this.windowMs - this.clock.now()) / 1000));
  }

  /** Counts a failed login from `address`. */
  failed(address: string): void {
    const window = this.current(address);
    if (window) window.failures++;
    else this.windows.set(address, { startedAt: this.clock.now(), failures: 1 });
  }

  private current(address: string): Window | undefined {
    const window = this.windows.get(address);
    if (window === undefined) return undefined;
    if (this.clock.now() - window.startedAt >= this.windowMs) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }
}
