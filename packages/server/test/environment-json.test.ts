// An environment's JSON built in slices (large environments) is byte for byte the JSON built in one go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Environment, type FlatProperties } from '@confbus/core';
import { rememberOrigins, rememberSourceOrigin, setFlatProperty } from '@confbus/core/internal';
import { environmentJson, environmentJsonInSlices } from '../src/environment/environment-json.js';

function source(size: number, prefix: string): FlatProperties {
  const out: FlatProperties = {};
  for (let i = 0; i < size; i++) {
    const key = i % 97 === 0 ? String(i) : `${prefix}.key${i}[${i % 3}]`; // integer-like keys sort first
    setFlatProperty(out, key, i % 5 === 0 ? i : i % 7 === 0 ? i % 2 === 0 : `v "${i}" \u2028 ${prefix}`);
  }
  setFlatProperty(out, '__proto__', 'own');
  return out;
}

function withOriginsOf(properties: FlatProperties): FlatProperties {
  const origins: Record<string, string> = {};
  Object.keys(properties).forEach((key, i) => {
    if (i % 4 !== 0) setFlatProperty(origins, key, `${i}:1`);
  });
  rememberOrigins(properties, origins);
  return properties;
}

describe('environment JSON in slices', () => {
  it('equals JSON.stringify of the environment, plain and with origins, for large and small sources', async () => {
    const big = withOriginsOf(source(7000, 'big'));
    const small = withOriginsOf(source(10, 'small'));
    const stored: Environment = {
      name: 'app',
      profiles: ['dev,db'],
      label: null,
      version: 'c'.repeat(40),
      state: null,
      propertySources: [
        { name: 'file:///repo/app-dev.yml', source: big },
        { name: 'file:///repo/empty.yml', source: {} },
        { name: 'file:///repo/application.yml (document #2)', source: small },
      ],
    };
    // Served after decryption: one source copied with a changed value (it loses that value's origin) and
    // the marker naming it.
    const decrypted = { ...big, 'big.key1[1]': 'clear text' };
    // A large source with one origin for every value (as the overrides source has), sliced too.
    const overrides = source(3000, 'forced');
    rememberSourceOrigin(overrides, 'Config server overrides');
    const served: Environment = {
      ...stored,
      propertySources: [
        { name: 'overrides', source: overrides },
        { name: 'file:///repo/app-dev.yml', source: decrypted, decryptedKeys: ['big.key1[1]'] },
        ...stored.propertySources.slice(1),
      ],
    };
    for (const environment of [stored, served]) {
      assert.equal(
        (await environmentJsonInSlices(environment)).toString(),
        environmentJson(environment).toString(),
      );
      assert.equal(
        (await environmentJsonInSlices(environment, stored)).toString(),
        environmentJson(environment, stored).toString(),
      );
    }
    assert.match(environmentJson(served, stored).toString(), /"big.key2\[2\]":\{"value":"v/);
    const sliced = (await environmentJsonInSlices(served, stored)).toString();
    assert.match(sliced, /"forced.key2999\[2\]":\{"value":"v [^}]*","origin":"Config server overrides"\}/);
    // The marker follows its source's members, plain and with origins (a large source's JSON is not shown).
    const marked =
      /"name":"file:\/\/\/repo\/app-dev.yml","source":\{[^]*\},"decryptedKeys":\["big.key1\[1\]"\]\}/;
    for (const json of [environmentJson(served), environmentJson(served, stored)])
      assert.ok(marked.test(json.toString()), 'decryptedKeys after the source');
  });
});
