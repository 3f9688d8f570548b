// WatchAdmission on a still clock: opens beyond max-opens-per-second in one second are refused (503) until the
// next second; slots are released once however often release is called.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfbusError } from '@confbus/core';
import { WatchAdmission, spreadRetryAfter } from '../../src/watch/watch-admission.js';

describe('WatchAdmission', () => {
  it('spreads a reconnect storm: opens beyond the per-second bound wait for the next second', () => {
    let now = 0;
    const admission = new WatchAdmission(
      { maxConnections: 100, maxConnectionsPerClient: 100, maxOpensPerSecond: 3 },
      () => now,
    );
    for (let i = 0; i < 3; i++) admission.admit('a');
    assert.throws(
      () => admission.admit('b'),
      (error: unknown) => error instanceof ConfbusError && error.code === 'CONFBUS_WATCH_TOO_MANY_OPENS',
    );
    now += 1000;
    admission.admit('b');
    assert.equal(admission.openConnections, 4);
  });

  it('releases a slot once', () => {
    const admission = new WatchAdmission({
      maxConnections: 1,
      maxConnectionsPerClient: 1,
      maxOpensPerSecond: 10,
    });
    const release = admission.admit('a');
    release();
    release();
    assert.equal(admission.openConnections, 0);
    admission.admit('a');
    assert.throws(() => admission.admit('b'), /max-connections\)/);
  });

  it('draws Retry-After from 1..10 s', () => {
    assert.equal(
      spreadRetryAfter(() => 0),
      1,
    );
    assert.equal(
      spreadRetryAfter(() => 0.999),
      10,
    );
  });
});
