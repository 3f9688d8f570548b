/**
 * Spring-compatible encryptors on fixed vectors from Spring's own tests (spring-cloud-context's
 * EncryptionIntegrationTests and BootstrapOrderingCustomPropertySourceIntegrationTests, spring-security-crypto's
 * AesBytesEncryptorTests, spring-cloud-config-server's EncryptionIntegrationTests with its server.jks), and on
 * round trips for what has no fixed vector (RSA pads randomly).
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import {
  AesTextEncryptor,
  ConfbusError,
  DEFAULT_SCOPE,
  RsaSecretEncryptor,
  createEncryptorLocator,
  decryptText,
  encryptText,
  parseRsaPrivateKeyPem,
  type EncryptionSettings,
  type RsaKeyPair,
} from '../src/index.ts';
import { AesBytesEncryptor, deriveAesKey } from '../src/encryption/aes-encryptor.js';
import { sshRsaPublicKey } from '../src/encryption/rsa-keys.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfbusError, String(error));
    return error.code;
  }
  assert.fail('expected an error');
};

const settings = (over: Partial<EncryptionSettings>): EncryptionSettings => ({
  key: undefined,
  salt: 'deadbeef',
  keyStore: undefined,
  rsa: { algorithm: 'DEFAULT', strong: false, salt: 'deadbeef' },
  ignored: [],
  ...over,
});

// Key generation is the slow part of these tests: two pairs serve them all.
const pairs: RsaKeyPair[] = [0, 1].map(() => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { publicKey, privateKey };
});
const rsaPair = (which = 0): RsaKeyPair => pairs[which] as RsaKeyPair;

describe('symmetric keys (Encryptors.text)', () => {
  it("decrypts Spring's test vectors", () => {
    assert.equal(
      new AesTextEncryptor('pie', 'deadbeef').decrypt(
        'bf29452295df354e6153c5b31b03ef23c70e55fba24299aa85c63438f1c43c95',
      ),
      'test',
    );
    const deadbeef = new AesTextEncryptor('deadbeef', 'deadbeef');
    assert.equal(deadbeef.decrypt('6154ca04d4bb6144d672c4e3d750b5147116dd381946d51fa44f8bc25dc256f4'), 'bar');
    // Upper-case hex is hex to Java's Character.digit too.
    assert.equal(deadbeef.decrypt('6154CA04D4BB6144D672C4E3D750B5147116DD381946D51FA44F8BC25DC256F4'), 'bar');
  });

  it('produces the bytes of AesBytesEncryptorTests for a fixed IV, CBC and GCM', () => {
    const key = deriveAesKey('password', 'deadbeef');
    const iv = Buffer.from('4b0febebd439db7ca77153cb254520c3', 'hex');
    const cbc = new AesBytesEncryptor(key, 'cbc');
    const gcm = new AesBytesEncryptor(key, 'gcm');
    const cbcOut = cbc.encrypt(Buffer.from('value'), iv);
    const gcmOut = gcm.encrypt(Buffer.from('value'), iv);
    assert.equal(cbcOut.toString('hex'), '4b0febebd439db7ca77153cb254520c3b7232ac29355d07869433f1ecf55fe94');
    assert.equal(
      gcmOut.toString('hex'),
      '4b0febebd439db7ca77153cb254520c3e4d61ae38207b4e42b820d311dc3d4e0e2f37ed5ee',
    );
    assert.equal(cbc.decrypt(cbcOut).toString(), 'value');
    assert.equal(gcm.decrypt(gcmOut).toString(), 'value');
  });

  it('round-trips UTF-8 with a fresh IV each time, and refuses the wrong key or mangled text', () => {
    const encryptor = new AesTextEncryptor('s3cr3t', '4567890a12345678');
    const a = encryptor.encrypt('pässwörd ✓');
    assert.notEqual(a, encryptor.encrypt('pässwörd ✓'));
    assert.match(a, /^[0-9a-f]+$/);
    assert.equal(encryptor.decrypt(a), 'pässwörd ✓');
    assert.equal(
      code(() => new AesTextEncryptor('other', '4567890a12345678').decrypt(a)),
      'CONFBUS_DECRYPT_FAILED',
    );
    assert.equal(
      code(() => new AesTextEncryptor('s3cr3t', 'deadbeef').decrypt(a)),
      'CONFBUS_DECRYPT_FAILED',
    );
    assert.equal(
      code(() => encryptor.decrypt(`ZZZ${a}`)),
      'CONFBUS_DECRYPT_FAILED',
    );
    assert.equal(
      code(() => encryptor.decrypt(a.slice(1))),
      'CONFBUS_DECRYPT_FAILED',
    );
    assert.equal(
      code(() => encryptor.decrypt(a.slice(0, 30))),
      'CONFBUS_DECRYPT_FAILED',
    );
    assert.equal(
      code(() => encryptor.decrypt('')),
      'CONFBUS_DECRYPT_FAILED',
    );
  });

  it('refuses a salt that is not hex, naming the setting', () => {
    assert.throws(() => new AesTextEncryptor('k', 'not-hex'), /encrypt\.salt must be .*hex/);
    assert.throws(() => new AesTextEncryptor('k', ''), /encrypt\.salt/);
  });
});

describe('RSA keys (RsaSecretEncryptor)', () => {
  it('round-trips with every algorithm, mode and salt, and a mismatch never decrypts', () => {
    const keys = rsaPair();
    const variants = [
      { algorithm: 'DEFAULT', strong: false, salt: 'deadbeef' },
      { algorithm: 'DEFAULT', strong: true, salt: 'deadbeef' },
      { algorithm: 'OAEP', strong: false, salt: 'somesalt' },
      { algorithm: 'OAEP', strong: true, salt: 'beefea' },
    ] as const;
    const cipherTexts = variants.map((options) => {
      const encryptor = new RsaSecretEncryptor(keys, options);
      const cipher = encryptor.encrypt('encryptor ✓');
      assert.match(cipher, /^[A-Za-z0-9+/]+=*$/);
      assert.equal(encryptor.decrypt(cipher), 'encryptor ✓');
      return cipher;
    });
    variants.forEach((options, i) => {
      const encryptor = new RsaSecretEncryptor(keys, options);
      cipherTexts.forEach((cipher, j) => {
        if (i !== j) assert.throws(() => encryptor.decrypt(cipher), ConfbusError, `${i} decrypting ${j}`);
      });
    });
    assert.throws(() => new RsaSecretEncryptor(rsaPair(1)).decrypt(cipherTexts[0] ?? ''), ConfbusError);
  });

  it('reads a text salt as its UTF-8 bytes, and a hex salt as hex (Spring)', () => {
    const keys = rsaPair();
    const text = new RsaSecretEncryptor(keys, { algorithm: 'DEFAULT', strong: false, salt: 'somesalt' });
    const hex = new RsaSecretEncryptor(keys, {
      algorithm: 'DEFAULT',
      strong: false,
      salt: Buffer.from('somesalt').toString('hex'),
    });
    assert.equal(hex.decrypt(text.encrypt('x')), 'x');
  });

  it('encrypts but never decrypts with a public key alone', () => {
    const keys = rsaPair();
    const publicOnly = new RsaSecretEncryptor({ publicKey: keys.publicKey });
    assert.equal(publicOnly.canDecrypt, false);
    const cipher = publicOnly.encrypt('hello');
    assert.equal(new RsaSecretEncryptor(keys).decrypt(cipher), 'hello');
    assert.equal(
      code(() => publicOnly.decrypt(cipher)),
      'CONFBUS_DECRYPT_NOT_SUPPORTED',
    );
  });

  it('answers every mangled cipher text with CONFBUS_DECRYPT_FAILED', () => {
    const encryptor = new RsaSecretEncryptor(rsaPair());
    const cipher = encryptor.encrypt('hello');
    const raw = Buffer.from(cipher, 'base64');
    const flipped = Buffer.from(raw);
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    for (const bad of [
      '',
      'not base64!',
      cipher.slice(0, 40),
      flipped.toString('base64'),
      'AAAA',
      `${cipher} `,
    ]) {
      assert.equal(
        code(() => encryptor.decrypt(bad)),
        'CONFBUS_DECRYPT_FAILED',
        bad.slice(0, 20),
      );
    }
  });

  it("writes the public key as Spring's ssh-rsa line", () => {
    const keys = rsaPair();
    const line = sshRsaPublicKey(keys.publicKey);
    const [kind, body, id] = line.split(' ');
    assert.equal(kind, 'ssh-rsa');
    assert.equal(id, 'application');
    const bytes = Buffer.from(body ?? '', 'base64');
    const fields: Buffer[] = [];
    for (let at = 0; at < bytes.length;) {
      const length = bytes.readUInt32BE(at);
      fields.push(bytes.subarray(at + 4, at + 4 + length));
      at += 4 + length;
    }
    const jwk = keys.publicKey.export({ format: 'jwk' });
    assert.equal(fields[0]?.toString(), 'ssh-rsa');
    assert.deepEqual(fields[1], Buffer.from(jwk.e ?? '', 'base64url'));
    // The modulus has its top bit set: Java's BigInteger writes a leading zero byte.
    assert.deepEqual(fields[2], Buffer.concat([Buffer.alloc(1), Buffer.from(jwk.n ?? '', 'base64url')]));
  });
});

describe('choosing the key from the settings (EncryptorFactory)', () => {
  it('uses a PEM RSA private key in encrypt.key as RSA, DEFAULT/CBC/deadbeef whatever encrypt.rsa.* say', async () => {
    const keys = rsaPair();
    const pem = keys.privateKey?.export({ format: 'pem', type: 'pkcs1' }).toString() ?? '';
    const locator = await createEncryptorLocator(
      settings({ key: pem.replace(/\n/g, '\r\n'), rsa: { algorithm: 'OAEP', strong: true, salt: 'cafe' } }),
      undefined,
    );
    assert.equal(locator?.description, 'RSA key (PEM in encrypt.key)');
    const cipher = encryptText(locator, DEFAULT_SCOPE, 'hello');
    assert.equal(new RsaSecretEncryptor(keys).decrypt(cipher), 'hello');
    assert.equal(parseRsaPrivateKeyPem(pem).privateKey?.asymmetricKeyType, 'rsa');
  });

  it('refuses a public key or a broken PEM, and has no locator without a key', async () => {
    await assert.rejects(
      createEncryptorLocator(settings({ key: 'ssh-rsa AAAAB3Nza x' }), undefined),
      /public key/,
    );
    await assert.rejects(
      createEncryptorLocator(
        settings({ key: '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----' }),
        undefined,
      ),
      /cannot be read/,
    );
    assert.equal(await createEncryptorLocator(settings({}), undefined), undefined);
    assert.equal(
      code(() => encryptText(undefined, DEFAULT_SCOPE, 'x')),
      'CONFBUS_ENCRYPT_NO_KEY',
    );
  });

  it('refuses a text of many BEGIN lines and no END in one pass (a lazy regex retried from each BEGIN)', async () => {
    // 300,000 BEGIN lines and no END: retried from each BEGIN, the old pattern took minutes here (quadratic).
    // Parsed in a worker so that a hang is a failure the timer can report, not a test that never ends.
    const source = new URL('../src/encryption/rsa-keys.ts', import.meta.url).href;
    const worker = new Worker(
      `import { parentPort } from 'node:worker_threads';
       const { tsImport } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});
       const { parseRsaPrivateKeyPem } = await tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)});
       try { parseRsaPrivateKeyPem('-----BEGIN RSA PRIVATE KEY-----\\n'.repeat(300_000)); parentPort.postMessage('parsed'); }
       catch (error) { parentPort.postMessage(error.code); }`,
      { eval: true },
    );
    // The timer is cancelled once the worker answers: left running, it held the process for its 30 s.
    const timer = new AbortController();
    try {
      const outcome = await Promise.race([
        once(worker, 'message').then(([message]) => message as string),
        delay(30_000, 'still parsing after 30 s', { signal: timer.signal }),
      ]);
      assert.equal(outcome, 'CONFBUS_ENCRYPT_BAD_KEY');
    } finally {
      timer.abort();
      await worker.terminate();
    }
  });

  it("decrypts the {key:mytestkey} value of Spring's encrypt-repo with its server.jks", async () => {
    const bytes = await readFile(new URL('./fixtures/spring-server.jks', import.meta.url));
    const keyStore = {
      location: 'server.jks',
      password: 'letmein',
      alias: 'mytestkey',
      secret: 'changeme',
      type: 'jks',
    };
    const locator = await createEncryptorLocator(settings({ keyStore }), bytes);
    const cipher =
      '{key:mytestkey}AQCohs2V6P8/UiG6a4TF/CZTCBdt5Q7wvNvcyf6vs2ByK2ZYSM77Nu0sOAduxUpMbVwJ/syecmkIXR+hU3EfT2uqPieA7/v5n33ppqIQ9JAt5JggdYIGe+wX25zU3DTXOOJdAAMzNX+zjOVyCh0QtmJf/kFslg6NqQq0E+kSg3zBi3AnkKj5BLnLIxkjxzKA4mnDXpSm7ekLZZP2iQSYSW/82AC7UOLLzTqwInMI3tJLW1e9Ne+LDsjmSxA+nkK9zhidtXPwb/SPaNF74cJCEf9mgzzKYwJlwqChLzJt8UQ1jHwRc8B6FufmizUHSp27nxdtVB4HMqh3nNsMCy137Ces58T09ZS/y/cYNRxcFbp78MHFHUqAgbC0B/p5t6h4XbQ=';
    assert.equal(decryptText(locator, DEFAULT_SCOPE, cipher), 'foo');
    // Its other key, "mykey", has the store password as its own (KeyStoreTextEncryptorLocatorTests).
    const other = encryptText(locator, DEFAULT_SCOPE, '{key:MyKey}{secret:letmein}bar');
    assert.match(other, /^\{key:MyKey\}\{secret:letmein\}[A-Za-z0-9+/]+=*$/);
    assert.equal(decryptText(locator, DEFAULT_SCOPE, other), 'bar');
    assert.equal(
      code(() => decryptText(locator, DEFAULT_SCOPE, `{key:mykey}${other.slice(27)}`)),
      'CONFBUS_ENCRYPT_BAD_KEY',
    );
    assert.equal(
      code(() => encryptText(locator, DEFAULT_SCOPE, '{key:nope}x')),
      'CONFBUS_ENCRYPT_KEY_NOT_FOUND',
    );
    await assert.rejects(
      createEncryptorLocator(settings({ keyStore: { ...keyStore, password: 'wrong' } }), bytes),
      /Cannot open the key store server\.jks: wrong encrypt\.key-store\.password/,
    );
    await assert.rejects(
      createEncryptorLocator(settings({ keyStore: { ...keyStore, secret: 'wrong' } }), bytes),
      /Cannot recover key 'mytestkey'/,
    );
  });
});
