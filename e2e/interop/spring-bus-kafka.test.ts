/**
 * One bus over Kafka, two kinds of members: a real Spring Boot app on Spring Cloud Bus's Kafka binder
 * (interop/spring-client built with `-Pbus-kafka`: spring-cloud-bus + spring-cloud-starter-stream-kafka) beside
 * a `confbus server` and two `confbus sample-client` processes, all on a real single-node Kafka (KRaft) from the
 * testkit, configured from a real Git remote. A push + /monitor refreshes both kinds, and the server lists the
 * Spring app's ack (refresh events, console fleet); busrefresh on either kind refreshes the other. This is the
 * check that confbus writes and reads Spring's Kafka records as Spring's own binder does.
 *
 * Spring's binder consumes in a group of its own starting at the end of the topic, and says nothing on the bus
 * when it is ready: the test knows it is once the app acks an event sent to it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import type { AckBusEvent, RefreshBusEvent } from '@confbus/core';
import { kafkaBusMember } from '@confbus/testkit/bus-member';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestKafkaBroker, startKafkaBroker } from '@confbus/testkit/kafka-broker';
import { type RawKafkaRecord, type RawKafkaTap, openRawKafkaTap } from '@confbus/testkit/raw-kafka-tap';
import {
  SPRING_CLIENT_KAFKA_GOALS,
  type SpringProcess,
  buildSpringPeer,
  startSpringApp,
} from '@confbus/testkit/spring-peers';
import { kafkaBusSettings, postPushWebhook } from '../support/bus-fleet.js';
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
const real = (comment: string) => `group:\n  profile: real\n  comment: ${comment}\n`;

/** What Spring Cloud Stream 5's Kafka binder puts on a bus record (docs/bus-kafka.md), and confbus too. */
const SPRING_HEADERS = {
  contentType: 'application/json',
  spring_json_header_types: '{"contentType":"java.lang.String"}',
};

interface RefreshEvent {
  commit: string;
  destination: string;
  acks: { service: string; configVersion?: string }[];
}

describe('Spring Boot on the Kafka binder and confbus on one Kafka bus', { skip: skipWithoutJava() }, () => {
  let broker: TestKafkaBroker;
  let remote: GitRemote;
  let server: RunningServer;
  let spring: SpringProcess;
  let springId: string;
  let devClient: RunningClient;
  let realClient: RunningClient;
  /** A bare member of the test: sees every ack on the topic, and sends the events that find Spring ready. */
  let observer: BusNode;
  const acks: AckBusEvent[] = [];
  const refreshes: RefreshBusEvent[] = [];
  /** Every record on the topic, as written. */
  let tap: RawKafkaTap;

  before(async () => {
    const [jar, startedBroker] = await Promise.all([
      buildSpringPeer('spring-client', SPRING_CLIENT_KAFKA_GOALS),
      startKafkaBroker(),
    ]);
    broker = startedBroker;
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': dev('v1'), 'sample-real.yml': real('r1') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      // The binder's own key here, Spring Boot's key for the clients: confbus reads both as Spring does.
      'spring.cloud.bus.enabled': true,
      'spring.cloud.stream.kafka.binder.brokers': broker.bootstrap,
    });
    tap = await openRawKafkaTap(broker.bootstrap);
    const clientSettings = { 'spring.cloud.config.uri': server.base, ...kafkaBusSettings(broker.bootstrap) };
    [spring, devClient, realClient] = await Promise.all([
      startSpringApp(jar, {
        'spring.kafka.bootstrap-servers': broker.bootstrap,
        ...springConfigImport(server.base),
        'spring.profiles.active': 'dev',
      }),
      startClient({ ...clientSettings, 'spring.profiles.active': 'dev' }),
      startClient({ ...clientSettings, 'spring.profiles.active': 'real' }),
    ]);
    // As on RabbitMQ, Spring's id on the wire carries port 0 (see spring-bus.test.ts).
    const envId = (
      await getJsonOk<{ property: { value: string } }>(spring.url, '/actuator/env/spring.cloud.bus.id')
    ).property.value;
    springId = `sample:dev:0:${envId.split(':').pop()}`;

    observer = kafkaBusMember(broker.bootstrap, { busId: 'observer:0:interop' });
    observer.on('ack', (ack) => acks.push(ack));
    observer.on('observed', (event) => refreshes.push(event));
    await observer.start();
    await untilSpringAcks(
      observer,
      acks,
      { id: springId, process: spring.process },
      'the Spring app acking an event over Kafka',
    );
  });

  after(async () => {
    await tap?.close();
    await observer?.close();
    await stopAllNodeProcesses();
    await stopFleet();
    await broker?.remove();
    await remote?.remove();
  });

  const comment = async (base: string) => (await getJsonOk<Group>(base, '/dynamic')).comment;
  /** A confbus client's bus id is `app:profiles:port:random`; its port tells it apart. */
  const isClient = (client: RunningClient, profile: string) => (service: string) =>
    service.startsWith(`sample:${profile}:${new URL(client.base).port}:`);

  it('a push + /monitor refreshes the Spring app and the confbus clients; the server lists the Spring ack', async () => {
    const sha = await remote.commit({ 'sample-dev.yml': dev('v2') });
    const webhook = await postPushWebhook(server.base, ['sample-dev.yml']);
    assert.equal(webhook.status, 200);
    await waitUntil('the Spring app serving v2', async () => (await comment(spring.url)) === 'v2', 60_000);
    await waitUntil(
      'the confbus dev client serving v2',
      async () => (await comment(devClient.base)) === 'v2',
    );
    assert.equal(
      (await getJsonOk<Group>(spring.url, '/static')).comment,
      'v1',
      '@Value in a singleton stays',
    );

    const tracked = await waitUntil('the Spring ack in /actuator/refresh-events', async () => {
      const events = await getJsonOk<RefreshEvent[]>(server.base, '/actuator/refresh-events');
      return events.some((e) => e.commit === sha && e.acks.some((ack) => ack.service === springId));
    })
      .catch(async (error: Error) => {
        const seen = JSON.stringify(await getJsonOk(server.base, '/actuator/refresh-events'));
        throw new Error(`${error.message}; Spring id ${springId}; events ${seen}`);
      })
      .then(async () =>
        (await getJsonOk<RefreshEvent[]>(server.base, '/actuator/refresh-events')).find(
          (e) => e.commit === sha,
        ),
      );
    const services = tracked?.acks.map((ack) => ack.service) ?? [];
    assert.ok(services.some(isClient(devClient, 'dev')), `the confbus client acked too: ${services}`);

    type Fleet = { items: { id: string; kind: string }[] };
    await waitUntil('the Spring app in the console fleet', async () =>
      (await getJsonOk<Fleet>(server.base, '/-/console/api/fleet')).items.some(
        (item) => item.id === springId && item.kind === 'spring',
      ),
    );
  });

  /** The ack services of the first refresh from `origin` seen from `from` on, once there is one. */
  const acksOfRefreshFrom = async (origin: (service: string) => boolean, from: number) => {
    await waitUntil('the refresh on the topic', () =>
      refreshes.slice(from).some((e) => origin(e.originService)),
    );
    const event = refreshes.slice(from).find((e) => origin(e.originService))!;
    return () => acks.filter((ack) => ack.ackId === event.id);
  };

  it('busrefresh on the Spring app refreshes the confbus clients', async () => {
    const sha = await remote.commit({ 'sample-dev.yml': dev('v3'), 'sample-real.yml': real('r3') });
    const from = refreshes.length;
    assert.equal(await post(spring.url, '/actuator/busrefresh'), 204);
    await waitUntil(
      'the confbus dev client serving v3',
      async () => (await comment(devClient.base)) === 'v3',
    );
    await waitUntil(
      'the confbus real client serving r3',
      async () => (await comment(realClient.base)) === 'r3',
    );
    await waitUntil('the Spring app serving v3', async () => (await comment(spring.url)) === 'v3');
    // Both confbus clients acked the Spring app's record with the version they now serve.
    const acksOfSpring = await acksOfRefreshFrom((service) => service === springId, from);
    await waitUntil("both confbus clients acking the Spring app's refresh", () =>
      [isClient(devClient, 'dev'), isClient(realClient, 'real')].every((isIt) =>
        acksOfSpring().some((ack) => isIt(ack.originService) && ack.configVersion === sha),
      ),
    );
  });

  it('busrefresh on a confbus client refreshes the Spring app', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v4') });
    const from = refreshes.length;
    assert.equal((await realClient.post('/actuator/busrefresh')).status, 204);
    await waitUntil('the Spring app serving v4', async () => (await comment(spring.url)) === 'v4', 60_000);
    const acksOfClient = await acksOfRefreshFrom(isClient(realClient, 'real'), from);
    await waitUntil("the Spring app acking the confbus client's refresh", () =>
      acksOfClient().some((ack) => ack.originService === springId),
    );
  });

  it("Spring's binder writes the records confbus writes: no key, the event's JSON, the same two headers", async () => {
    const bodyOf = (record: RawKafkaRecord) =>
      JSON.parse(record.value) as { type?: string; originService?: string };
    const isRealClient = isClient(realClient, 'real');
    const written = (by: (service: string) => boolean, type: string) =>
      tap.records.filter((r) => bodyOf(r).type === type && by(String(bodyOf(r).originService)));
    const kinds = [
      ['the Spring app', (service: string) => service === springId],
      ['a confbus client', isRealClient],
    ] as const;
    const types = ['RefreshRemoteApplicationEvent', 'AckRemoteApplicationEvent'];
    for (const [who, by] of kinds)
      for (const type of types)
        await waitUntil(`a ${type} by ${who} on the topic`, () => written(by, type).length > 0);
    for (const [who, by] of kinds) {
      for (const record of types.flatMap((type) => written(by, type))) {
        assert.equal(record.key, undefined, `${who} writes no key`);
        assert.deepEqual(record.headers, SPRING_HEADERS, `${who}'s headers: ${record.value}`);
      }
    }
  });
});
