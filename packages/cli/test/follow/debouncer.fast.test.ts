/** The debounce: one action on the newest value of a burst, never overlapping, bounded by maxWait. */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { Debouncer } from '../../src/follow/debouncer.js';

describe('Debouncer', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
  afterEach(() => mock.timers.reset());

  it('acts once, on the newest value, after the burst is quiet for the delay', async () => {
    const seen: number[] = [];
    const debouncer = new Debouncer<number>({ delay: 100, maxWait: 1000 }, async (value) => {
      seen.push(value);
    });
    debouncer.push(1);
    mock.timers.tick(60);
    debouncer.push(2);
    mock.timers.tick(60);
    debouncer.push(3);
    mock.timers.tick(99);
    assert.deepEqual(seen, []);
    mock.timers.tick(1);
    await debouncer.stop();
    assert.deepEqual(seen, [3]);
  });

  it('acts by maxWait even while changes keep coming', () => {
    const seen: number[] = [];
    const debouncer = new Debouncer<number>({ delay: 100, maxWait: 250 }, async (value) => {
      seen.push(value);
    });
    for (let i = 1; i <= 5; i++) {
      debouncer.push(i);
      mock.timers.tick(60);
    }
    // Pushed at 0, 60, 120, 180, 240: the wait ends 250 ms after the first.
    assert.deepEqual(seen, [5]);
  });

  it('runs a change that came during an action after it, never alongside', async () => {
    const events: string[] = [];
    let finish = (): void => undefined;
    const debouncer = new Debouncer<number>({ delay: 10, maxWait: 100 }, async (value) => {
      events.push(`start ${value}`);
      if (value === 1) await new Promise<void>((resolve) => (finish = resolve));
      events.push(`end ${value}`);
    });
    debouncer.push(1);
    mock.timers.tick(10);
    debouncer.push(2);
    mock.timers.tick(10);
    assert.deepEqual(events, ['start 1']);
    finish();
    await new Promise<void>((resolve) => setImmediate(resolve));
    await debouncer.stop();
    assert.deepEqual(events, ['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('drops a pending value on stop', async () => {
    const seen: number[] = [];
    const debouncer = new Debouncer<number>({ delay: 100, maxWait: 1000 }, async (value) => {
      seen.push(value);
    });
    debouncer.push(1);
    await debouncer.stop();
    mock.timers.tick(200);
    assert.deepEqual(seen, []);
  });
});
