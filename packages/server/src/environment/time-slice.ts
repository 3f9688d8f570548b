/**
 * Long work on the event loop cut into short turns: the caller asks between steps, and once it has run for
 * SLICE_MS the event loop gets a turn (requests, timers) before the work goes on. Each step must be short
 * itself: a slice ends only between steps.
 *
 * Concurrent work takes turns: every paused operation waits in one queue, and each turn of the event loop
 * resumes one of them (the oldest). Each waking itself with setImmediate, four concurrent renderings of a
 * large file all resumed in the same turn, one slice each, and the event loop waited for all four (89–115 ms
 * in issue 23, item 14).
 */
import { setImmediate } from 'node:timers';

export const SLICE_MS = 8;

export class TimeSlice {
  private started = performance.now();

  /** Between two steps: yields the event loop when this operation has run long enough in this turn. */
  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await nextTurn();
    this.started = performance.now();
  }
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
 * Resumes the oldest waiting operation; it runs (in microtasks) right after this callback. The next one is
 * resumed by an immediate scheduled now, which Node runs in the next turn of the loop, after I/O and timers.
 */
function resumeOne(): void {
  const resume = waiting.shift();
  if (waiting.length > 0) setImmediate(resumeOne);
  else pumping = false;
  resume?.();
}
