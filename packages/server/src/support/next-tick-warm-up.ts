/**
 * Puts process.nextTick in its fast state before the server does anything else. Why: Node 20's nextTick builds
 * each queued tick as an object literal with symbol keys (its async ids), and V8 either keeps defining those keys
 * through an inline cache or, in some processes, through its runtime (`Runtime_DefineKeyedOwnPropertyInLiteral`
 * and shape transitions in a `perf` profile) for the rest of the process's life. node:http and streams call it a
 * few times per request, so a process that lands in the slow state spends about a third more CPU on every cached
 * GET (16 against 12 µs) for good: 9 of 18 fresh servers did, gate on or off, after a few pushes on the gate
 * benchmark's repository. Which state a process lands in depends on what first makes nextTick hot (bursts of git
 * output, of requests); making it hot first, with the shapes Node's own callers use (no arguments, and arguments),
 * left 18 of 18 in the fast one as a preload and 10 of 10 from here. It costs a few milliseconds, once;
 * bench/process-state-bench.mjs measures it against confbus.server.next-tick-warm-up=false.
 */
import type { SettingSpec } from '@confbus/core';

const WARM_UP_TICKS = 20_000;

export const NEXT_TICK_WARM_UP = 'confbus.server.next-tick-warm-up';

export const warmUpSettingSpecs: readonly SettingSpec[] = [
  {
    key: NEXT_TICK_WARM_UP,
    type: 'boolean',
    default: true,
    description:
      'Make process.nextTick hot as the server starts, which keeps about half of all processes from costing a third more CPU per request for their whole life (docs/benchmarks.md, "Process state"); false only to measure that',
  },
];

export function warmUpNextTick(): void {
  const noop = (): void => {};
  for (let i = 0; i < WARM_UP_TICKS; i++) {
    process.nextTick(noop);
    process.nextTick(noop, i);
  }
}
