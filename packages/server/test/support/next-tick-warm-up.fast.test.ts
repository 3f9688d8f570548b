import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warmUpNextTick } from '../../src/support/next-tick-warm-up.js';

/** Runs `body` and counts the ticks it queues, each of which has run once this resolves. */
async function ticksRunBy(body: () => void): Promise<number> {
  const queued = process.nextTick;
  let count = 0;
  process.nextTick = ((callback: (...args: unknown[]) => void, ...args: unknown[]) => {
    count++;
    queued(callback, ...args);
  }) as typeof process.nextTick;
  try {
    body();
  } finally {
    process.nextTick = queued;
  }
  await new Promise((resolve) => setImmediate(resolve));
  return count;
}

describe('warmUpNextTick', () => {
  it('queues ticks with and without arguments, all run before the next turn', async () => {
    assert.equal(await ticksRunBy(() => warmUpNextTick()), 40_000);
  });
});
