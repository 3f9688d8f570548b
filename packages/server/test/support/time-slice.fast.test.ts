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
        const before = turn;
        await slice.run(() => {
          resumed ||= turn !== before;
          if (resumed) {
            const ops = ranIn.get(turn) ?? new Set<number>();
            ops.add(id);
            ranIn.set(turn, ops);
          }
          busy(SLICE_MS / 2);
        });
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
        await slice.run(() => {
          if (turn === 0) stepsInFirstTurn[id] = (stepsInFirstTurn[id] ?? 0) + 1;
          busy(SLICE_MS / 2);
        });
      }
    };
    await Promise.all([0, 1, 2, 3].map(operation));
    // The first two use up the turn's slice (the second only if the first left it some); the others wait for a
    // later turn. With a budget per operation, each would have run two steps in it.
    assert.equal(stepsInFirstTurn[0], 1);
    assert.ok((stepsInFirstTurn[1] ?? 0) <= 1);
    assert.deepEqual(stepsInFirstTurn.slice(2), [0, 0]);
  });

  it('checks the budget as a step starts: long steps of operations woken together run in turns', async () => {
    await new Promise((resolve) => setImmediate(resolve)); // a turn of its own, whatever ran before
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    /** For each turn, the operations that ran a step in it. */
    const ranIn = new Map<number, Set<number>>();
    // Woken together, as four builds waiting for one shared upstream check are: each asks before its first step,
    // which is long (a whole environment walked at once), so a turn that ran two would hold the loop twice.
    let wake = () => {};
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const operation = async (id: number) => {
      await woken;
      const slice = new TimeSlice();
      for (let step = 0; step < 2; step++) {
        await slice.run(() => {
          const ops = ranIn.get(turn) ?? new Set<number>();
          ops.add(id);
          ranIn.set(turn, ops);
          busy(SLICE_MS * 2);
        });
      }
    };
    const all = Promise.all([0, 1, 2, 3].map(operation));
    wake();
    await all;
    counting = false;
    for (const [at, ops] of ranIn)
      assert.equal(ops.size, 1, `turn ${at} ran steps of ${[...ops].join(', ')}`);
  });

  it('does not yield before the slice is used up', async () => {
    await new Promise((resolve) => setImmediate(resolve)); // a turn of its own, whatever ran before
    const slice = new TimeSlice();
    let turned = false;
    setImmediate(() => (turned = true));
    await slice.run(() => undefined);
    assert.equal(await slice.run(() => turned), false);
  });
});
