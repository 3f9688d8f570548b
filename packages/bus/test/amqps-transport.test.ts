// The bus over TLS to a RabbitMQ node of the test's own with a TLS listener that requires client certificates:
// nodes built from Spring's settings (amqps:// addresses, spring.rabbitmq.ssl.*) exchange a refresh; a node
// without the CA, or checking a host name the certificate does not carry, never connects; errors name settings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import { busNodeFromSettings } from '@confbus/bus';
import { type RefreshBusEvent, busSettingSpecs, readBusSettings, resolveSettings } from '@confbus/core';
import { reserveFreePort } from '@confbus/testkit/confbus-processes';
import { type PrivateRabbit, startPrivateRabbit } from '@confbus/testkit/private-rabbit';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { TlsAuthority } from '@confbus/testkit/tls-authority';
import { waitFor } from '@confbus/testkit/wait-for';
import { captureLogger } from './capture-logger.js';

let dir: TempDir;
let broker: PrivateRabbit;
let ca: TlsAuthority;
let clientStore: string;
const nodes: BusNode[] = [];

before(async () => {
  dir = await makeTempDir('confbus-amqps-');
  ca = await TlsAuthority.create(dir.path);
  // The certificate names broker.example only: connecting to 127.0.0.1 needs verify-hostname=false.
  const server = await ca.issue('broker.example', { file: 'broker', sans: ['DNS:broker.example'] });
  clientStore = await ca.pkcs12(await ca.issue('bus-node', { client: true }), 'client.p12', 'clientpw');
  broker = await startPrivateRabbit({
    port: await reserveFreePort(),
    distPort: await reserveFreePort(),
    tls: { key: server.key, cert: server.cert, ca: ca.caCert, verifyPeer: true },
  });
});
after(async () => {
  await Promise.all(nodes.map((node) => node.close()));
  await broker?.stop();
  await dir?.remove();
});

function nodeFrom(busId: string, settings: Record<string, string>) {
  const log = captureLogger();
  const args = Object.entries({
    'spring.cloud.bus.enabled': 'true',
    'spring.rabbitmq.addresses': `amqps://guest:guest@127.0.0.1:${broker.port}`,
    'confbus.bus.reconnect.initial-interval': '100',
    ...settings,
  }).map(([key, value]) => `--${key}=${value}`);
  const bus = readBusSettings(resolveSettings(busSettingSpecs, { args, env: {} }, { unknownKeys: 'error' }));
  const node = busNodeFromSettings(bus, { role: 'server', busId, logger: log });
  nodes.push(node);
  return { node, log };
}

const trusted = {
  'spring.rabbitmq.ssl.trust-store': '', // set in the tests (the CA file is made in before())
  'spring.rabbitmq.ssl.key-store-password': 'clientpw',
  'spring.rabbitmq.ssl.verify-hostname': 'false',
};

describe('AMQP bus over TLS', () => {
  it('two nodes from amqps:// settings with a client certificate exchange a refresh', async () => {
    const settings = {
      ...trusted,
      'spring.rabbitmq.ssl.trust-store': ca.caCert,
      'spring.rabbitmq.ssl.key-store': clientStore,
      'spring.rabbitmq.ssl.algorithm': 'TLSv1.3',
    };
    const a = nodeFrom('configserver:8888:a', settings);
    const b = nodeFrom('orders:8080:b', settings);
    await Promise.all([a.node.start(), b.node.start()]);
    assert.ok(a.node.connected && b.node.connected, `connected:\n${a.log.text()}`);
    assert.equal(a.node.transportDetails.tls, true);
    const seen: RefreshBusEvent[] = [];
    b.node.on('observed', (e) => seen.push(e));
    const e = await a.node.publishRefresh();
    await waitFor('the refresh over TLS', () => seen.some((r) => r.id === e.id));
  });

  it('does not connect without the CA, without a client certificate, or checking the host name', async () => {
    const withoutCa = nodeFrom('x:1:ca', {
      'spring.rabbitmq.ssl.key-store': clientStore,
      'spring.rabbitmq.ssl.key-store-password': 'clientpw',
    });
    const withoutKey = nodeFrom('x:1:key', { ...trusted, 'spring.rabbitmq.ssl.trust-store': ca.caCert });
    const hostChecked = nodeFrom('x:1:host', {
      ...trusted,
      'spring.rabbitmq.ssl.trust-store': ca.caCert,
      'spring.rabbitmq.ssl.key-store': clientStore,
      'spring.rabbitmq.ssl.verify-hostname': 'true',
    });
    for (const { node } of [withoutCa, withoutKey, hostChecked]) await node.start();
    assert.ok(![withoutCa, withoutKey, hostChecked].some(({ node }) => node.connected));
    assert.match(
      withoutCa.log.text(),
      /self-signed certificate in certificate chain|unable to get local issuer/,
    );
    assert.match(
      hostChecked.log.text(),
      /Hostname\/IP does not match certificate's altnames|ERR_TLS_CERT_ALTNAME_INVALID/,
    );
    assert.doesNotMatch(withoutCa.log.text() + withoutKey.log.text(), /clientpw/);
  });

  it('a key store that cannot be opened fails the start, naming the setting', async () => {
    const { node } = nodeFrom('x:1:bad', {
      'spring.rabbitmq.ssl.key-store': clientStore,
      'spring.rabbitmq.ssl.key-store-password': 'wrong',
    });
    await assert.rejects(node.start(), /spring\.rabbitmq\.ssl\.key-store: cannot open/);
  });
});

describe('RabbitMQ TLS settings', () => {
  const read = (settings: Record<string, string>) =>
    readBusSettings(
      resolveSettings(
        busSettingSpecs,
        {
          args: Object.entries({ 'spring.cloud.bus.enabled': 'true', ...settings }).map(
            ([k, v]) => `--${k}=${v}`,
          ),
          env: {},
        },
        { unknownKeys: 'error' },
      ),
    ).transport;

  it('amqps:// turns TLS on with port 5671; ssl.enabled does it for host and port', () => {
    const fromUrl = read({ 'spring.rabbitmq.addresses': 'amqps://u:p@mq.example/prod' });
    assert.ok(fromUrl.binder === 'rabbit' && fromUrl.rabbit.tls !== undefined);
    assert.deepEqual(fromUrl.binder === 'rabbit' && fromUrl.rabbit.addresses, ['mq.example:5671']);
    const fromFlag = read({ 'spring.rabbitmq.ssl.enabled': 'true', 'spring.rabbitmq.host': 'mq.example' });
    assert.deepEqual(fromFlag.binder === 'rabbit' && fromFlag.rabbit.addresses, ['mq.example:5671']);
    const plain = read({ 'spring.rabbitmq.addresses': 'mq.example' });
    assert.ok(plain.binder === 'rabbit' && plain.rabbit.tls === undefined);
    assert.deepEqual(plain.binder === 'rabbit' && plain.rabbit.addresses, ['mq.example:5672']);
  });

  it('refuses mixed addresses, amqps:// with ssl.enabled=false, an unknown algorithm', () => {
    assert.throws(
      () => read({ 'spring.rabbitmq.addresses': 'amqps://a,amqp://b' }),
      /mixes amqp:\/\/ and amqps:\/\//,
    );
    assert.throws(
      () => read({ 'spring.rabbitmq.addresses': 'amqps://a', 'spring.rabbitmq.ssl.enabled': 'false' }),
      /spring\.rabbitmq\.ssl\.enabled=false but/,
    );
    assert.throws(
      () => read({ 'spring.rabbitmq.ssl.enabled': 'true', 'spring.rabbitmq.ssl.algorithm': 'SSLv3' }),
      /'SSLv3' is not TLS/,
    );
  });
});
