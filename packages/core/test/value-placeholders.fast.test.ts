import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveValuePlaceholders, type PropertyValue } from '@confbus/core';

const lookupIn =
  (values: Record<string, PropertyValue>, read: string[] = []) =>
  (key: string) => {
    read.push(key);
    return Object.hasOwn(values, key) ? values[key] : undefined;
  };

describe('resolveValuePlaceholders (one value, looked up across sources)', () => {
  it('resolves nested keys and defaults through the lookup, and reports every key it read', () => {
    const read: string[] = [];
    const lookup = lookupIn({ host: 'db', port: 5432, which: 'host' }, read);
    const resolved = resolveValuePlaceholders('url', 'jdbc://${${which}}:${port}/${name:app}', lookup, {
      circular: 'keep-innermost',
    });
    assert.equal(resolved, 'jdbc://db:5432/app');
    assert.deepEqual(read.sort(), ['host', 'name', 'port', 'which']);
  });

  it('keeps the innermost or the outermost placeholder of a cycle literal, as asked', () => {
    const lookup = lookupIn({ ping: 'p-${pong}', pong: 'q-${ping}' });
    assert.equal(
      resolveValuePlaceholders('ping', 'p-${pong}', lookup, { circular: 'keep-innermost' }),
      'p-q-${ping}',
    );
    assert.equal(
      resolveValuePlaceholders('ping', 'p-${pong}', lookup, { circular: 'keep-outermost' }),
      'p-${pong}',
    );
  });

  it('names the key and its source when a value expands beyond the limits', () => {
    const values: Record<string, PropertyValue> = { p0: 'xx' };
    for (let i = 1; i <= 22; i++) values[`p${i}`] = `\${p${i - 1}}\${p${i - 1}}`;
    assert.throws(
      () =>
        resolveValuePlaceholders('p22', String(values.p22), lookupIn(values), {
          source: 'configserver:bomb.yml',
          circular: 'keep-innermost',
        }),
      (error: Error & { code?: string }) =>
        error.code === 'CONFBUS_CONFIG_LIMIT' && /^configserver:bomb\.yml: key 'p22'/.test(error.message),
    );
  });
});
