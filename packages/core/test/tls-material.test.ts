// TLS key material from the stores users have: PKCS12 made by openssl (with its chain) and by keytool (several
// entries: the alias chooses), JKS, PEM files (an encrypted key too), trust stores; errors name the setting.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { keytoolAvailable } from '@confbus/testkit/key-stores';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type IssuedCertificate, TlsAuthority } from '@confbus/testkit/tls-authority';
import { loadTlsMaterial } from '../src/internal.js';

const exec = promisify(execFile);
const keytool = keytoolAvailable();
let dir: TempDir;
let ca: TlsAuthority;
let leaf: IssuedCertificate;
let io: { read: (path: string) => Promise<Uint8Array>; cwd: string };

before(async () => {
  dir = await makeTempDir('confbus-tls-material-');
  ca = await TlsAuthority.create(dir.path);
  leaf = await ca.issue('127.0.0.1', { file: 'leaf' });
  io = { read: readFile, cwd: dir.path };
});
after(() => dir.remove());

const subjects = (chain: string | undefined) =>
  (chain?.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map(
    (pem) => new X509Certificate(pem).subject,
  );

describe('loadTlsMaterial', () => {
  it('reads a PKCS12 key store with its chain, by a relative path', async () => {
    await ca.pkcs12(leaf, 'chain.p12', 'storepw');
    const material = await loadTlsMaterial(
      { keyStore: { location: 'chain.p12', setting: 'x.key-store', password: 'storepw' } },
      io,
    );
    assert.deepEqual(subjects(material.cert), ['CN=127.0.0.1', 'CN=confbus test CA']);
    assert.match(material.key ?? '', /^-----BEGIN PRIVATE KEY-----/);
    assert.deepEqual(material.files, [`${dir.path}/chain.p12`]);
  });

  it(
    'picks the alias among several keys, and asks for one when none is set',
    { skip: !keytool.ok && keytool.reason },
    async () => {
      const store = await ca.jks(leaf, 'two.jks', 'storepw', 'first');
      const other = await ca.issue('other', { file: 'other' });
      const p12 = await ca.pkcs12(other, 'other.p12', 'storepw', 'second');
      await exec('keytool', [
        '-importkeystore',
        '-srckeystore',
        p12,
        '-srcstoretype',
        'PKCS12',
        '-srcstorepass',
        'storepw',
        '-destkeystore',
        store,
        '-deststoretype',
        'JKS',
        '-deststorepass',
        'storepw',
        '-noprompt',
      ]);
      const keyStore = {
        location: store,
        setting: 's.key-store',
        aliasSetting: 's.key-alias',
        type: 'JKS',
        password: 'storepw',
      };
      const chosen = await loadTlsMaterial({ keyStore: { ...keyStore, alias: 'SECOND' } }, io);
      assert.equal(subjects(chosen.cert)[0], 'CN=other');
      await assert.rejects(
        loadTlsMaterial({ keyStore }, io),
        /s\.key-store: .*several key entries \(.*\): set s\.key-alias/,
      );
      await assert.rejects(
        loadTlsMaterial({ keyStore: { ...keyStore, alias: 'third' } }, io),
        /s\.key-alias: no key entry 'third'/,
      );
    },
  );

  it('reads trust stores (keytool PKCS12, PEM) and PEM identities with an encrypted key', async () => {
    const encrypted = `${dir.path}/leaf-encrypted.key`;
    await exec('openssl', ['pkcs8', '-topk8', '-in', leaf.key, '-out', encrypted, '-passout', 'pass:secret']);
    const sources = {
      certificate: { location: leaf.cert, setting: 'c' },
      privateKey: { location: encrypted, setting: 'k', password: 'secret' },
      trustCertificate: { location: `file:${ca.caCert}`, setting: 't' },
      ...(keytool.ok
        ? {
            trustStore: {
              location: await ca.trustStore('trust.p12', 'trustpw'),
              setting: 'ts',
              password: 'trustpw',
            },
          }
        : {}),
    };
    const material = await loadTlsMaterial(sources, io);
    assert.match(material.key ?? '', /BEGIN PRIVATE KEY/);
    assert.equal(material.ca?.length, keytool.ok ? 2 : 1);
    for (const pem of material.ca ?? []) assert.equal(new X509Certificate(pem).subject, 'CN=confbus test CA');
    await assert.rejects(
      loadTlsMaterial({ ...sources, privateKey: { location: encrypted, setting: 'k' } }, io),
      /k: cannot read the private key .*is its password set/,
    );
  });

  it('names the setting for a wrong password, a missing password, an unknown type, a missing file', async () => {
    const store = await ca.pkcs12(leaf, 'pw.p12', 'right');
    const source = { location: store, setting: 'a.key-store' };
    await assert.rejects(
      loadTlsMaterial({ keyStore: { ...source, password: 'wrong' } }, io),
      /a\.key-store: cannot open/,
    );
    await assert.rejects(
      loadTlsMaterial({ keyStore: source }, io),
      /a\.key-store: .*password setting is required/,
    );
    await assert.rejects(
      loadTlsMaterial({ keyStore: { ...source, password: 'right', type: 'JCEKS' } }, io),
      /store type 'JCEKS' is not supported/,
    );
    await assert.rejects(
      loadTlsMaterial({ trustCertificate: { location: 'classpath:ca.pem', setting: 'b' } }, io),
      /b: 'classpath:ca\.pem': there is no class path here/,
    );
    await assert.rejects(
      loadTlsMaterial({ trustCertificate: { location: 'gone.pem', setting: 'b' } }, io),
      /b: cannot read .*gone\.pem: ENOENT/,
    );
  });
});
