/** Server-side decryption of environments (CipherEnvironmentEncryptorTests' cases) and the key settings. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AesTextEncryptor,
  decryptEnvironment,
  decryptText,
  encryptionSettingSpecs,
  readEncryptionSettings,
  resolveSettings,
  settingsFileSpecs,
  type Environment,
} from '../src/index.ts';
import { SingleTextEncryptorLocator } from '../src/encryption/encryptor-locator.js';

const encryptor = new AesTextEncryptor('foo', 'deadbeef');
const locator = new SingleTextEncryptorLocator(encryptor, 'test key');
const decryptValue = (cipherText: string, environment: Environment): string =>
  decryptText(locator, { name: environment.name, profiles: environment.profiles.join(',') }, cipherText);

function environment(source: Record<string, string | number | boolean>): Environment {
  return {
    name: 'app',
    profiles: ['dev'],
    label: null,
    version: 'v1',
    state: null,
    propertySources: [{ name: 'repo/app.yml', source: new Map(Object.entries(source)) }],
  };
}

describe('decrypting environments (CipherEnvironmentEncryptor)', () => {
  it("hands each step to the caller's time slicing: one per {cipher} value", async () => {
    let steps = 0;
    const env = environment({
      a: `{cipher}${encryptor.encrypt('1')}`,
      b: `{cipher}${encryptor.encrypt('2')}`,
      plain: 'x',
    });
    const result = await decryptEnvironment(env, {
      prefixInvalidProperties: true,
      decryptValue,
      step: async (work) => {
        steps++;
        return work();
      },
    });
    assert.equal(steps, 4, 'listing the keys, looking through them, one per {cipher} value');
    assert.deepEqual(Object.fromEntries(result.environment.propertySources[0]?.source ?? []), {
      plain: 'x',
      a: '1',
      b: '2',
    });
  });

  it('looks through a large source for {cipher} values in steps, and keeps a source without one', async () => {
    let steps = 0;
    const source: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) source[`key${i}`] = `value ${i}`;
    const env = environment(source);
    const result = await decryptEnvironment(env, {
      prefixInvalidProperties: true,
      decryptValue,
      step: async (work) => {
        steps++;
        return work();
      },
    });
    // Listing the keys, then steps of at most 2,048 values: 10,000 values take five.
    assert.ok(steps >= 6, `${steps} steps`);
    assert.equal(result.environment, env);
  });

  it('decrypts {cipher} values, {key:...} prefixes included, moving them to the end of their source', async () => {
    const other = new AesTextEncryptor('dummykey', 'deadbeef').encrypt('nope');
    const env = environment({
      a: `{cipher}${encryptor.encrypt('secret-a')}`,
      plain: 'kept',
      b: `{cipher}{key:test}${encryptor.encrypt('secret-b')}`,
      bad: `{cipher}${other}`,
      port: 8080,
    });
    const { environment: out, failures } = await decryptEnvironment(env, {
      prefixInvalidProperties: true,
      decryptValue,
    });
    const source = out.propertySources[0]?.source ?? new Map();
    assert.deepEqual(
      [...source],
      [
        ['plain', 'kept'],
        ['port', 8080],
        ['a', 'secret-a'],
        ['b', 'secret-b'],
        ['invalid.bad', '<n/a>'],
      ],
    );
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.key, 'bad');
    assert.equal(failures[0]?.source, 'repo/app.yml');
    assert.ok(!failures[0]?.reason.includes(other), 'the reason never holds the cipher text');
    assert.equal(
      env.propertySources[0]?.source.get('a')?.toString().startsWith('{cipher}'),
      true,
      'input untouched',
    );
  });

  it('keeps the cipher text (without its marker) under the key when invalid prefixes are off', async () => {
    const other = new AesTextEncryptor('dummykey', 'deadbeef').encrypt('nope');
    const { environment: out } = await decryptEnvironment(environment({ bad: `{cipher}${other}` }), {
      prefixInvalidProperties: false,
      decryptValue,
    });
    assert.deepEqual(Object.fromEntries(out.propertySources[0]?.source ?? []), { bad: other });
  });

  it('returns the environment itself when nothing is encrypted', async () => {
    const env = environment({ a: 'x', b: 'cipher{', c: ' {cipher}x' });
    assert.equal(
      (await decryptEnvironment(env, { prefixInvalidProperties: true, decryptValue })).environment,
      env,
    );
  });
});

describe('key settings', () => {
  const read = (args: string[], file?: string) =>
    readEncryptionSettings(
      resolveSettings(
        [...settingsFileSpecs, ...encryptionSettingSpecs],
        { args, env: {}, ...(file ? { file: { path: 'application.yml', text: file } } : {}) },
        { unknownKeys: 'error' },
      ),
    );

  it("accepts Spring's keyStore spelling, and defaults the key's secret to the store password", () => {
    const settings = read(
      [],
      'encrypt:\n  keyStore:\n    location: file:/etc/s.jks\n    password: pw\n    alias: a\n',
    );
    assert.deepEqual(settings.keyStore, {
      location: 'file:/etc/s.jks',
      password: 'pw',
      alias: 'a',
      secret: 'pw',
      type: 'jks',
    });
    assert.deepEqual(settings.rsa, { algorithm: 'DEFAULT', strong: false, salt: 'deadbeef' });
    assert.equal(read(['--encrypt.rsa.algorithm=oaep']).rsa.algorithm, 'OAEP');
    assert.throws(() => read(['--encrypt.rsa.algorithm=RSA']), /must be DEFAULT or OAEP/);
  });

  it('says which settings have no effect, as Spring silently ignores them', () => {
    assert.match(
      read(['--encrypt.key-store.location=s.jks', '--encrypt.key=k']).ignored.join(),
      /without encrypt\.key-store\.password/,
    );
    assert.equal(read(['--encrypt.key-store.location=s.jks', '--encrypt.key=k']).keyStore, undefined);
    assert.match(
      read(['--encrypt.key=-----BEGIN RSA PRIVATE KEY-----x', '--encrypt.rsa.strong=true']).ignored.join(),
      /encrypt\.rsa\.strong apply to key stores only/,
    );
    assert.throws(
      () => read(['--encrypt.key-store.location=s.jks', '--encrypt.key-store.password=p']),
      /alias' is required/,
    );
  });
});
