// The confbus client fetching from a confbus server over HTTPS (its CA given as a PEM trust store), over mutual
// TLS (client certificate from a PKCS12 key store), and from the second of several https:// URIs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { type ConfigServer, createConfigServer, resolveServerSettings } from '@confbus/server';
import { reserveFreePort } from '@confbus/testkit/confbus-processes';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type IssuedCertificate, TlsAuthority } from '@confbus/testkit/tls-authority';
import pino from 'pino';

let dir: TempDir;
let ca: TlsAuthority;
let serverCert: IssuedCertificate;
let clientStore: string;
const servers: ConfigServer[] = [];

before(async () => {
  dir = await makeTempDir('confbus-https-fleet-');
  ca = await TlsAuthority.create(dir.path);
  serverCert = await ca.issue('localhost', { file: 'server' });
  clientStore = await ca.pkcs12(await ca.issue('orders', { client: true }), 'client.p12', 'clientpw');
});
after(async () => {
  for (const server of servers.splice(0)) await server.close();
  await dir.remove();
});

async function startHttpsServer(settings: Record<string, string>): Promise<string> {
  const args = Object.entries({
    'server.port': '0',
    'server.address': '127.0.0.1',
    'confbus.server.sample-repository': 'true',
    'spring.cloud.config.server.git.basedir': `${dir.path}/mirror-${servers.length}`,
    'server.ssl.certificate': serverCert.cert,
    'server.ssl.certificate-private-key': serverCert.key,
    ...settings,
  }).map(([key, value]) => `--${key}=${value}`);
  const server = await createConfigServer({
    settings: resolveServerSettings({ args, env: {} }),
    logger: pino({ level: 'silent' }),
    cwd: dir.path,
  });
  servers.push(server);
  // The certificate names localhost: clients must check the name, so they use it rather than 127.0.0.1.
  return (await server.listen()).replace('127.0.0.1', 'localhost');
}

async function fetchWith(settings: Record<string, string>): Promise<ConfigClient> {
  const args = Object.entries({
    'spring.application.name': 'sample',
    'spring.profiles.active': 'dev',
    'spring.cloud.config.fail-fast': 'true',
    'spring.cloud.config.retry.max-attempts': '1',
    'confbus.client.poll.interval': '0',
    'logging.level.root': 'error',
    ...settings,
  }).map(([key, value]) => `--${key}=${value}`);
  return ConfigClient.start({ args, env: {}, cwd: dir.path });
}

describe('confbus client over HTTPS', () => {
  it('trusts the server through a PEM trust store, and not without it', async () => {
    const base = await startHttpsServer({});
    const client = await fetchWith({
      'spring.cloud.config.uri': base,
      'spring.cloud.config.tls.enabled': 'true',
      'spring.cloud.config.tls.trust-store': ca.caCert,
    });
    assert.equal(client.getString('group.comment'), 'development settings for sample');
    assert.equal(client.status.source, 'server');
    await client.close();
    await assert.rejects(
      fetchWith({ 'spring.cloud.config.uri': base }),
      /self-signed certificate in certificate chain|unable to verify/,
    );
  });

  it('presents its certificate from a PKCS12 key store to a server that needs one (mutual TLS)', async () => {
    const base = await startHttpsServer({
      'server.ssl.client-auth': 'need',
      'server.ssl.trust-certificate': ca.caCert,
    });
    const tls = {
      'spring.cloud.config.uri': base,
      'spring.cloud.config.tls.enabled': 'true',
      'spring.cloud.config.tls.trust-store': ca.caCert,
    };
    const client = await fetchWith({
      ...tls,
      'spring.cloud.config.tls.key-store': clientStore,
      'spring.cloud.config.tls.key-store-password': 'clientpw',
    });
    assert.equal(client.getString('group.comment'), 'development settings for sample');
    await client.close();
    await assert.rejects(fetchWith(tls), /CONFBUS_FAIL_FAST|socket hang up|certificate required|ECONNRESET/);
  });

  it('falls over to the next https:// URI', async () => {
    const base = await startHttpsServer({});
    const down = `https://localhost:${await reserveFreePort()}`;
    const client = await fetchWith({
      'spring.cloud.config.uri': `${down},${base}`,
      'spring.cloud.config.tls.enabled': 'true',
      'spring.cloud.config.tls.trust-store': ca.caCert,
    });
    assert.equal(client.getString('group.comment'), 'development settings for sample');
    await client.close();
  });

  it('names the setting when a store cannot be opened', async () => {
    await assert.rejects(
      fetchWith({
        'spring.cloud.config.uri': 'https://localhost:1',
        'spring.cloud.config.tls.enabled': 'true',
        'spring.cloud.config.tls.key-store': clientStore,
        'spring.cloud.config.tls.key-store-password': 'wrong',
      }),
      /spring\.cloud\.config\.tls\.key-store: cannot open/,
    );
  });
});
