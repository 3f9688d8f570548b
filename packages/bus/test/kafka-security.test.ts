// The bus over Kafka with TLS and SASL, from Spring's settings, against the real KRaft broker started with SSL,
// SASL_SSL and SASL_PLAINTEXT listeners: PLAIN and SCRAM-SHA-256/512 users, the broker's certificate from a test
// CA; a refresh goes from one node to another on each. Wrong credentials never connect and are never logged; they,
// an untrusted certificate and TLS to a plaintext listener are told apart by the node's last error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BusNode, busNodeFromSettings } from '@confbus/bus';
import { type RefreshBusEvent, busSettingSpecs, readBusSettings, resolveSettings } from '@confbus/core';
import { reserveFreePort } from '@confbus/testkit/confbus-processes';
import { type TestKafkaBroker, kafkaAvailability, startKafkaBroker } from '@confbus/testkit/kafka-broker';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { TlsAuthority } from '@confbus/testkit/tls-authority';
import { waitFor } from '@confbus/testkit/wait-for';
import { captureLogger } from './capture-logger.js';

const kafka = kafkaAvailability();
const PASSWORD = 'alice-secret-pw';

describe('Kafka bus over TLS and SASL', { skip: !kafka.ok && kafka.reason }, () => {
  let dir: TempDir;
  let ca: TlsAuthority;
  let broker: TestKafkaBroker;
  let ports: { ssl: number; saslSsl: number; saslPlain: number };
  const nodes: BusNode[] = [];

  before(async () => {
    dir = await makeTempDir('confbus-kafka-tls-');
    ca = await TlsAuthority.create(dir.path);
    const keyStore = await ca.pkcs12(
      await ca.issue('127.0.0.1', { file: 'broker' }),
      'broker.p12',
      'brokerpw',
    );
    ports = {
      ssl: await reserveFreePort(),
      saslSsl: await reserveFreePort(),
      saslPlain: await reserveFreePort(),
    };
    broker = await startKafkaBroker({
      sslPort: ports.ssl,
      saslSslPort: ports.saslSsl,
      saslPlaintextPort: ports.saslPlain,
      keyStore,
      keyStorePassword: 'brokerpw',
      users: [{ name: 'alice', password: PASSWORD }],
    });
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await broker?.remove();
    await dir?.remove();
  });

  function node(busId: string, settings: Record<string, string>) {
    const log = captureLogger();
    const args = Object.entries({
      'spring.cloud.bus.enabled': 'true',
      'spring.cloud.bus.destination': `secure-${busId.split(':')[0]}`,
      'confbus.bus.reconnect.initial-interval': '200',
      ...settings,
    }).map(([key, value]) => `--${key}=${value}`);
    const bus = readBusSettings(
      resolveSettings(busSettingSpecs, { args, env: {} }, { unknownKeys: 'error' }),
    );
    const member = busNodeFromSettings(bus, { role: 'server', busId, logger: log });
    nodes.push(member);
    return { node: member, log };
  }

  async function exchange(name: string, settings: Record<string, string>): Promise<void> {
    const a = node(`${name}:1:a`, settings);
    const b = node(`${name}:1:b`, settings);
    await Promise.all([a.node.start(), b.node.start()]);
    assert.ok(a.node.connected && b.node.connected, `${name} connected:\n${a.log.text()}`);
    const seen: RefreshBusEvent[] = [];
    b.node.on('observed', (e) => seen.push(e));
    // The first refresh may go out before b's group has its partition: send until one arrives.
    await waitFor(
      `a refresh over ${name}`,
      async () => {
        await a.node.publishRefresh();
        return seen.length > 0;
      },
      { intervalMs: 500 },
    );
  }

  const jaas = (module: string, password = PASSWORD) =>
    `org.apache.kafka.common.security.${module} required username="alice" password="${password}";`;
  const trust = () => ({ 'spring.kafka.ssl.trust-store-location': ca.caCert });

  it('SSL', async () => {
    await exchange('ssl', {
      'spring.kafka.bootstrap-servers': `127.0.0.1:${ports.ssl}`,
      'spring.kafka.security.protocol': 'SSL',
      ...trust(),
    });
  });

  it('SASL_SSL with PLAIN and with SCRAM-SHA-512', async () => {
    const common = {
      'spring.kafka.bootstrap-servers': `127.0.0.1:${ports.saslSsl}`,
      'spring.kafka.security.protocol': 'SASL_SSL',
      ...trust(),
    };
    await exchange('plain', {
      ...common,
      'spring.kafka.properties.sasl.jaas.config': jaas('plain.PlainLoginModule'),
    });
    await exchange('scram512', {
      ...common,
      'spring.kafka.properties.sasl.mechanism': 'SCRAM-SHA-512',
      'spring.kafka.properties.sasl.jaas.config': jaas('scram.ScramLoginModule'),
    });
  });

  it('SASL_PLAINTEXT with SCRAM-SHA-256', async () => {
    await exchange('scram256', {
      'spring.kafka.bootstrap-servers': `127.0.0.1:${ports.saslPlain}`,
      'spring.kafka.security.protocol': 'SASL_PLAINTEXT',
      'spring.kafka.properties.sasl.mechanism': 'SCRAM-SHA-256',
      'spring.kafka.properties.sasl.jaas.config': jaas('scram.ScramLoginModule'),
    });
  });

  it('a wrong password never connects and is never logged', async () => {
    const wrong = 'not-the-password-42';
    const { node: member, log } = node('wrong:1:x', {
      'spring.kafka.bootstrap-servers': `127.0.0.1:${ports.saslSsl}`,
      'spring.kafka.security.protocol': 'SASL_SSL',
      'spring.kafka.properties.sasl.mechanism': 'SCRAM-SHA-256',
      'spring.kafka.properties.sasl.jaas.config': jaas('scram.ScramLoginModule', wrong),
      ...trust(),
    });
    await member.start();
    assert.equal(member.connected, false);
    assert.doesNotMatch(log.text(), new RegExp(wrong));
    // The reason from the bottom of the client's error, for the WARN line and the health details.
    assert.equal(member.lastError?.code, 'SASL_AUTHENTICATION_FAILED', log.text());
    assert.match(member.lastError.message, /: SASL authentication failed \(broker: .+\)$/);
  });

  it('an untrusted broker certificate, and TLS to a plaintext listener, say so', async () => {
    const untrusted = node('untrusted:1:x', {
      'spring.kafka.bootstrap-servers': `127.0.0.1:${ports.ssl}`,
      'spring.kafka.security.protocol': 'SSL',
    });
    const mismatched = node('mismatched:1:x', {
      'spring.kafka.bootstrap-servers': broker.bootstrap,
      'spring.kafka.security.protocol': 'SSL',
      ...trust(),
    });
    await Promise.all([untrusted.node.start(), mismatched.node.start()]);
    assert.equal(untrusted.node.lastError?.code, 'SELF_SIGNED_CERT_IN_CHAIN', untrusted.log.text());
    assert.match(untrusted.node.lastError.message, /failed: self-signed certificate in certificate chain$/);
    assert.equal(mismatched.node.lastError?.code, 'ECONNRESET', mismatched.log.text());
    assert.match(
      mismatched.node.lastError.message,
      /TLS handshake failed\. Please verify the broker supports TLS/,
    );
  });

  it('refuses SASL without a JAAS line, and an unknown protocol or mechanism, naming the setting', () => {
    const read = (settings: Record<string, string>) =>
      readBusSettings(
        resolveSettings(
          busSettingSpecs,
          {
            args: Object.entries({
              'spring.cloud.bus.enabled': 'true',
              'spring.kafka.bootstrap-servers': 'k:9092',
              ...settings,
            }).map(([k, v]) => `--${k}=${v}`),
            env: {},
          },
          { unknownKeys: 'error' },
        ),
      );
    assert.throws(
      () => read({ 'spring.kafka.security.protocol': 'SASL_SSL' }),
      /SASL needs spring\.kafka\.properties\.sasl\.jaas\.config/,
    );
    assert.throws(() => read({ 'spring.kafka.security.protocol': 'TLS' }), /must be one of PLAINTEXT, SSL/);
    assert.throws(
      () =>
        read({
          'spring.kafka.security.protocol': 'SASL_PLAINTEXT',
          'spring.kafka.properties.sasl.mechanism': 'GSSAPI',
          'spring.kafka.properties.sasl.jaas.config': jaas('plain.PlainLoginModule'),
        }),
      /sasl\.mechanism must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512/,
    );
  });
});
