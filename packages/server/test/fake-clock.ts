import type { Clock } from '../src/clock.js';

/** A clock that stands still until a test moves it. */
export class FakeClock implements Clock {
  constructor(private epochMs = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.epochMs;
  }

  advance(ms: number): void {
    this.epochMs += ms;
  }
}
