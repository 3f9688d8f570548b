/**
 * The bus over Kafka's SASL_SSL, as a hosted Kafka asks for it, with confbus and Spring Boot on one topic: a
 * private KRaft broker whose SASL_SSL listener presents a certificate from a test CA (openssl) and knows PLAIN
 * users (its JAAS line) and SCRAM users (created when its log dir is formatted). On it a `confbus server`
 * (SCRAM-SHA-256), a `confbus sample-client` (PLAIN) and the Spring app on Spring Cloud Bus's Kafka binder
 * (SCRAM-SHA-512), every one configured with Spring's keys and its password in the environment, as in
 * production. A push + /monitor refreshes the Spring app and the server lists its ack; busrefresh on either kind
 * refreshes the other, which acks. A server with a wrong password says why it is not on the bus and never logs the password.
 *
 * One broker for the file (a JVM start is the slow part). Every member uses its SASL_SSL listener; the others (the
 * testkit's plain one, SSL, SASL_PLAINTEXT: packages/bus/test/kafka-security.test.ts uses them) go unused here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BusNode, busNodeFromSettings } from '@confbus/bus';
import {
  type AckBusEvent,
  type RefreshBusEvent,
  busSettingSpecs,
  readBusSettings,
  resolveSettings,
  silentLogger,
} from '@confbus/core';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { reserveFreePort } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestKafkaBroker, startKafkaBroker } from '@confbus/testkit/kafka-broker';
import {
  SPRING_CLIENT_KAFKA_GOALS,
  type SpringProcess,
  buildSpringPeer,
  startSpringApp,
} from '@confbus/testkit/spring-peers';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { TlsAuthority } from '@confbus/testkit/tls-authority';
import { postPushWebhook } from '../support/bus-fleet.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';
import {
  type Group,
  getJsonOk,
  post,
  skipWithoutJava,
  springConfigImport,
  untilSpringAcks,
} from './support/spring-fleet.js';

const dev = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;
const USERS = [
  { name: 'confbus', password: 'confbus-kafka-pw-7' },
  { name: 'spring', password: 'spring-kafka-pw-9' },
];
const WRONG_PASSWORD = 'not-the-kafka-password-3';

type Mechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

/** Kafka's JAAS line for `user`, with the login module the mechanism needs. */
function jaas(mechanism: Mechanism, user: string, password: string): string {
  const module = mechanism === 'PLAIN' ? 'plain.PlainLoginModule' : 'scram.ScramLoginModule';
  return `org.apache.kafka.common.security.${module} required username="${user}" password="${password}";`;
}

interface RefreshEvent {
  commit: string;
  acks: { service: string }[];
}

describe('Spring Boot and confbus on one Kafka bus over SASL_SSL', { skip: skipWithoutJava() }, () => {
  let dir: TempDir;
  let ca: TlsAuthority;
  let broker: TestKafkaBroker;
  let bootstrap: string;
  let remote: GitRemote;
  let server: RunningServer;
  let client: RunningClient;
  let spring: SpringProcess;
  let springId: string;
  /** A member of the test on the same listener: sees every ack, and finds the Spring app ready. */
  let observer: BusNode;
  const acks: AckBusEvent[] = [];
  const refreshes: RefreshBusEvent[] = [];

  /** Spring Boot's keys for SASL_SSL, the same for confbus and Spring; the secret part goes in `env`. */
  const sasl = (mechanism: Mechanism, user: string, password: string) => ({
    settings: {
      'spring.kafka.bootstrap-servers': bootstrap,
      'spring.kafka.security.protocol': 'SASL_SSL',
      'spring.kafka.properties.sasl.mechanism': mechanism,
    },
    env: { SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG: jaas(mechanism, user, password) },
  });
  /** The CA as a PEM trust store: a path for confbus, a resource of type PEM for Spring (Kafka's client). */
  const confbusTrust = () => ({ 'spring.kafka.ssl.trust-store-location': ca.caCert });
  const springTrust = () => ({
    'spring.kafka.ssl.trust-store-location': `file:${ca.caCert}`,
    'spring.kafka.ssl.trust-store-type': 'PEM',
  });

  before(async () => {
    dir = await makeTempDir('confbus-kafka-sasl-');
    ca = await TlsAuthority.create(dir.path);
    const keyStore = await ca.pkcs12(
      await ca.issue('127.0.0.1', { file: 'broker' }),
      'broker.p12',
      'brokerpw',
    );
    const ports = new Set<number>();
    while (ports.size < 3) ports.add(await reserveFreePort());
    const [sslPort, saslSslPort, saslPlaintextPort] = [...ports] as [number, number, number];
    const [jar, started] = await Promise.all([
      buildSpringPeer('spring-client', SPRING_CLIENT_KAFKA_GOALS),
      startKafkaBroker({
        sslPort,
        saslSslPort,
        saslPlaintextPort,
        keyStore,
        keyStorePassword: 'brokerpw',
        users: USERS,
      }),
    ]);
    broker = started;
    bootstrap = `127.0.0.1:${saslSslPort}`;
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': dev('v1') });

    const [confbusUser, springUser] = USERS as [(typeof USERS)[0], (typeof USERS)[0]];
    const serverSasl = sasl('SCRAM-SHA-256', confbusUser.name, confbusUser.password);
    server = await startServer(
      {
        'spring.cloud.config.server.git.uri': remote.url,
        'spring.cloud.bus.enabled': true,
        ...serverSasl.settings,
        ...confbusTrust(),
      },
      { env: serverSasl.env },
    );
    const clientSasl = sasl('PLAIN', confbusUser.name, confbusUser.password);
    const springSasl = sasl('SCRAM-SHA-512', springUser.name, springUser.password);
    [client, spring] = await Promise.all([
      startClient(
        {
          'spring.cloud.config.uri': server.base,
          'spring.cloud.bus.enabled': true,
          'spring.profiles.active': 'dev',
          ...clientSasl.settings,
          ...confbusTrust(),
        },
        { env: clientSasl.env },
      ),
      startSpringApp(
        jar,
        {
          ...springConfigImport(server.base),
          'spring.profiles.active': 'dev',
          ...springSasl.settings,
          ...springTrust(),
        },
        { env: springSasl.env },
      ),
    ]);
    const envId = (
      await getJsonOk<{ property: { value: string } }>(spring.url, '/actuator/env/spring.cloud.bus.id')
    ).property.value;
    // As on the plain listener, Spring's id on the wire carries port 0 (spring-bus-kafka.test.ts).
    springId = `sample:dev:0:${envId.split(':').pop()}`;

    const observerSasl = sasl('PLAIN', confbusUser.name, confbusUser.password);
    const args = Object.entries({
      'spring.cloud.bus.enabled': 'true',
      ...observerSasl.settings,
      ...confbusTrust(),
    }).map(([key, value]) => `--${key}=${value}`);
    observer = busNodeFromSettings(
      readBusSettings(
        resolveSettings(busSettingSpecs, { args, env: observerSasl.env }, { unknownKeys: 'error' }),
      ),
      { role: 'server', busId: 'observer:0:sasl', logger: silentLogger },
    );
    observer.on('ack', (ack) => acks.push(ack));
    observer.on('observed', (event) => refreshes.push(event));
    await observer.start();
    assert.ok(observer.connected, 'the observer joined the bus over SASL_SSL');
    await untilSpringAcks(
      observer,
      acks,
      { id: springId, process: spring.process },
      'the Spring app acking an event over SASL_SSL',
    );
  });

  after(async () => {
    await observer?.close();
    await stopAllNodeProcesses();
    await stopFleet();
    await broker?.remove();
    await remote?.remove();
    await dir?.remove();
  });

  const comment = async (base: string) => (await getJsonOk<Group>(base, '/dynamic')).comment;
  const isClient = (service: string) => service.startsWith(`sample:dev:${new URL(client.base).port}:`);

  it('every member is on the bus over SASL_SSL, and no password is in any confbus log', async () => {
    assert.equal((await server.health()).components.bus?.status, 'UP');
    for (const proc of [server.process, client.process]) {
      const text = proc.lines.join('\n');
      for (const user of USERS) assert.ok(!text.includes(user.password), 'a password in a log');
    }
  });

  it('a push + /monitor refreshes the Spring app; the server lists its ack', async () => {
    const sha = await remote.commit({ 'sample-dev.yml': dev('v2') });
    assert.equal((await postPushWebhook(server.base, ['sample-dev.yml'])).status, 200);
    await waitUntil('the Spring app serving v2', async () => (await comment(spring.url)) === 'v2', 60_000);
    await waitUntil('the confbus client serving v2', async () => (await comment(client.base)) === 'v2');
    await waitUntil('the Spring ack in /actuator/refresh-events', async () =>
      (await getJsonOk<RefreshEvent[]>(server.base, '/actuator/refresh-events')).some(
        (e) => e.commit === sha && e.acks.some((ack) => ack.service === springId),
      ),
    );
  });

  it('busrefresh on the Spring app refreshes the confbus client, which acks it', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v3') });
    const from = refreshes.length;
    assert.equal(await post(spring.url, '/actuator/busrefresh'), 204);
    await waitUntil('the confbus client serving v3', async () => (await comment(client.base)) === 'v3');
    await waitUntil("the confbus client's ack of the Spring refresh", () => {
      const event = refreshes.slice(from).find((e) => e.originService === springId);
      return event !== undefined && acks.some((a) => a.ackId === event.id && isClient(a.originService));
    });
  });

  it('busrefresh on the confbus client refreshes the Spring app, which acks it', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v4') });
    const from = refreshes.length;
    assert.equal((await client.post('/actuator/busrefresh')).status, 204);
    await waitUntil('the Spring app serving v4', async () => (await comment(spring.url)) === 'v4', 60_000);
    await waitUntil("the Spring app's ack of the confbus refresh", () => {
      const event = refreshes.slice(from).find((e) => isClient(e.originService));
      return event !== undefined && acks.some((a) => a.ackId === event.id && a.originService === springId);
    });
  });

  it('a wrong password keeps a server off the bus with the broker’s reason, never the password', async () => {
    const wrong = sasl('SCRAM-SHA-512', 'spring', WRONG_PASSWORD);
    const refused = await startServer(
      {
        'spring.cloud.config.server.git.uri': remote.url,
        'spring.cloud.bus.enabled': true,
        'confbus.bus.reconnect.initial-interval': 200,
        ...wrong.settings,
        ...confbusTrust(),
      },
      { env: wrong.env },
    );
    const warning = await refused.process.waitForLine(/"msg":"bus broker unreachable/, 60_000);
    const { err } = JSON.parse(warning) as { err?: { code?: string; message?: string } };
    assert.equal(err?.code, 'SASL_AUTHENTICATION_FAILED', warning);
    assert.match(String(err?.message), /SASL authentication failed \(broker: .+\)/i, warning);
    const bus = (await refused.health()).components.bus;
    assert.equal(bus?.status, 'DOWN');
    assert.equal(bus?.details?.lastErrorCode, 'SASL_AUTHENTICATION_FAILED');
    assert.equal(bus?.details?.lastError, err?.message);
    assert.ok(!refused.process.lines.join('\n').includes(WRONG_PASSWORD), 'the password was logged');
    await refused.stop();
  });
});
