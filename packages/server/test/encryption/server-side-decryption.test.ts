/**
 * `{cipher}` values in a real Git repository, served by a real server over HTTP: decrypted in the environment
 * JSON and in every rendered format, `invalid.<key>` for values that do not decrypt (one WARN naming the key,
 * never the cipher text), cached with the environment, and passed through when server-side decryption is off.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AesTextEncryptor } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type PreparedServer, startPreparedServer } from '../security/prepared-server.js';

const KEY = 'correct horse battery staple';
const encryptor = new AesTextEncryptor(KEY, 'deadbeef');
const otherKey = new AesTextEncryptor('another key', 'deadbeef');

interface EnvironmentJson {
  propertySources: Array<{ name: string; source: Record<string, unknown>; decryptedKeys?: string[] }>;
}

describe('server-side decryption of {cipher} values', () => {
  let remote: GitRemote;
  const servers: PreparedServer[] = [];
  const password = encryptor.encrypt('db-pässword');
  const token = encryptor.encrypt('api-token-value');
  const wrong = otherKey.encrypt('never shown');

  const start = async (settings: Record<string, string>) => {
    const server = await startPreparedServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...settings,
    });
    servers.push(server);
    return server;
  };
  const get = async (server: PreparedServer, path: string) => {
    const response = await fetch(`${server.base}${path}`);
    return { status: response.status, text: await response.text() };
  };

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      // YAML needs the quotes; .properties must not have them (Spring's documentation).
      'application.yml': `shared:\n  token: '{cipher}${token}'\n  plain: visible\n`,
      'app.yml': `db:\n  password: '{cipher}${password}'\n  url: jdbc:x\n  broken: '{cipher}${wrong}'\nlist:\n  - '{cipher}${token}'\n  - plain\n`,
      'app-dev.properties': `dev.secret={cipher}{key:whatever}${password}\ndev.url=http://dev\n`,
    });
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await remote?.remove();
  });

  it('decrypts every property source, renames what does not decrypt, and warns once naming the key', async () => {
    const server = await start({ 'encrypt.key': KEY });
    const response = await get(server, '/app/dev');
    assert.equal(response.status, 200);
    const env = JSON.parse(response.text) as EnvironmentJson;
    const [dev, app, application] = env.propertySources.map((source) => Object.entries(source.source));
    assert.deepEqual(dev, [
      ['dev.url', 'http://dev'],
      ['dev.secret', 'db-pässword'],
    ]);
    // Spring re-inserts decrypted entries, so they end up after the plain ones.
    assert.deepEqual(app, [
      ['db.url', 'jdbc:x'],
      ['list[1]', 'plain'],
      ['db.password', 'db-pässword'],
      ['invalid.db.broken', '<n/a>'],
      ['list[0]', 'api-token-value'],
    ]);
    assert.deepEqual(application, [
      ['shared.plain', 'visible'],
      ['shared.token', 'api-token-value'],
    ]);
    assert.ok(!response.text.includes('{cipher}'));

    await get(server, '/app/dev');
    await get(server, '/app/default');
    const warnings = server.logs.filter((line) => line.includes('Cannot decrypt'));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    const warning = JSON.parse(warnings[0] ?? '{}') as Record<string, unknown>;
    assert.equal(warning.level, 40);
    assert.equal(warning.key, 'db.broken');
    assert.match(String(warning.propertySource), /app\.yml$/);
    for (const line of server.logs) {
      for (const secret of [KEY, wrong, password, 'db-pässword', 'api-token-value']) {
        assert.ok(!line.includes(secret), `a log line holds a secret: ${line}`);
      }
    }
  });

  it('names the keys it decrypted in each property source (decryptedKeys), plain and with origins', async () => {
    const server = await start({ 'encrypt.key': KEY });
    const v2 = 'application/vnd.spring-cloud.config-server.v2+json';
    for (const accept of ['application/json', v2]) {
      const response = await fetch(`${server.base}/app/dev`, { headers: { accept } });
      const env = (await response.json()) as EnvironmentJson;
      assert.deepEqual(
        env.propertySources.map((source) => [Object.keys(source), source.decryptedKeys]),
        [
          [['name', 'source', 'decryptedKeys'], ['dev.secret']],
          // What did not decrypt (invalid.db.broken) is not a secret: `<n/a>`.
          [
            ['name', 'source', 'decryptedKeys'],
            ['db.password', 'list[0]'],
          ],
          [['name', 'source', 'decryptedKeys'], ['shared.token']],
        ],
        accept,
      );
      if (accept === v2)
        assert.deepEqual(env.propertySources[1]?.source['db.url'], { value: 'jdbc:x', origin: '3:8' });
    }
    const passThrough = await start({
      'encrypt.key': KEY,
      'spring.cloud.config.server.encrypt.enabled': 'false',
    });
    const served = JSON.parse((await get(passThrough, '/app/dev')).text) as EnvironmentJson;
    assert.ok(served.propertySources.every((source) => !('decryptedKeys' in source)));
  });

  it('serves the decrypted values in .yml, .properties and .json too', async () => {
    const server = await start({ 'encrypt.key': KEY });
    const yml = await get(server, '/app-dev.yml');
    assert.match(yml.text, /password: db-pässword/);
    assert.match(yml.text, /invalid:\n\s+db:\n\s+broken: <n\/a>/);
    const properties = await get(server, '/app-dev.properties');
    assert.match(properties.text, /^dev\.secret: db-pässword$/m);
    const json = JSON.parse((await get(server, '/master/app-dev.json')).text) as {
      db: Record<string, string>;
      shared: Record<string, string>;
    };
    assert.equal(json.db.password, 'db-pässword');
    assert.equal(json.shared.token, 'api-token-value');
    for (const body of [yml.text, properties.text]) assert.ok(!body.includes('{cipher}'));
  });

  it('decrypts once per build: cached requests, and other applications sharing a file, decrypt nothing more', async () => {
    const server = await start({ 'encrypt.key': KEY, 'spring.cloud.config.server.git.refresh-rate': '60' });
    const decryptor = server.server.encryption.decryptor;
    assert.ok(decryptor);
    await get(server, '/app/dev');
    const afterFirst = { decrypted: decryptor.decrypted, builds: server.server.repositories.builds };
    assert.equal(afterFirst.decrypted, 3); // password, token, and the failing value counted apart
    for (let i = 0; i < 20; i++) assert.equal((await get(server, '/app/dev')).status, 200);
    await get(server, '/other/default'); // application.yml's token again, in a new build
    assert.equal(decryptor.decrypted, afterFirst.decrypted);
    assert.equal(server.server.repositories.builds, afterFirst.builds + 1);
  });

  it('passes cipher text through with spring.cloud.config.server.encrypt.enabled=false', async () => {
    const server = await start({ 'encrypt.key': KEY, 'spring.cloud.config.server.encrypt.enabled': 'false' });
    const env = JSON.parse((await get(server, '/app/default')).text) as EnvironmentJson;
    assert.equal(env.propertySources[0]?.source['db.password'], `{cipher}${password}`);
    assert.equal(env.propertySources[0]?.source['db.broken'], `{cipher}${wrong}`);
    assert.equal(server.server.encryption.decryptor, undefined);
  });

  it('keeps the key and serves the cipher text without its marker when invalid prefixes are off', async () => {
    const server = await start({
      'encrypt.key': KEY,
      'spring.cloud.config.server.encrypt.prefixInvalidProperties': 'false',
    });
    const env = JSON.parse((await get(server, '/app/default')).text) as EnvironmentJson;
    assert.equal(env.propertySources[0]?.source['db.broken'], wrong);
    assert.equal(env.propertySources[0]?.source['invalid.db.broken'], undefined);
  });

  it('without a key, serves every {cipher} value as invalid and says so at start', async () => {
    const server = await start({});
    const env = JSON.parse((await get(server, '/app/default')).text) as EnvironmentJson;
    assert.equal(env.propertySources[0]?.source['invalid.db.password'], '<n/a>');
    assert.ok(server.logs.some((line) => line.includes('No encryption key')));
    const warning = server.logs.find((line) => line.includes('Cannot decrypt'));
    assert.match(warning ?? '', /encrypt\.key/);
  });
});
