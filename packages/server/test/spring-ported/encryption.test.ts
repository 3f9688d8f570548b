/**
 * Spring Cloud Config's own encryption tests, ported to HTTP against confbus (spring-cloud-config-server, main
 * at 5.0.x): EncryptionControllerTests (an RSA key, as Spring's `new RsaSecretEncryptor()`: here a PEM
 * `encrypt.key`), EncryptionIntegrationTests, CipherEnvironmentEncryptorTests (a symmetric key and salt, the
 * environment served with its `{cipher}` values decrypted) and CipherResource{Json,Yaml,Properties}EncryptorTests
 * (plain-text-encrypt). Cipher texts are made by the servers' own `/encrypt`.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type PortedServer, V2, rawGet, startPortedServer } from './ported-server.js';

const FORM = 'application/x-www-form-urlencoded';

function rsaPem(): string {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  }).privateKey;
}

async function post(
  server: PortedServer,
  path: string,
  body: string,
  type = 'text/plain',
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  return { status: response.status, body: await response.text() };
}

async function encrypt(server: PortedServer, plain: string, path = '/encrypt'): Promise<string> {
  const response = await post(server, path, plain);
  assert.equal(response.status, 200, response.body);
  return response.body;
}

describe("Spring's EncryptionControllerTests over HTTP (RSA key)", () => {
  let rsa: PortedServer;
  let otherRsa: PortedServer;

  before(async () => {
    [rsa, otherRsa] = await Promise.all([
      startPortedServer({ 'app.yml': 'a: 1\n' }, { 'encrypt.key': rsaPem() }),
      startPortedServer({ 'app.yml': 'a: 1\n' }, { 'encrypt.key': rsaPem() }),
    ]);
  });

  after(async () => {
    await rsa?.stop();
    await otherRsa?.stop();
  });

  it('shouldThrowExceptionOnDecryptInvalidData, shouldThrowExceptionOnDecryptWrongKey', async () => {
    assert.equal((await post(rsa, '/decrypt', 'foo')).status, 400);
    const foreign = await encrypt(otherRsa, 'foo');
    const wrongKey = await post(rsa, '/decrypt', foreign);
    assert.equal(wrongKey.status, 400);
    assert.equal((JSON.parse(wrongKey.body) as { status: string }).status, 'INVALID');
  });

  it('sunnyDayRsaKey, appAndProfile', async () => {
    assert.equal((await post(rsa, '/decrypt', await encrypt(rsa, 'foo'))).body, 'foo');
    const cipher = await encrypt(rsa, 'foo bar', '/encrypt/app/default');
    assert.equal((await post(rsa, '/decrypt/app/default', cipher)).body, 'foo bar');
  });

  it('publicKey', async () => {
    const key = await rsa.get('/key');
    assert.equal(key.status, 200);
    assert.ok(key.body.startsWith('ssh-rsa'), `Wrong key format: ${key.body}`);
  });

  it('formDataIn, formDataInWithPrefix, encryptDecryptTextWithCurlyBrace', async () => {
    // Spring's tests hand the controller `TEXT=`, what its servlet rebuilds from a form post of `TEXT` (curl -d);
    // over HTTP the post is `TEXT` itself (confbus reads form bodies as sent: docs/encryption.md).
    for (const plain of ['foo bar', '{key:test}foo bar']) {
      const cipher = (await post(rsa, '/encrypt', plain, FORM)).body;
      assert.equal((await post(rsa, '/decrypt', cipher, FORM)).body, 'foo bar', plain);
    }
    const cipher = (await post(rsa, '/encrypt', 'textwith}brace', FORM)).body;
    assert.equal((await post(rsa, '/decrypt', cipher, FORM)).body, 'textwith}brace');
  });

  it('prefixStrippedBeforeEncrypt, addEnvironment', async () => {
    const cipher = await encrypt(rsa, '{key:value}foo bar', '/encrypt/app/default');
    assert.ok(!cipher.includes('{name:app}'), `Wrong cipher: ${cipher}`);
    assert.equal((await post(rsa, '/decrypt/app/default', cipher)).body, 'foo bar');
  });

  it('getPublicKey/decrypt/encrypt NameWithDotDot and ProfilesWithDotDot', async () => {
    for (const scope of ['%2E%2E%2Fapp/default', 'app/%2E%2E%2Fdefault']) {
      assert.equal((await rawGet(rsa.server.base, `/key/${scope}`)).status, 400, `/key/${scope}`);
      assert.equal((await post(rsa, `/decrypt/${scope}`, 'hello')).status, 400, `/decrypt/${scope}`);
      assert.equal((await post(rsa, `/encrypt/${scope}`, 'hello')).status, 400, `/encrypt/${scope}`);
    }
  });

  it('symmetricEncryptionEnabled (EncryptionIntegrationTests: /encrypt/status)', async () => {
    assert.equal((await rsa.get('/encrypt/status')).status, 200);
  });
});

describe("Spring's CipherEnvironmentEncryptorTests over HTTP", () => {
  /** Spring's parameters: salt and key. */
  const params = [
    ['deadbeef', 'foo'],
    ['4567890a12345678', 'bar'],
  ] as const;

  for (const [salt, key] of params) {
    describe(`salt ${salt}, key ${key}`, () => {
      let server: PortedServer;
      let unprefixed: PortedServer;
      let dummy: PortedServer;
      const secret = randomUUID();

      before(async () => {
        const settings = { 'encrypt.key': key, 'encrypt.salt': salt };
        [server, dummy] = await Promise.all([
          startPortedServer({ 'placeholder.yml': 'a: 1\n' }, settings),
          startPortedServer({ 'placeholder.yml': 'a: 1\n' }, { ...settings, 'encrypt.key': 'dummykey' }),
        ]);
        const good = await encrypt(server, secret);
        const bad = await encrypt(dummy, secret);
        await server.remote.commit({
          'name.yml': `name: '{cipher}${good}'\n`,
          'keyed.yml': `keyed: '{cipher}{key:test}${good}'\n`,
          'nothing.yml': 'nothing: null\n',
          'failed.yml': `failed: '{cipher}${bad}'\n`,
        });
        unprefixed = await startPortedServer(
          { 'failed.yml': `failed: '{cipher}${bad}'\n` },
          { ...settings, 'spring.cloud.config.server.encrypt.prefix-invalid-properties': 'false' },
        );
      });

      after(async () => {
        await server?.stop();
        await dummy?.stop();
        await unprefixed?.stop();
      });

      const first = async (target: PortedServer, path: string, accept?: string) =>
        (await target.environment(path, accept)).propertySources[0]!.source;

      it('shouldDecryptEnvironment, shouldDecryptEnvironmentWithKey', async () => {
        assert.equal((await first(server, '/name/profile')).name, secret);
        assert.equal((await first(server, '/keyed/profile')).keyed, secret);
      });

      it('shouldBeAbleToUseNullAsPropertyValue', async () => {
        // Spring Boot's YAML loader reads `null` as the empty string; it is served as it is.
        assert.deepEqual(await first(server, '/nothing/profile'), { nothing: '' });
      });

      it('shouldDecryptEnvironmentIncludeOrigin', async () => {
        assert.equal((await first(server, '/name/profile', V2)).name, secret);
      });

      it('shouldDecryptFailed', async () => {
        assert.deepEqual(await first(server, '/failed/profile'), { 'invalid.failed': '<n/a>' });
      });

      it('decryptFailedWithoutInvalidPrefix', async () => {
        const source = await first(unprefixed, '/failed/profile');
        assert.equal(source['invalid.failed'], undefined);
        assert.match(String(source.failed), /^[0-9a-f]+$/, 'the cipher text without {cipher}');
      });
    });
  }
});

describe("Spring's CipherResource{Yaml,Json,Properties}EncryptorTests over HTTP (plain-text-encrypt)", () => {
  let server: PortedServer;

  before(async () => {
    server = await startPortedServer(
      { 'app.yml': 'a: 1\n' },
      {
        'encrypt.key': 'foo',
        'encrypt.salt': 'deadbeef',
        'spring.cloud.config.server.encrypt.plain-text-encrypt': 'true',
      },
    );
    const cipher = `{cipher}${await encrypt(server, 'password')}`;
    await server.remote.commit({
      'test.yml': [
        'config:',
        `  foo: '${cipher}'`,
        '  null-value: null',
        '  array:',
        `  - first-password: '${cipher}'`,
        `    second-password: '${cipher}'`,
        '',
      ].join('\n'),
      'test.json': JSON.stringify({ config: { foo: cipher, array: [{ password: cipher }] } }),
      'test.properties': `config.foo=${cipher}\nconfig.bar=plain\n`,
    });
  });

  after(async () => server?.stop());

  it('whenDecryptResource_thenAllEncryptedValuesDecrypted', async () => {
    for (const file of ['test.yml', 'test.json', 'test.properties']) {
      const response = await server.get(`/app/default/master/${file}`);
      assert.equal(response.status, 200, file);
      assert.ok(!response.body.includes('{cipher}'), `${file}: ${response.body}`);
      assert.match(response.body, /password/, file);
    }
  });
});
