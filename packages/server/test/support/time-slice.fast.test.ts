// Concurrent sliced work takes turns (issue 23, item 14): each turn of the event loop resumes one paused
// operation, so four concurrent renderings of a large file no longer all run a slice in the same turn. Turns are
// counted by an immediate that re-arms itself (it runs once per turn), not timed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SLICE_MS, TimeSlice } from '../../src/support/time-slice.js';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('TimeSlice', () => {
  it('resumes one paused operation per turn of the event loop, oldest first', async () => {
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    /** For each turn, the operations that ran a resumed slice in it. */
    const ranIn = new Map<number, Set<number>>();
    const operation = async (id: number) => {
      const slice = new TimeSlice();
      let resumed = false;
      for (let step = 0; step < 12; step++) {
        if (resumed) {
          const ops = ranIn.get(turn) ?? new Set<number>();
          ops.add(id);
          ranIn.set(turn, ops);
        }
        busy(SLICE_MS / 2);
        const before = turn;
        await slice.pause();
        resumed ||= turn !== before;
      }
    };
    await Promise.all([0, 1, 2, 3].map(operation));
    counting = false;
    assert.ok(ranIn.size > 4, 'the operations were sliced');
    for (const [at, ops] of ranIn) assert.equal(ops.size, 1, `turn ${at} resumed ${[...ops].join(', ')}`);
  });

  it("shares one turn's budget between operations that run in it", async () => {
    await new Promise((resolve) => setImmediate(resolve)); // a turn of its own, whatever ran before
    let turn = 0;
    setImmediate(() => turn++);
    const stepsInFirstTurn = [0, 0, 0, 0];
    const operation = async (id: number) => {
      const slice = new TimeSlice();
      for (let step = 0; step < 4; step++) {
        if (turn === 0) stepsInFirstTurn[id] = (stepsInFirstTurn[id] ?? 0) + 1;
        busy(SLICE_MS / 2);
        await slice.pause();
      }
    };
    await Promise.all([0, 1, 2, 3].map(operation));
    // The first uses up the turn's slice; each other one stops at its first pause (two steps each with a budget
    // per operation).
    assert.deepEqual(stepsInFirstTurn.slice(1), [1, 1, 1]);
  });

  it('does not yield before the slice is used up', async () => {
    const slice = new TimeSlice();
    let turned = false;
    setImmediate(() => (turned = true));
    await slice.pause();
    assert.equal(turned, false);
  });
});
