// An environment's JSON built in slices (large environments) is byte for byte the JSON built in one go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Environment,
  type FlatProperties,
  type PropertySource,
  type PropertyValue,
} from '@confbus/core';
import { setOwnProperty } from '@confbus/core/internal';
import { environmentJson, environmentJsonInSlices } from '../src/environment/environment-json.js';

function source(size: number, prefix: string): Map<string, PropertyValue> {
  const out = new Map<string, PropertyValue>();
  for (let i = 0; i < size; i++) {
    const key = i % 97 === 0 ? String(i) : `${prefix}.key${i}[${i % 3}]`; // integer-like keys, kept in place
    out.set(key, i % 5 === 0 ? i : i % 7 === 0 ? i % 2 === 0 : `v "${i}" \u2028 ${prefix}`);
  }
  out.set('__proto__', 'own');
  return out;
}

function originsOf(properties: FlatProperties): Record<string, string> {
  const origins: Record<string, string> = {};
  [...properties.keys()].forEach((key, i) => {
    if (i % 4 !== 0) setOwnProperty(origins, key, `${i}:1`);
  });
  return origins;
}

describe('environment JSON in slices', () => {
  it('equals JSON.stringify of the environment, plain and with origins, for large and small sources', async () => {
    const big = source(7000, 'big');
    const small = source(10, 'small');
    const stored: Environment = {
      name: 'app',
      profiles: ['dev,db'],
      label: null,
      version: 'c'.repeat(40),
      state: null,
      propertySources: [
        { name: 'file:///repo/app-dev.yml', source: big, origins: originsOf(big) },
        { name: 'file:///repo/empty.yml', source: new Map() },
        { name: 'file:///repo/application.yml (document #2)', source: small, origins: originsOf(small) },
      ],
    };
    // Served after decryption: one source copied with a changed value (which lost its origin) and the marker
    // naming it.
    const [file] = stored.propertySources as [PropertySource];
    const { 'big.key1[1]': _changed, ...kept } = file.origins ?? {};
    // A large source with one origin for every value (as the overrides source has), sliced too.
    const overrides = source(3000, 'forced');
    const served: Environment = {
      ...stored,
      propertySources: [
        { name: 'overrides', source: overrides, sourceOrigin: 'Config server overrides' },
        {
          ...file,
          source: new Map([...big, ['big.key1[1]', 'clear text']]),
          origins: kept,
          decryptedKeys: ['big.key1[1]'],
        },
        ...stored.propertySources.slice(1),
      ],
    };
    for (const environment of [stored, served]) {
      for (const withOrigins of [false, true]) {
        assert.equal(
          (await environmentJsonInSlices(environment, withOrigins)).toString(),
          environmentJson(environment, withOrigins).toString(),
        );
      }
    }
    const v2 = environmentJson(served, true).toString();
    assert.match(v2, /"big.key2\[2\]":\{"value":"v/);
    assert.match(v2, /"big.key1\[1\]":"clear text"/);
    const sliced = (await environmentJsonInSlices(served, true)).toString();
    assert.match(sliced, /"forced.key2999\[2\]":\{"value":"v [^}]*","origin":"Config server overrides"\}/);
    assert.ok(
      !environmentJson(served).toString().includes('"origins"'),
      'origins are data, not JSON members',
    );
    // The marker follows its source's members, plain and with origins (a large source's JSON is not shown).
    const marked =
      /"name":"file:\/\/\/repo\/app-dev.yml","source":\{[^]*\},"decryptedKeys":\["big.key1\[1\]"\]\}/;
    for (const json of [environmentJson(served), environmentJson(served, true)])
      assert.ok(marked.test(json.toString()), 'decryptedKeys after the source');
  });
});
