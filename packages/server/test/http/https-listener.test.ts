// HTTPS on the server with Spring Boot's server.ssl.* keys, over a real loopback port: PEM files, PKCS12 and JKS
// key stores, mutual TLS (need / want), certificate reload (a renewed certificate is served to new connections,
// a broken one is refused and the old one kept), and start errors that name the setting.
import assert from 'node:assert/strict';
import { copyFile, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { keytoolAvailable } from '@confbus/testkit/key-stores';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type IssuedCertificate, TlsAuthority } from '@confbus/testkit/tls-authority';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

let dir: TempDir;
let ca: TlsAuthority;
let serverCert: IssuedCertificate;
let clientCert: IssuedCertificate;
const keytool = keytoolAvailable();

before(async () => {
  dir = await makeTempDir('confbus-https-');
  ca = await TlsAuthority.create(dir.path);
  serverCert = await ca.issue('127.0.0.1', { file: 'server' });
  clientCert = await ca.issue('orders-service', { client: true });
});
after(() => dir.remove());

interface Answer {
  status: number;
  body: string;
  authorized: boolean;
}

/** One GET on a fresh connection; `client`: present this certificate. */
function get(base: string, path: string, client?: IssuedCertificate): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        agent: false,
        ca: readFileSync(ca.caCert),
        ...(client ? { key: readFileSync(client.key), cert: readFileSync(client.cert) } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, authorized: true }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The fingerprint of the certificate the server presents to a new connection. */
function servedFingerprint(base: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), ca: readFileSync(ca.caCert) }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

async function withServer(settings: Record<string, string>, body: (server: TestServer) => Promise<void>) {
  const server = await startGitTestServer({ 'confbus.server.sample-repository': 'true', ...settings });
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

const pem = () => ({
  'server.ssl.certificate': serverCert.cert,
  'server.ssl.certificate-private-key': serverCert.key,
});

describe('HTTPS listener', () => {
  it('serves HTTPS with a PEM certificate and key, and says https:// in its address', async () => {
    await withServer(pem(), async ({ base }) => {
      assert.match(base, /^https:\/\/127\.0\.0\.1:\d+$/);
      const answer = await get(base, '/foo/development');
      assert.equal(answer.status, 200);
      assert.equal((JSON.parse(answer.body) as { name: string }).name, 'foo');
      assert.equal(await servedFingerprint(base), serverCert.fingerprint);
      // Plain HTTP on the same port gets no configuration.
      await assert.rejects(fetch(base.replace('https:', 'http:') + '/foo/development'));
    });
  });

  it('serves the key of a PKCS12 key store', async () => {
    const store = await ca.pkcs12(serverCert, 'server.p12', 'changeit');
    await withServer(
      { 'server.ssl.key-store': store, 'server.ssl.key-store-password': 'changeit' },
      async ({ base }) => {
        assert.equal((await get(base, '/foo/default')).status, 200);
        assert.equal(await servedFingerprint(base), serverCert.fingerprint);
      },
    );
  });

  it(
    'serves the entry key-alias names from a JKS key store',
    { skip: !keytool.ok && keytool.reason },
    async () => {
      const store = await ca.jks(serverCert, 'server.jks', 'storepass', 'tomcat');
      await withServer(
        {
          'server.ssl.key-store': `file:${store}`,
          'server.ssl.key-store-type': 'JKS',
          'server.ssl.key-store-password': 'storepass',
          'server.ssl.key-alias': 'TOMCAT',
        },
        async ({ base }) => assert.equal(await servedFingerprint(base), serverCert.fingerprint),
      );
    },
  );

  it('client-auth=need: no handshake without a trusted client certificate', async () => {
    const other = await TlsAuthority.create(dir.path, 'other CA');
    const foreign = await other.issue('intruder', { client: true });
    await withServer(
      { ...pem(), 'server.ssl.client-auth': 'need', 'server.ssl.trust-certificate': ca.caCert },
      async ({ base }) => {
        assert.equal((await get(base, '/foo/default', clientCert)).status, 200);
        await assert.rejects(get(base, '/foo/default'));
        await assert.rejects(get(base, '/foo/default', foreign));
      },
    );
  });

  it('client-auth=want: a request without a certificate is still served', async () => {
    const trust = keytool.ok ? await ca.trustStore('trust.p12', 'trustpass') : ca.caCert;
    await withServer(
      {
        ...pem(),
        'server.ssl.client-auth': 'want',
        'server.ssl.trust-store': trust,
        'server.ssl.trust-store-password': 'trustpass',
      },
      async ({ base }) => {
        assert.equal((await get(base, '/foo/default')).status, 200);
        assert.equal((await get(base, '/foo/default', clientCert)).status, 200);
      },
    );
  });

  it('reloads renewed certificate files, and keeps the old ones when the new ones are broken', async () => {
    const live = await makeTempDir('confbus-https-live-');
    try {
      const cert = `${live.path}/tls.crt`;
      const key = `${live.path}/tls.key`;
      await copyFile(serverCert.cert, cert);
      await copyFile(serverCert.key, key);
      await withServer(
        {
          'server.ssl.certificate': cert,
          'server.ssl.certificate-private-key': key,
          'confbus.server.ssl.reload-quiet-period': '100',
        },
        async ({ base, logs }) => {
          assert.equal(await servedFingerprint(base), serverCert.fingerprint);
          const renewed = await ca.issue('127.0.0.1', { file: 'renewed' });
          await copyFile(renewed.key, key);
          await copyFile(renewed.cert, cert);
          await waitFor(
            'the renewed certificate to be served',
            async () => (await servedFingerprint(base)) === renewed.fingerprint,
          );
          // A certificate that does not match the key: refused, the renewed one stays.
          const mismatched = await ca.issue('127.0.0.1', { file: 'mismatched' });
          await copyFile(mismatched.cert, cert);
          await waitFor('the failed reload to be logged', () =>
            logs.some((line) => /reload failed/.test(String(line.msg))),
          );
          assert.equal(await servedFingerprint(base), renewed.fingerprint);
          assert.equal((await get(base, '/foo/default')).status, 200);
          // Half-written file: also refused.
          await writeFile(cert, '-----BEGIN CERTIFICATE-----\nMIIB');
          await waitFor(
            'the second failed reload to be logged',
            () => logs.filter((line) => /reload failed/.test(String(line.msg))).length >= 2,
          );
          assert.equal(await servedFingerprint(base), renewed.fingerprint);
          const text = JSON.stringify(logs);
          assert.doesNotMatch(text, /PRIVATE KEY/);
        },
      );
    } finally {
      await live.remove();
    }
  });
});

describe('HTTPS settings errors', () => {
  const startFails = async (settings: Record<string, string>, message: RegExp) =>
    assert.rejects(startGitTestServer({ 'confbus.server.sample-repository': 'true', ...settings }), message);

  it('names the setting of a missing file, a wrong password, a missing companion', async () => {
    await startFails(
      { 'server.ssl.key-store': `${dir.path}/nope.p12`, 'server.ssl.key-store-password': 'x' },
      /server\.ssl\.key-store: cannot read .*nope\.p12: ENOENT/,
    );
    const store = await ca.pkcs12(serverCert, 'wrong.p12', 'right');
    await startFails(
      { 'server.ssl.key-store': store, 'server.ssl.key-store-password': 'wrong' },
      /server\.ssl\.key-store: cannot open/,
    );
    await startFails({ 'server.ssl.certificate': serverCert.cert }, /one is missing/);
    await startFails(
      { 'server.ssl.enabled': 'true' },
      /server\.ssl\.enabled=true needs server\.ssl\.key-store/,
    );
    await startFails(
      { ...pem(), 'server.ssl.client-auth': 'need' },
      /needs server\.ssl\.trust-store or server\.ssl\.trust-certificate/,
    );
    await startFails({ ...pem(), 'server.ssl.client-auth': 'maybe' }, /must be none, want or need/);
    await startFails({ ...pem(), 'server.ssl.enabled-protocols': 'SSLv3' }, /'SSLv3' is not a TLS version/);
    await startFails({ ...pem(), 'server.ssl.ciphers': 'TLS_RSA_WITH_RC4_128_MD5' }, /is not a cipher suite/);
    await startFails({ ...pem(), 'server.ssl.bundle': 'web' }, /server\.ssl\.bundle/);
  });

  it('server.ssl.enabled=false serves plain HTTP despite a key store', async () => {
    await withServer({ ...pem(), 'server.ssl.enabled': 'false' }, async ({ base }) => {
      assert.match(base, /^http:\/\//);
    });
  });
});
