/**
 * Long work on the event loop cut into short turns: the caller asks between steps, and once the current turn
 * has run for SLICE_MS the event loop gets a turn (requests, timers) before the work goes on. Each step must be
 * short itself: a slice ends only between steps.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export const SLICE_MS = 8;

export class TimeSlice {
  private started = performance.now();

  /** Between two steps: yields the event loop when this turn has run long enough. */
  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await nextTurn();
    this.started = performance.now();
  }
}
