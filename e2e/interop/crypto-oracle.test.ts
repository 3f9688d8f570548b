/**
 * confbus against Spring's own encryption classes (interop/crypto-oracle: EncryptionController,
 * CipherEnvironmentEncryptor, KeyStoreTextEncryptorLocator, EncryptorFactory, spring-security-crypto), in both
 * directions: what Spring encrypts decrypts in confbus, what confbus encrypts decrypts in Spring, for symmetric
 * keys, PEM RSA keys, and JKS and PKCS12 stores made by keytool with both RSA algorithms, strong and not.
 * Then over the real CLI, a real Git repository and real HTTP. Without Java, Maven or keytool this suite is
 * reported as not run, with the reason, or fails under CONFBUS_REQUIRE_JAVA=1 (CI), like the other interop
 * suites.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DEFAULT_SCOPE,
  type Environment,
  type TextEncryptorLocator,
  createEncryptorLocator,
  decryptEnvironment,
  decryptText,
  encryptText,
  encryptionSettingSpecs,
  readEncryptionSettings,
  resolveSettings,
} from '@confbus/core';
import { runConfbusCommand, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { keytoolAvailable, makeKeyStore } from '@confbus/testkit/key-stores';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type OracleSettings, SpringCryptoOracle } from './support/crypto-oracle.js';
import { skipWithoutJava } from './support/spring-fleet.js';

const notRun = skipWithoutJava(keytoolAvailable());

const TEXTS = ['hello', 'pässwörd ✓ 🔑', 'x'.repeat(300), 'with {braces} and = signs=', 'line\nbreak'];

/** confbus's locator for the same settings the oracle gets. */
async function confbusLocator(settings: OracleSettings): Promise<TextEncryptorLocator | undefined> {
  const args = Object.entries(settings)
    .filter(([key]) => key.startsWith('encrypt.'))
    .map(([key, value]) => `--${key}=${value}`);
  const encryption = readEncryptionSettings(
    resolveSettings(encryptionSettingSpecs, { args, env: {} }, { unknownKeys: 'error' }),
  );
  const bytes = encryption.keyStore ? await readFile(encryption.keyStore.location) : undefined;
  return createEncryptorLocator(encryption, bytes);
}

const SUITE = 'encryption against Spring (crypto oracle)';
// A suite that cannot run here is one skipped test saying why (counted in the summary), never a silent pass.
if (notRun !== false) it(SUITE, { skip: notRun }, () => undefined);
else
  describe(SUITE, { timeout: 20 * 60_000 }, () => {
    let oracle: SpringCryptoOracle;
    let temp: { path: string; remove: () => Promise<void> };
    const configs: Array<{ name: string; settings: OracleSettings; prefixed?: string }> = [];

    before(async () => {
      temp = await makeTempDir('confbus-crypto-oracle-');
      const [started, jks, p12] = await Promise.all([
        SpringCryptoOracle.start(),
        makeKeyStore({
          dir: temp.path,
          file: 'server.jks',
          type: 'JKS',
          storePassword: 'letmein',
          entries: [{ alias: 'mytestkey', keyPassword: 'changeme' }, { alias: 'mykey' }],
        }),
        makeKeyStore({
          dir: temp.path,
          file: 'server.p12',
          type: 'PKCS12',
          storePassword: 'p12pass',
          entries: [{ alias: 'first' }, { alias: 'SecondKey' }],
        }),
      ]);
      oracle = started;
      const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ format: 'pem', type: 'pkcs1' })
        .toString();
      const store = (location: string, password: string, alias: string, secret: string, type: string) => ({
        'encrypt.key-store.location': location,
        'encrypt.key-store.password': password,
        'encrypt.key-store.alias': alias,
        'encrypt.key-store.secret': secret,
        'encrypt.key-store.type': type,
      });
      const jksStore = store(jks, 'letmein', 'mytestkey', 'changeme', 'jks');
      const p12Store = store(p12, 'p12pass', 'first', 'p12pass', 'pkcs12');
      configs.push(
        { name: 'symmetric key, default salt', settings: { 'encrypt.key': 'oracle key ✓' } },
        {
          name: 'symmetric key, own salt',
          settings: { 'encrypt.key': 'k', 'encrypt.salt': '4567890A12345678' },
        },
        { name: 'PEM RSA key', settings: { 'encrypt.key': pem } },
        { name: 'JKS, DEFAULT', settings: jksStore, prefixed: '{key:mykey}{secret:letmein}' },
        { name: 'JKS, DEFAULT, strong', settings: { ...jksStore, 'encrypt.rsa.strong': 'true' } },
        {
          name: 'JKS, OAEP, text salt',
          settings: { ...jksStore, 'encrypt.rsa.algorithm': 'OAEP', 'encrypt.rsa.salt': 'some salt' },
          prefixed: '{key:MyKey}{secret:letmein}',
        },
        {
          name: 'JKS, OAEP, strong',
          settings: { ...jksStore, 'encrypt.rsa.algorithm': 'OAEP', 'encrypt.rsa.strong': 'true' },
        },
        { name: 'PKCS12, DEFAULT', settings: p12Store, prefixed: '{key:secondkey}' },
        {
          name: 'PKCS12, OAEP, strong',
          settings: { ...p12Store, 'encrypt.rsa.algorithm': 'OAEP', 'encrypt.rsa.strong': 'true' },
        },
        // Java opens a PKCS12 file under type jks as well (dual-format key stores), and so does confbus.
        { name: 'PKCS12 read as type jks', settings: { ...p12Store, 'encrypt.key-store.type': 'jks' } },
      );
    });

    after(async () => {
      await oracle?.close();
      await stopAllNodeProcesses();
      await temp?.remove();
    });

    it('round-trips every key configuration in both directions', async () => {
      for (const { name, settings, prefixed } of configs) {
        const locator = await confbusLocator(settings);
        for (const text of [...TEXTS, ...(prefixed ? [`${prefixed}prefixed ✓`] : [])]) {
          const plain = text.startsWith('{key:') ? 'prefixed ✓' : text;
          const fromSpring = await oracle.expect('encrypt', settings, text);
          assert.equal(decryptText(locator, DEFAULT_SCOPE, fromSpring), plain, `${name}: Spring → confbus`);
          const fromConfbus = encryptText(locator, DEFAULT_SCOPE, text);
          assert.equal(
            await oracle.expect('decrypt', settings, fromConfbus),
            plain,
            `${name}: confbus → Spring`,
          );
          if (prefixed && text.startsWith('{key:')) {
            // Both put the same prefixes back in front.
            assert.equal(fromConfbus.slice(0, prefixed.length), fromSpring.slice(0, prefixed.length), name);
          }
        }
        const springKey = await oracle.request('key', settings, '');
        const ourKey = locator?.locate(new Map()).publicKey();
        if (springKey.ok) assert.equal(ourKey, springKey.value, `${name}: GET /key`);
        else assert.equal(ourKey, undefined, `${name}: Spring has no public key (${springKey.error})`);
      }
    });

    it('refuses what was encrypted under another key, as Spring does', async () => {
      const [a, b] = [configs[0], configs[1]];
      assert.ok(a && b);
      const locator = await confbusLocator(a.settings);
      const foreign = await oracle.expect('encrypt', b.settings, 'not for you');
      assert.throws(() => decryptText(locator, DEFAULT_SCOPE, foreign), /Text not encrypted with this key/);
      const answer = await oracle.request(
        'decrypt',
        b.settings,
        encryptText(locator, DEFAULT_SCOPE, 'nor this'),
      );
      assert.deepEqual(answer.ok ? answer.value : answer.error.split(':')[0], 'InvalidCipherException');
    });

    it("decrypts a whole property source exactly as Spring's CipherEnvironmentEncryptor does", async () => {
      for (const config of [configs[0], configs[3]]) {
        assert.ok(config);
        const locator = await confbusLocator(config.settings);
        const foreign = encryptText(
          await confbusLocator({ 'encrypt.key': 'someone else' }),
          DEFAULT_SCOPE,
          'x',
        );
        const entries: Array<[string, string]> = [
          ['first', `{cipher}${await oracle.expect('encrypt', config.settings, 'one')}`],
          ['plain', 'stays'],
          ['broken', `{cipher}${foreign}`],
          ['prefixed', `{cipher}{key:unused}${encryptText(locator, DEFAULT_SCOPE, 'two')}`],
          ['invalid.broken', 'already here'],
          ['last', 'also stays'],
        ];
        for (const prefixInvalid of ['true', 'false']) {
          const settings = {
            ...config.settings,
            'spring.cloud.config.server.encrypt.prefix-invalid-properties': prefixInvalid,
          };
          const spring = await oracle.environment(settings, entries);
          const environment: Environment = {
            name: 'application',
            profiles: ['default'],
            label: null,
            version: null,
            state: null,
            propertySources: [{ name: 'oracle', source: new Map(entries) }],
          };
          const ours = await decryptEnvironment(environment, {
            prefixInvalidProperties: prefixInvalid === 'true',
            decryptValue: (cipherText) => decryptText(locator, DEFAULT_SCOPE, cipherText),
          });
          // {key:unused} names no key-store entry: Spring and confbus both fail that value with a store.
          assert.deepEqual(
            [...(ours.environment.propertySources[0]?.source ?? [])],
            spring,
            `${config.name}, prefix-invalid-properties=${prefixInvalid}`,
          );
        }
      }
    });

    it('serves Spring-made {cipher} values from a real Git repository through `confbus server`, and `confbus encrypt` output decrypts in Spring', async () => {
      const remote: GitRemote = await createGitRemote();
      try {
        for (const config of [configs[2], configs[6], configs[8]]) {
          assert.ok(config);
          const args = Object.entries(config.settings).map(([key, value]) => `--${key}=${value}`);
          const secret = `secret of ${config.name} ✓`;
          const cipher = await oracle.expect('encrypt', config.settings, secret);
          await remote.commit({
            'app.yml': `db:\n  password: '{cipher}${cipher}'\n`,
            'app.properties': `api.token={cipher}${await oracle.expect('encrypt', config.settings, 'token ✓')}\n`,
          });
          const server = await startConfbusServer({
            gitUri: remote.url,
            basedir: join(temp.path, `mirror-${configs.indexOf(config)}`),
            args,
          });
          const env = (await (await fetch(`${server.url}/app/default`)).json()) as {
            propertySources: Array<{ source: Record<string, string> }>;
          };
          const values = Object.assign({}, ...env.propertySources.map((source) => source.source)) as Record<
            string,
            string
          >;
          assert.equal(values['db.password'], secret, config.name);
          assert.equal(values['api.token'], 'token ✓', config.name);
          await server.process.stop();

          const made = await runConfbusCommand(['encrypt', ...args], { input: `${secret}\n` });
          assert.equal(made.code, 0, made.stderr);
          assert.equal(
            await oracle.expect('decrypt', config.settings, made.stdout.trim()),
            secret,
            config.name,
          );
          const read = await runConfbusCommand(['decrypt', ...args], { input: cipher });
          assert.equal(read.stdout, `${secret}\n`);
        }
      } finally {
        await remote.remove();
      }
    });
  });
