// Rate-limited log lines: a flood of dropped messages logs a few lines per window, and the next line let through
// says how many were held back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogRateLimit } from '../src/log-rate-limit.js';

describe('LogRateLimit', () => {
  it('lets `lines` through per window and reports the held-back count with the next one', () => {
    let now = 0;
    const limit = new LogRateLimit({ lines: 3, windowMs: 1000, now: () => now });
    const window = (count: number) => Array.from({ length: count }, () => limit.take());
    assert.deepEqual(window(5), [{ heldBack: 0 }, { heldBack: 0 }, { heldBack: 0 }, undefined, undefined]);
    now += 999;
    assert.equal(limit.take(), undefined, 'still the same window');
    now += 1;
    assert.deepEqual(window(2), [{ heldBack: 3 }, { heldBack: 0 }]);
  });
});
