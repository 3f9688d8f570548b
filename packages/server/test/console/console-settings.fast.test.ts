// The console's intervals and stream limit are bounded at start-up: 0 or a negative presence interval would send a
// presence request every millisecond and expire the whole fleet at once; an interval past 2^31 ms makes Node's
// setInterval fire at once, repeatedly. The server refuses such values with a message naming the setting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveServerSettings } from '../../src/index.js';

const start = (key: string, value: string) => () =>
  resolveServerSettings({ args: [`--${key}=${value}`], env: {} });

describe('console settings', () => {
  it('refuses a zero, negative or overlong presence interval, naming the setting and its bounds', () => {
    for (const value of ['0', '-1', '4', '86401'])
      assert.throws(
        start('confbus.console.presence-interval', value),
        new RegExp(
          `Setting 'confbus\\.console\\.presence-interval' from argument: '${value}' must be between 5 and 86400`,
        ),
        value,
      );
    for (const value of ['5', '86400'])
      assert.equal(
        start('confbus.console.presence-interval', value)().number('confbus.console.presence-interval'),
        Number(value),
      );
  });

  it('refuses a negative or overlong watch interval (0 switches the checks off)', () => {
    for (const value of ['-1', '86401'])
      assert.throws(
        start('confbus.console.watch-interval', value),
        /Setting 'confbus\.console\.watch-interval' from argument: '.*' must be between 0 and 86400/,
        value,
      );
    assert.equal(start('confbus.console.watch-interval', '0')().number('confbus.console.watch-interval'), 0);
  });

  it('refuses a stream limit below 1, from the environment too', () => {
    assert.throws(
      () => resolveServerSettings({ args: [], env: { CONFBUS_CONSOLE_MAX_EVENT_STREAMS: '0' } }),
      /Setting 'confbus\.console\.max-event-streams' from environment: '0' must be between 1 and 10000/,
    );
  });
});
