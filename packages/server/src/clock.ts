/** Wall-clock time as a port, so time-dependent checks (Gitee's signature window) can be tested on a fake. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
