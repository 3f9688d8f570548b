/**
 * Long work on the event loop cut into short turns: the caller hands over its work a step at a time, and once the
 * sliced work of this turn of the event loop has run for SLICE_MS, the loop gets a turn (requests, timers) before
 * the work goes on. Each step must be short itself: a slice ends only between steps.
 *
 * The budget is the turn's, shared by every operation, and paused operations take turns: they wait in one queue
 * and each turn of the loop resumes one of them (the oldest). With a budget per operation, each waking itself
 * with setImmediate, four concurrent renderings of a large file all ran a slice in the same turn, and the loop
 * waited for all four (89–115 ms in issue 23, item 14); four builds woken by one shared parse did the same.
 *
 * A step is run by the slice (run(step)), which checks the budget and starts the step in one go. A pause that
 * the caller awaited before its step left a gap: the caller resumed a microtask after the check, so operations
 * woken together all passed the check before any of them ran its step, and their long steps then ran in one turn
 * whatever the budget said (99–103 ms in issue 23's benchmark: four .yml renderings at once).
 */
import { setImmediate } from 'node:timers';

export const SLICE_MS = 8;

export class TimeSlice {
  constructor() {
    turnStarted();
  }

  /**
   * Runs one step: at once while this turn's sliced work has run less than SLICE_MS, else in a later turn. The
   * budget is checked again just before the step starts, so no other step can slip in between.
   */
  async run<T>(step: () => T): Promise<T> {
    while (performance.now() - turnStarted() >= SLICE_MS) await nextTurn();
    return step();
  }
}

/** When the sliced work of the current turn began, and whether that mark is still this turn's. */
let turnStart = 0;
let turnMarked = false;

/**
 * The start of this turn's sliced work: marked by its first use, and unmarked by an immediate, which runs at the
 * end of the turn (its check phase). Armed only while sliced work runs, so an idle loop is never kept awake.
 */
function turnStarted(): number {
  if (!turnMarked) {
    turnMarked = true;
    turnStart = performance.now();
    setImmediate(() => (turnMarked = false));
  }
  return turnStart;
}

/** Operations waiting for a turn, oldest first. */
const waiting: Array<() => void> = [];
let pumping = false;

/** Resolves in a later turn of the event loop, after every operation that was waiting before. */
function nextTurn(): Promise<void> {
  return new Promise((resume) => {
    waiting.push(resume);
    if (!pumping) {
      pumping = true;
      setImmediate(resumeOne);
    }
  });
}

/**
 * Resumes the oldest waiting operation with a fresh slice; it runs (in microtasks) right after this callback.
 * The next one is resumed by an immediate scheduled now, which Node runs in the next turn of the loop, after
 * I/O and timers.
 */
function resumeOne(): void {
  const resume = waiting.shift();
  if (waiting.length > 0) setImmediate(resumeOne);
  else pumping = false;
  turnMarked = false;
  resume?.();
}
