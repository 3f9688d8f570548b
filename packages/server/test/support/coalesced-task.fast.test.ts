// CoalescedTask: at most one run at a time; callers arriving mid-run share the NEXT run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoalescedTask } from '../../src/support/coalesced-task.js';

function controllable() {
  const runs: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  let active = 0;
  let maxActive = 0;
  const task = new CoalescedTask<number>(
    () =>
      new Promise<number>((resolve, reject) => {
        active++;
        maxActive = Math.max(maxActive, active);
        const done = () => active--;
        runs.push({
          resolve: (v) => (done(), resolve(v)),
          reject: (e) => (done(), reject(e)),
        });
      }),
  );
  return { task, runs, maxActive: () => maxActive };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescedTask', () => {
  it('callers arriving during a run share the next run', async () => {
    const { task, runs, maxActive } = controllable();
    const a = task.requestFresh();
    const b = task.requestFresh();
    const c = task.requestFresh();
    await settle();
    assert.equal(runs.length, 1);
    runs[0]?.resolve(1);
    assert.equal(await a, 1);
    await settle();
    assert.equal(runs.length, 2, 'the waiting callers started exactly one more run');
    const d = task.requestFresh(); // arrives during run 2 -> waits for run 3
    runs[1]?.resolve(2);
    assert.deepEqual(await Promise.all([b, c]), [2, 2]);
    await settle();
    runs[2]?.resolve(3);
    assert.equal(await d, 3);
    assert.equal(maxActive(), 1);
    assert.equal(task.running, false);
  });

  it('requestAny joins the run in flight', async () => {
    const { task, runs } = controllable();
    const a = task.requestAny();
    const b = task.requestAny();
    await settle();
    runs[0]?.resolve(7);
    assert.deepEqual(await Promise.all([a, b]), [7, 7]);
    assert.equal(runs.length, 1);
  });

  it('a failed run rejects its callers and the next run still happens', async () => {
    const { task, runs } = controllable();
    const a = task.requestFresh();
    const b = task.requestFresh();
    await settle();
    runs[0]?.reject(new Error('boom'));
    await assert.rejects(a, /boom/);
    await settle();
    runs[1]?.resolve(5);
    assert.equal(await b, 5);
  });

  it('a task that throws synchronously does not wedge the task', async () => {
    let calls = 0;
    const task = new CoalescedTask<number>(() => {
      calls++;
      if (calls === 1) throw new Error('sync');
      return Promise.resolve(calls);
    });
    await assert.rejects(task.requestFresh(), /sync/);
    assert.equal(await task.requestFresh(), 2);
  });
});
