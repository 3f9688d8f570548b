/**
 * Client-side decryption of `{cipher}` values a server passes through, against a stub server: Spring's
 * precedence rules, the `decrypted` layer masked in /actuator/env, backups that keep only cipher text,
 * rotation on refresh, and encrypt.fail-on-error.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AesTextEncryptor,
  DEFAULT_SCOPE,
  createEncryptorLocator,
  encryptText,
  encryptionSettingSpecs,
  readEncryptionSettings,
  resolveSettings,
} from '@confbus/core';
import { keytoolAvailable, makeKeyStore } from '@confbus/testkit/key-stores';
import { ConfigClient, createManagementHandler } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { createServer } from 'node:http';
import { CaptureLogger } from './support/capture-logger.js';

const KEY = 'client side key';
const encryptor = new AesTextEncryptor(KEY, 'deadbeef');
const cipher = (text: string) => `{cipher}${encryptor.encrypt(text)}`;

describe('client-side decryption', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };
  const clients: ConfigClient[] = [];

  const serve = (sources: Array<Record<string, unknown>>, version = 'a'.repeat(40)) =>
    stub.setEnvironment('app', 'default', {
      version,
      propertySources: sources.map((source, i) => ({ name: `repo/source-${i}.yml`, source })),
    });
  const start = async (extra: string[] = [], logger = new CaptureLogger()) => {
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=app', ...extra],
      env: {},
      cwd: temp.path,
      logger,
    });
    clients.push(client);
    return client;
  };

  /** The client's `/actuator/env` answer, as text and by property source. */
  const actuatorEnv = async (client: ConfigClient) => {
    const handler = createManagementHandler(client, { exposure: ['env'] });
    const http = createServer((req, res) => void (handler(req, res) || res.writeHead(404).end()));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const port = (http.address() as { port: number }).port;
      const body = await (await fetch(`http://127.0.0.1:${port}/actuator/env`)).text();
      const env = JSON.parse(body) as {
        propertySources: Array<{ name: string; properties: Record<string, { value: unknown }> }>;
      };
      const source = (name: string) => env.propertySources.find((ps) => ps.name === name)?.properties;
      return { body, source };
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stub.stop();
    await temp.remove();
  });

  it("decrypts with its own key, following Spring's precedence (a plain value above wins)", async () => {
    serve([
      { 'db.user': 'override', hosts: [] as unknown as string },
      {
        'db.password': cipher('s3cret ✓'),
        'db.user': cipher('never used'),
        'hosts[0]': cipher('10.0.0.1'),
        'hosts[1]': 'plain-host',
        'api.token': '{cipher}{key:ignored}' + encryptor.encrypt('tok'),
      },
    ]);
    const client = await start([`--encrypt.key=${KEY}`]);
    assert.equal(client.getString('db.password'), 's3cret ✓');
    assert.equal(client.getString('db.user'), 'override');
    assert.equal(client.getString('hosts[0]'), '10.0.0.1');
    assert.equal(client.getString('hosts[1]'), 'plain-host');
    assert.equal(client.getString('api.token'), 'tok');
    const sources = client.propertySources();
    const [top] = sources;
    const lower = sources.find((source) => source.name === 'configserver:repo/source-1.yml');
    assert.equal(top?.name, 'decrypted');
    assert.deepEqual([...(top?.properties.keys() ?? [])].sort(), [
      'api.token',
      'db.password',
      'hosts[0]',
      'hosts[1]',
    ]);
    assert.match(String(lower?.properties.get('db.password')), /^\{cipher\}/);
  });

  it('masks every decrypted value and every {cipher} value in /actuator/env, whatever its key', async () => {
    // A {secret:...} prefix is a key password in clear: the cipher text below it is masked too.
    const greeting = `{cipher}{secret:key-pa55-0c1}${encryptor.encrypt('hello secret')}`;
    serve([{ 'app.greeting': greeting, 'app.visible': 'shown' }]);
    const client = await start([`--encrypt.key=${KEY}`]);
    const { body, source } = await actuatorEnv(client);
    assert.ok(!body.includes('hello secret'), body);
    assert.ok(!body.includes(KEY), 'the key is masked too');
    assert.ok(!body.includes('key-pa55-0c1'), 'the key password of the cipher text is masked');
    assert.equal(source('decrypted')?.['app.greeting']?.value, '******');
    assert.equal(source('configserver:repo/source-0.yml')?.['app.greeting']?.value, '******');
    assert.equal(source('configserver:repo/source-0.yml')?.['app.visible']?.value, 'shown');
  });

  it('masks the values a server decrypted (its decryptedKeys) and keeps them out of the backup, whatever their keys', async () => {
    stub.setEnvironment('app', 'default', {
      version: 'e'.repeat(40),
      propertySources: [
        {
          name: 'repo/app.yml',
          source: { 'app.greeting': 'hello decrypted', 'app.visible': 'shown' },
          decryptedKeys: ['app.greeting'],
        },
      ],
    });
    const masked = async (client: ConfigClient) => {
      assert.equal(client.getString('app.greeting'), 'hello decrypted', 'the application reads it');
      const { body, source } = await actuatorEnv(client);
      assert.ok(!body.includes('hello decrypted'), body);
      assert.equal(source('configserver:repo/app.yml')?.['app.greeting']?.value, '******');
      assert.equal(source('configserver:repo/app.yml')?.['app.visible']?.value, 'shown');
    };
    const omitted = join(temp.path, 'server-decrypted-omitted.json');
    await masked(await start([`--confbus.client.backup.file=${omitted}`]));
    const without = await readFile(omitted, 'utf8');
    assert.ok(!without.includes('hello decrypted') && without.includes('"app.visible": "shown"'), without);

    const sealed = join(temp.path, 'server-decrypted-sealed.json');
    const backupKey = '--confbus.client.backup.key=backup key 7';
    await start([`--confbus.client.backup.file=${sealed}`, backupKey]);
    assert.ok(!(await readFile(sealed, 'utf8')).includes('hello decrypted'));
    stub.setFailing('close');
    try {
      const restored = await start([`--confbus.client.backup.file=${sealed}`, backupKey]);
      assert.equal(restored.status.source, 'backup');
      await masked(restored);
    } finally {
      stub.setFailing(null);
    }
  });

  it('refuses an environment whose decryptedKeys is not a list of keys', async () => {
    stub.setEnvironment('app', 'default', {
      propertySources: [
        { name: 'repo/app.yml', source: { a: 'b' }, decryptedKeys: 'a' as unknown as string[] },
      ],
    });
    await assert.rejects(
      start(['--spring.cloud.config.fail-fast=true', '--spring.cloud.config.retry.max-attempts=1']),
      /invalid environment: propertySources\[0\]\.decryptedKeys is not a list of keys/,
    );
  });

  it('keeps only cipher text in the backup, and decrypts it again when starting from it', async () => {
    const file = join(temp.path, 'backup.json');
    serve([{ 'db.password': cipher('backed-up secret'), 'app.token': cipher('token value') }]);
    const first = await start([`--encrypt.key=${KEY}`, `--confbus.client.backup.file=${file}`]);
    assert.equal(first.getString('db.password'), 'backed-up secret');
    const text = await readFile(file, 'utf8');
    assert.ok(!text.includes('backed-up secret') && !text.includes('token value'), text);
    assert.ok(!text.includes(KEY));
    assert.match(text, /"db\.password": "\{cipher\}[0-9a-f]+"/);
    stub.setFailing('close');
    try {
      const restored = await start([`--encrypt.key=${KEY}`, `--confbus.client.backup.file=${file}`]);
      assert.equal(restored.status.source, 'backup');
      assert.equal(restored.getString('db.password'), 'backed-up secret');
    } finally {
      stub.setFailing(null);
    }
  });

  it('treats a {cipher} value carrying a {secret:...} key password as a secret in the backup', async () => {
    const keyPassword = 'key-pa55-9b7';
    const greeting = `{cipher}{key:current}{secret:${keyPassword}}${encryptor.encrypt('hello')}`;
    serve([{ 'app.greeting': greeting, 'app.plain': cipher('no prefix') }]);
    const omitted = join(temp.path, 'omitted.json');
    await start([`--encrypt.key=${KEY}`, `--confbus.client.backup.file=${omitted}`]);
    const without = await readFile(omitted, 'utf8');
    assert.ok(!without.includes(keyPassword) && !without.includes('app.greeting'), without);
    assert.match(without, /"app\.plain": "\{cipher\}[0-9a-f]+"/);

    const sealed = join(temp.path, 'sealed.json');
    const backupKey = '--confbus.client.backup.key=backup key 42';
    await start([`--encrypt.key=${KEY}`, `--confbus.client.backup.file=${sealed}`, backupKey]);
    assert.ok(!(await readFile(sealed, 'utf8')).includes(keyPassword));
    stub.setFailing('close');
    try {
      const restored = await start([
        `--encrypt.key=${KEY}`,
        `--confbus.client.backup.file=${sealed}`,
        backupKey,
      ]);
      assert.equal(restored.status.source, 'backup');
      assert.equal(restored.getString('app.greeting'), 'hello');
    } finally {
      stub.setFailing(null);
    }
  });

  it('picks up a rotated secret on refresh, and a re-encryption of the same text changes nothing', async () => {
    serve([{ 'db.password': cipher('first') }], '1'.repeat(40));
    const client = await start([`--encrypt.key=${KEY}`]);
    serve([{ 'db.password': cipher('second') }], '2'.repeat(40));
    assert.deepEqual(await client.refresh(), ['config.client.version', 'db.password']);
    assert.equal(client.getString('db.password'), 'second');
    serve([{ 'db.password': cipher('second') }], '3'.repeat(40));
    assert.deepEqual(await client.refresh(), ['config.client.version']);
  });

  it('fails start-up or the refresh on a value it cannot decrypt, unless encrypt.fail-on-error=false', async () => {
    serve([{ 'db.password': `{cipher}${new AesTextEncryptor('other', 'deadbeef').encrypt('x')}` }]);
    await assert.rejects(start([`--encrypt.key=${KEY}`]), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'CONFBUS_CLIENT_DECRYPT_FAILED');
      assert.match(error.message, /Cannot decrypt: key=db\.password \(Text not encrypted with this key/);
      return true;
    });
    await assert.rejects(start([]), /Cannot decrypt: key=db\.password \(No key was installed.*encrypt\.key/);

    const logger = new CaptureLogger();
    const lenient = await start([`--encrypt.key=${KEY}`, '--encrypt.fail-on-error=false'], logger);
    assert.equal(lenient.getString('db.password'), '');
    assert.ok(logger.lines.some((line) => /^warn: Cannot decrypt: key=db\.password/.test(line)));

    serve([{ 'db.password': cipher('good') }]);
    const strict = await start([`--encrypt.key=${KEY}`]);
    serve(
      [{ 'db.password': `{cipher}${new AesTextEncryptor('other', 'deadbeef').encrypt('x')}` }],
      'b'.repeat(40),
    );
    await assert.rejects(
      strict.refresh(),
      /Refresh failed, keeping the current configuration.*Cannot decrypt: key=db\.password/,
    );
    assert.equal(strict.getString('db.password'), 'good');
  });

  it('decrypts {cipher} values in its own local settings too', async () => {
    serve([{ unrelated: 'x' }]);
    const client = await start([`--encrypt.key=${KEY}`, `--local.secret=${cipher('local value')}`]);
    assert.equal(client.getString('local.secret'), 'local value');
  });

  it('decrypts RSA values with a PKCS12 key store, {key:...} prefixes choosing the entry (Spring clients cannot)', async (t) => {
    const keytool = keytoolAvailable();
    if (!keytool.ok) return t.skip(`not run: ${keytool.reason}`);
    const store = await makeKeyStore({
      dir: temp.path,
      file: 'client.p12',
      type: 'PKCS12',
      storePassword: 'storepass',
      entries: [{ alias: 'current' }, { alias: 'previous' }],
    });
    const args = [
      `--encrypt.key-store.location=${store}`,
      '--encrypt.key-store.password=storepass',
      '--encrypt.key-store.alias=current',
      '--encrypt.key-store.type=PKCS12',
      '--encrypt.rsa.algorithm=OAEP',
    ];
    const encryption = readEncryptionSettings(
      resolveSettings(encryptionSettingSpecs, { args, env: {} }, { unknownKeys: 'error' }),
    );
    const locator = await createEncryptorLocator(encryption, await readFile(store));
    serve([
      {
        'db.password': `{cipher}${encryptText(locator, DEFAULT_SCOPE, 'rsa secret')}`,
        'old.password': `{cipher}${encryptText(locator, DEFAULT_SCOPE, '{key:previous}older secret')}`,
      },
    ]);
    const client = await start(args);
    assert.equal(client.getString('db.password'), 'rsa secret');
    assert.equal(client.getString('old.password'), 'older secret');
  });
});
