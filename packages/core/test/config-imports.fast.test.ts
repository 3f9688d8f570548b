import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfbusError, JavaDouble, decryptEnvironment, parseConfigFile } from '@confbus/core';
import { MAX_IMPORTED_FILES, resolveLocation } from '../src/environment/config-imports.js';
import { environmentForJson, loadWithImports, propertySourcesOf } from '@confbus/core/internal';

describe('spring.config.import locations', () => {
  it('resolves from the importing file’s folder and stays inside the search directories', () => {
    assert.equal(resolveLocation('optional:extra.yml', 'foo.yml', ['']), 'extra.yml');
    assert.equal(resolveLocation('../x.properties', 'sub/a.yml', ['']), 'x.properties');
    assert.equal(resolveLocation('./deeper/', 'sub/a.yml', ['']), 'sub/deeper/');
    assert.equal(resolveLocation('x.yml', 'a/b.yml', ['a']), 'a/x.yml');
    for (const hostile of [
      '../x.yml',
      'sub/../../x.yml',
      '/etc/passwd.yml',
      'file:x.yml',
      'optional:file:/etc/x.yml',
      'classpath:x.yml',
      'configserver:http://h/',
      '..\\x.yml',
      'x', // no configuration file extension (Boot refuses it)
      'x.xml',
    ]) {
      assert.equal(resolveLocation(hostile, 'foo.yml', ['']), undefined, hostile);
    }
    // A location outside every search directory (the native backend's folders) is not served either.
    assert.equal(resolveLocation('../1/x.yml', '0/a.yml', ['0']), undefined);
  });

  it(`stops an environment importing more than ${MAX_IMPORTED_FILES} files`, async () => {
    // app.yml imports f0.yml … f149.yml.
    const files = new Map<string, string>([
      ['app.yml', `spring.config.import: ${Array.from({ length: 150 }, (_, i) => `f${i}.yml`).join(',')}\n`],
    ]);
    for (let i = 0; i < 150; i++) files.set(`f${i}.yml`, `k${i}: ${i}\n`);
    await assert.rejects(
      loadWithImports(
        { applications: ['app'], profiles: ['default'], directories: [''] },
        (path) => files.has(path),
        async (path) => parseConfigFile(path, files.get(path) ?? ''),
      ),
      (error: unknown) => error instanceof ConfbusError && error.code === 'CONFBUS_CONFIG_LIMIT',
    );
  });

  it('stops an environment with too many documents that import something', async () => {
    // One file of 2,000 documents, each importing a file that exists once: bounded, not a quadratic scan.
    const text = Array.from({ length: 2000 }, (_, i) => `k${i}: 1\nspring.config.import: x.yml\n`).join(
      '---\n',
    );
    const files = new Map([
      ['app.yml', text],
      ['x.yml', 'x: 1\n'],
    ]);
    await assert.rejects(
      loadWithImports(
        { applications: ['app'], profiles: ['default'], directories: [''] },
        (path) => files.has(path),
        async (path) => parseConfigFile(path, files.get(path) ?? ''),
      ),
      (error: unknown) =>
        error instanceof ConfbusError && /documents with spring.config.import/.test(error.message),
    );
  });
});

describe('v2 origins', () => {
  it('keeps the origin of values the file still holds (NaN included) through copies, not of decrypted ones', async () => {
    const [document] = parseConfigFile('a.yml', "n: .nan\nsecret: '{cipher}abc'\nplain: y\n");
    assert.ok(document);
    const stored = propertySourcesOf([{ path: 'a.yml', document }], ['default'], 'repo');
    const env = { name: 'a', profiles: ['default'], label: null, version: null, state: null };
    const { environment: served } = await decryptEnvironment(
      { ...env, propertySources: stored.map((source) => ({ ...source })) },
      { prefixInvalidProperties: true, decryptValue: () => 'decrypted' },
    );
    const json = environmentForJson(served, true) as {
      propertySources: Array<{ source: ReadonlyMap<string, unknown>; decryptedKeys?: string[] }>;
    };
    assert.deepEqual(json.propertySources[0], {
      name: 'repo/a.yml',
      // In order: the decrypted value moved to the end, as Spring's EnvironmentEncryptor puts it back.
      source: new Map<string, unknown>([
        ['n', { value: new JavaDouble(Number.NaN), origin: '1:4' }],
        ['plain', { value: 'y', origin: '3:8' }],
        ['secret', 'decrypted'],
      ]),
      decryptedKeys: ['secret'],
    });
  });
});
