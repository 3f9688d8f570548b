// BuildGate on its own: slots handed over in order, the queue bounded, a failed build frees its slot.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BuildGate, ServerBusyError } from '../src/environment/build-gate.js';

/** A build that runs until `finish` is called (or fails when `fail` is). */
function controlledBuild() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  let started = false;
  return {
    run: () => {
      started = true;
      return done;
    },
    finish: (value: string) => finish(value),
    fail: (error: Error) => fail(error),
    get started() {
      return started;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BuildGate', () => {
  it('runs up to its concurrency at once, then starts waiting builds in arrival order as slots free', async () => {
    const gate = new BuildGate(2, 10);
    const builds = [controlledBuild(), controlledBuild(), controlledBuild(), controlledBuild()];
    const results = builds.map((b) => gate.run(b.run));
    await tick();
    assert.deepEqual(
      builds.map((b) => b.started),
      [true, true, false, false],
    );
    assert.deepEqual(gate.load, { running: 2, waiting: 2 });
    builds[1]!.finish('b');
    await tick();
    assert.deepEqual(
      builds.map((b) => b.started),
      [true, true, true, false],
    );
    builds[0]!.fail(new Error('broken file'));
    await assert.rejects(results[0]!, /broken file/);
    await tick();
    assert.equal(builds[3]!.started, true, 'a failed build frees its slot too');
    builds[2]!.finish('c');
    builds[3]!.finish('d');
    assert.deepEqual(await Promise.all(results.slice(1)), ['b', 'c', 'd']);
    assert.deepEqual(gate.load, { running: 0, waiting: 0 });
  });

  it('refuses a build at once when the queue is full, naming both settings', async () => {
    const gate = new BuildGate(1, 1);
    const running = controlledBuild();
    const waiting = controlledBuild();
    const first = gate.run(running.run);
    const second = gate.run(waiting.run);
    await assert.rejects(
      gate.run(async () => 'never'),
      (error: unknown) =>
        error instanceof ServerBusyError &&
        error.code === 'CONFBUS_SERVER_BUSY' &&
        /max-concurrent-builds.*max-queued-builds/.test(error.message),
    );
    running.finish('a');
    waiting.finish('b');
    assert.deepEqual(await Promise.all([first, second]), ['a', 'b']);
  });
});
