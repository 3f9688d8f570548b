/**
 * /encrypt, /decrypt, /encrypt/status and /key on a real server: Spring's bodies and statuses, form posts as
 * `curl -d` sends them, key stores made by keytool with {key:...}/{secret:...} prefixes, basic auth, input
 * limits, and the route table shared with the environment routes (applications named `encrypt` and `key`).
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { keytoolAvailable, makeKeyStore } from '@confbus/testkit/key-stores';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type PreparedServer, startPreparedServer } from '../security/prepared-server.js';

interface Answer {
  status: number;
  type: string;
  text: string;
  json: () => Record<string, unknown>;
}

async function call(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'text/plain', ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text,
    json: () => JSON.parse(text),
  };
}

describe('encryption endpoints', () => {
  let remote: GitRemote;
  const servers: PreparedServer[] = [];
  const start = async (settings: Record<string, string>) => {
    const server = await startPreparedServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...settings,
    });
    servers.push(server);
    return server.base;
  };

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'encrypt.yml': 'who: the application named encrypt\n',
      'key.yml': 'who: the application named key\n',
      'app.yml': 'who: app\n',
    });
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await remote?.remove();
  });

  it('encrypts and decrypts text/plain bodies, and accepts a leading {cipher} on /decrypt', async () => {
    const base = await start({ 'encrypt.key': 'k3y' });
    const encrypted = await call(base, 'POST', '/encrypt', 'pässword');
    assert.equal(encrypted.status, 200);
    assert.match(encrypted.type, /^text\/plain/);
    assert.match(encrypted.text, /^[0-9a-f]{64}$/);
    assert.equal((await call(base, 'POST', '/decrypt', encrypted.text)).text, 'pässword');
    assert.equal((await call(base, 'POST', '/decrypt', `{cipher}${encrypted.text}`)).text, 'pässword');
    const scoped = await call(base, 'POST', '/encrypt/app/dev,db', '{key:any}text');
    assert.match(scoped.text, /^\{key:any\}[0-9a-f]+$/);
    assert.equal((await call(base, 'POST', '/decrypt/app/dev,db', scoped.text)).text, 'text');
    assert.deepEqual((await call(base, 'GET', '/encrypt/status')).json(), { status: 'OK' });
  });

  it('reads `curl -d` form posts: text for /encrypt, cipher text (+ and = kept) for /decrypt', async () => {
    const base = await start({ 'encrypt.key': 'k3y' });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const encrypted = await call(base, 'POST', '/encrypt', 'mysecret', form);
    assert.equal((await call(base, 'POST', '/decrypt', encrypted.text)).text, 'mysecret');
    assert.equal((await call(base, 'POST', '/decrypt', encrypted.text, form)).text, 'mysecret');
    // --data-urlencode for text that needs it
    const spaced = await call(base, 'POST', '/encrypt', encodeURIComponent('a b&c=d'), form);
    assert.equal((await call(base, 'POST', '/decrypt', spaced.text)).text, 'a b&c=d');
  });

  it("answers with Spring's error bodies", async () => {
    const base = await start({ 'encrypt.key': 'k3y' });
    const invalid = await call(base, 'POST', '/decrypt', 'abcd');
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json(), {
      status: 'INVALID',
      description: 'Text not encrypted with this key',
      code: 'CONFBUS_DECRYPT_FAILED',
    });
    const noPublicKey = await call(base, 'GET', '/key');
    assert.equal(noPublicKey.status, 404);
    assert.deepEqual(noPublicKey.json(), {
      status: 'NOT_FOUND',
      description: 'No public key available',
      code: 'CONFBUS_NO_PUBLIC_KEY',
    });
    const badName = await call(base, 'POST', '/encrypt/bad%20name/dev', 'x');
    assert.equal(badName.status, 400);
    assert.equal(badName.json().code, 'CONFBUS_INVALID_REQUEST');
    const empty = await call(base, 'POST', '/encrypt', '');
    assert.equal(empty.status, 400);
    assert.equal(empty.json().code, 'CONFBUS_EMPTY_BODY');
  });

  it('names the missing encrypt.key when there is no key (Spring: 404 NO_KEY, or 500 in 4.x)', async () => {
    const base = await start({});
    for (const [method, path] of [
      ['POST', '/encrypt'],
      ['POST', '/decrypt'],
      ['GET', '/encrypt/status'],
      ['GET', '/key'],
    ] as const) {
      const answer = await call(base, method, path, method === 'POST' ? 'x' : undefined);
      assert.equal(answer.status, 404, path);
      const body = answer.json();
      assert.equal(body.status, 'NO_KEY');
      assert.equal(body.code, 'CONFBUS_ENCRYPT_NO_KEY');
      assert.match(String(body.description), /No key was installed.*set encrypt\.key/);
    }
  });

  it('serves the RSA public key of a PEM key, and keeps /encrypt, /key apart from the environments', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const base = await start({
      'encrypt.key': privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
    });
    const key = await call(base, 'GET', '/key');
    assert.match(key.text, /^ssh-rsa AAAAB3NzaC1yc2E[A-Za-z0-9+/=]+ application$/);
    assert.equal((await call(base, 'GET', '/key/app/dev')).text, key.text);
    const cipher = (await call(base, 'POST', '/encrypt', 'rsa secret')).text;
    assert.match(cipher, /^[A-Za-z0-9+/]+=*$/);
    assert.equal((await call(base, 'POST', '/decrypt', cipher)).text, 'rsa secret');
    // Form-posted base64: `+` arrives as a space and padding `=` must survive.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    assert.equal((await call(base, 'POST', '/decrypt', cipher, form)).text, 'rsa secret');

    const who = async (path: string): Promise<string> => {
      const answer = await call(base, 'GET', path);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      if (!answer.text.includes('"propertySources"')) return answer.text;
      const env = JSON.parse(answer.text) as { propertySources: Array<{ source: { who: string } }> };
      return env.propertySources[0]?.source.who ?? '';
    };
    for (let round = 0; round < 2; round++) {
      // Twice: the second round goes through the repeated-URL fast path.
      assert.equal(await who('/encrypt/dev'), 'the application named encrypt');
      assert.equal(await who('/encrypt/dev/master'), 'the application named encrypt');
      assert.equal(await who('/key/dev'), 'the application named key');
      assert.equal(await who('/encrypt/status'), '{"status":"OK"}');
      // As in Spring, /key/{name}/{profiles} is the key endpoint, not /{key}/{profiles}/{label}.
      assert.equal(await who('/key/dev/master'), key.text);
      assert.match(await who('/key-dev.yml'), /who: the application named key/);
      assert.match(await who('/master/encrypt-dev.properties'), /who: the application named encrypt/);
    }
  });

  it('needs credentials when basic auth is on, and applies the body size limit', async () => {
    const base = await start({
      'encrypt.key': 'k3y',
      'spring.security.user.password': 'pw',
      'confbus.server.max-body-bytes': '1024',
    });
    const auth = { authorization: `Basic ${Buffer.from('user:pw').toString('base64')}` };
    assert.equal((await call(base, 'POST', '/encrypt', 'x')).status, 401);
    assert.equal((await call(base, 'POST', '/decrypt', 'x')).status, 401);
    assert.equal((await call(base, 'GET', '/encrypt/status')).status, 401);
    assert.equal((await call(base, 'GET', '/key')).status, 401);
    assert.equal((await call(base, 'POST', '/encrypt', 'x', auth)).status, 200);
    const tooLarge = await call(base, 'POST', '/encrypt', 'x'.repeat(2000), auth);
    assert.equal(tooLarge.status, 413);
    assert.match(String(tooLarge.json().message), /confbus\.server\.max-body-bytes/);
  });

  it('uses keys from a JKS store by {key:...}/{secret:...} prefix, and a certificate-only entry encrypts only', async (t) => {
    const keytool = keytoolAvailable();
    if (!keytool.ok) return t.skip(`not run: ${keytool.reason}`);
    const dir = await makeTempDir('confbus-keystore-');
    t.after(() => dir.remove());
    const store = await makeKeyStore({
      dir: dir.path,
      file: 'server.jks',
      type: 'JKS',
      storePassword: 'letmein',
      entries: [
        { alias: 'mytestkey', keyPassword: 'changeme' },
        { alias: 'mykey' },
        { alias: 'encryptonly', certificateOf: 'mykey' },
      ],
    });
    const base = await start({
      'encrypt.key-store.location': `file:${store}`,
      'encrypt.key-store.password': 'letmein',
      'encrypt.key-store.alias': 'mytestkey',
      'encrypt.key-store.secret': 'changeme',
    });
    const plain = await call(base, 'POST', '/encrypt', 'default key');
    assert.equal((await call(base, 'POST', '/decrypt', plain.text)).text, 'default key');
    const other = await call(base, 'POST', '/encrypt', '{key:mykey}{secret:letmein}other key');
    assert.match(other.text, /^\{key:mykey\}\{secret:letmein\}[A-Za-z0-9+/]+=*$/);
    assert.equal((await call(base, 'POST', '/decrypt', other.text)).text, 'other key');
    const wrongSecret = await call(base, 'POST', '/decrypt', other.text.replace('{secret:letmein}', ''));
    assert.equal(wrongSecret.status, 400);
    assert.match(String(wrongSecret.json().description), /Cannot recover key 'mykey'/);
    const missing = await call(base, 'POST', '/encrypt', '{key:nope}x');
    assert.equal(missing.status, 400);
    assert.match(String(missing.json().description), /No key 'nope'/);

    const encryptOnly = await call(base, 'POST', '/encrypt', '{key:encryptonly}for the mykey owner');
    assert.equal(encryptOnly.status, 200);
    const refused = await call(base, 'POST', '/decrypt', encryptOnly.text);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json(), {
      status: 'BAD_REQUEST',
      description: 'Server-side decryption is not supported',
      code: 'CONFBUS_DECRYPT_NOT_SUPPORTED',
    });
    // The same bytes under the key that has the private half decrypt.
    const asMyKey = encryptOnly.text.replace('{key:encryptonly}', '{key:mykey}{secret:letmein}');
    assert.equal((await call(base, 'POST', '/decrypt', asMyKey)).text, 'for the mykey owner');
  });
});
