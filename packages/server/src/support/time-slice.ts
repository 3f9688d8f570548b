/**
 * Long work on the event loop cut into short turns: the caller asks between steps, and once the sliced work of
 * this turn of the event loop has run for SLICE_MS, the loop gets a turn (requests, timers) before the work goes
 * on. Each step must be short itself: a slice ends only between steps.
 *
 * The budget is the turn's, shared by every operation, and paused operations take turns: they wait in one queue
 * and each turn of the loop resumes one of them (the oldest). With a budget per operation, each waking itself
 * with setImmediate, four concurrent renderings of a large file all ran a slice in the same turn, and the loop
 * waited for all four (89–115 ms in issue 23, item 14); four builds woken by one shared parse did the same.
 */
import { setImmediate } from 'node:timers';

export const SLICE_MS = 8;

export class TimeSlice {
  constructor() {
    turnStarted();
  }

  /** Between two steps: yields the event loop when this turn's sliced work has run long enough. */
  async pause(): Promise<void> {
    if (performance.now() - turnStarted() < SLICE_MS) return;
    await nextTurn();
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
