// Shared pieces of the seeded fuzz tests: a small deterministic PRNG, pick helpers, and the event-loop stall
// and heap measurements the tests assert on.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Picker {
  readonly random: () => number;
  pick<T>(items: readonly T[]): T;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

export function picker(seed: number): Picker {
  const random = prng(seed);
  return {
    random,
    pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T,
    int: (min, max) => min + Math.floor(random() * (max - min + 1)),
  };
}

/** The longest event-loop stall (ms) between start and stop, as perf_hooks' monitorEventLoopDelay sees it. */
export function watchEventLoop(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      // The histogram counts delay beyond the resolution's own timer period.
      return Math.max(0, histogram.max / 1e6 - 10);
    },
  };
}

/** Runs a full garbage collection (exposing gc once) and returns the heap in use afterwards. */
export function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/** A fresh target to replay suspects on (a new server, a new broker vhost, ...). */
export interface ReplayTarget<T> {
  replay(suspect: T): Promise<void>;
  close(): Promise<void>;
}

/**
 * Which suspects of an event-loop stall are ours. The machine may be shared, so a gap in the event loop can be
 * the scheduler's: each suspect is replayed alone on a fresh target, round after round (each round on a new
 * target), and only those that stall past `limitMs` every round are confirmed (a loaded scheduler rarely hits the
 * same work twice). Returns them as `description: stall ms`.
 */
export async function confirmStalls<T>(
  suspects: Iterable<T>,
  options: {
    limitMs: number;
    rounds?: number;
    fresh: () => Promise<ReplayTarget<T>>;
    describe: (suspect: T) => string;
  },
): Promise<string[]> {
  let candidates = [...suspects];
  let confirmed: string[] = [];
  for (let round = 0; round < (options.rounds ?? 2) && candidates.length > 0; round++) {
    const stalled: T[] = [];
    confirmed = [];
    const target = await options.fresh();
    try {
      for (const suspect of candidates) {
        const watch = watchEventLoop();
        await target.replay(suspect);
        const stall = watch.stop();
        if (stall >= options.limitMs) {
          stalled.push(suspect);
          confirmed.push(`${options.describe(suspect)}: ${stall.toFixed(0)} ms`);
        }
      }
    } finally {
      await target.close();
    }
    candidates = stalled;
  }
  return candidates.length === 0 ? [] : confirmed;
}
