/**
 * One bus, two kinds of members: a real Spring Boot app (interop/spring-client, spring-cloud-starter-bus-amqp)
 * beside confbus sample clients, all on one RabbitMQ vhost, configured by one confbus server from a real Git
 * remote. A push + /monitor refreshes both kinds and the Spring app's ack shows in /actuator/refresh-events
 * and, marked as a Spring node, in the console's fleet view; busrefresh on either kind refreshes the other; destinations are honoured both ways.
 *
 * "Was not refreshed" is checked through the bus's order, not time: every node handles its queue in order,
 * so once a node has acked a later event it would already have acked the earlier one had it handled it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost, listVhostQueues } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, type TappedMessage, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { type SpringProcess, buildSpringPeer, startSpringApp } from '@confbus/testkit/spring-peers';
import { busSettings, postPushWebhook } from '../support/bus-fleet.js';
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
  springRabbitSettings,
} from './support/spring-fleet.js';

const dev = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;
const real = (comment: string) => `group:\n  profile: real\n  comment: ${comment}\n`;

describe('Spring Boot and confbus clients on one bus', { skip: skipWithoutJava() }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let server: RunningServer;
  let spring: SpringProcess;
  let springId: string;
  let devClient: RunningClient;
  let realClient: RunningClient;
  let tap: RawBusTap;

  before(async () => {
    const jar = await buildSpringPeer('spring-client');
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': dev('v1'), 'sample-real.yml': real('r1') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...busSettings(vhost.name),
    });
    tap = await openRawBusTap(vhost.amqpUrl);
    const clientSettings = { 'spring.cloud.config.uri': server.base, ...busSettings(vhost.name) };
    [spring, devClient, realClient] = await Promise.all([
      startSpringApp(jar, {
        ...springRabbitSettings(vhost.name),
        ...springConfigImport(server.base),
        'spring.profiles.active': 'dev',
      }),
      startClient({ ...clientSettings, 'spring.profiles.active': 'dev' }),
      startClient({ ...clientSettings, 'spring.profiles.active': 'real' }),
    ]);
    // Spring resolves its bus id before the web server has a port: with server.port=0 the id on the wire is
    // `sample:dev:0:<random>` (its /actuator/env shows the port re-resolved). The random part is the same.
    const envId = (
      await getJsonOk<{ property: { value: string } }>(spring.url, '/actuator/env/spring.cloud.bus.id')
    ).property.value;
    springId = `sample:dev:0:${envId.split(':').pop()}`;
    // The server, two confbus clients and the Spring app each bind a springCloudBus.anonymous.* queue.
    await waitUntil('four bus queues', async () => (await busQueues()).length === 4, 60_000).catch(
      async (error) => {
        throw new Error(
          `${(error as Error).message}; queues: ${(await listVhostQueues(vhost.name)).join(', ')}`,
        );
      },
    );
  });

  after(async () => {
    await tap?.close();
    await stopAllNodeProcesses();
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  const busQueues = async () =>
    (await listVhostQueues(vhost.name)).filter((q) => q.startsWith('springCloudBus.'));
  const comment = async (base: string) => (await getJsonOk<Group>(base, '/dynamic')).comment;
  /** A confbus client's bus id is `app:profiles:port:random`; its port tells it apart. */
  const isClient = (client: RunningClient, profile: string) => (service: string) =>
    service.startsWith(`sample:${profile}:${new URL(client.base).port}:`);
  const refreshEvents = (destination: string, from: number) =>
    tap.messages
      .slice(from)
      .filter(
        (m) => m.body.type === 'RefreshRemoteApplicationEvent' && m.body.destinationService === destination,
      );
  const acksOf = (event: TappedMessage) =>
    tap.messages
      .filter((m) => m.body.type === 'AckRemoteApplicationEvent' && m.body.ackId === event.body.id)
      .map((m) => String(m.body.originService));

  it('a push + /monitor refreshes the Spring app and the confbus clients; the Spring ack is listed in refresh-events and the console fleet', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v2') });
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

    type RefreshEvent = { acks: { service: string }[] };
    const events = await waitUntil('the Spring ack in /actuator/refresh-events', async () => {
      const list = await getJsonOk<RefreshEvent[]>(server.base, '/actuator/refresh-events');
      return list[0]?.acks.some((ack) => ack.service === springId) ?? false;
    })
      .catch(async (error) => {
        const seen = JSON.stringify(await getJsonOk(server.base, '/actuator/refresh-events'));
        const wire = tap.messages.map((m) => m.raw).join('\n');
        throw new Error(`${(error as Error).message}; Spring id ${springId}; events ${seen}; bus:\n${wire}`);
      })
      .then(() => getJsonOk<RefreshEvent[]>(server.base, '/actuator/refresh-events'));
    const services = events[0]!.acks.map((ack) => ack.service);
    assert.ok(services.some(isClient(devClient, 'dev')), `the confbus client acked too: ${services}`);

    // The console's fleet view: the Spring app is known from its acks alone (it never announces itself).
    type Fleet = { items: { id: string; kind: string; application: string; profiles: string[] }[] };
    const fleet = () => getJsonOk<Fleet>(server.base, '/-/console/api/fleet');
    await waitUntil('the Spring app in the console fleet', async () =>
      (await fleet()).items.some((item) => item.id === springId),
    );
    const items = (await fleet()).items;
    const springNode = items.find((item) => item.id === springId);
    assert.deepEqual(
      springNode && {
        kind: springNode.kind,
        application: springNode.application,
        profiles: springNode.profiles,
      },
      { kind: 'spring', application: 'sample', profiles: ['dev'] },
    );
    const devNode = items.find((item) => isClient(devClient, 'dev')(item.id));
    assert.equal(devNode?.kind, 'confbus', `the confbus client is marked confbus: ${JSON.stringify(items)}`);
  });

  it('busrefresh on the Spring app refreshes the confbus clients', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v3'), 'sample-real.yml': real('r3') });
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
  });

  it('busrefresh on a confbus client refreshes the Spring app', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v4') });
    assert.equal((await realClient.post('/actuator/busrefresh')).status, 204);
    await waitUntil('the Spring app serving v4', async () => (await comment(spring.url)) === 'v4', 60_000);
  });

  it('confbus clients honour a destination sent by the Spring app', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v5'), 'sample-real.yml': real('r5') });
    const from = tap.messages.length;
    const isDevClient = isClient(devClient, 'dev');
    assert.equal(await post(spring.url, '/actuator/busrefresh/sample:real:**'), 204);
    await waitUntil(
      'the confbus real client serving r5',
      async () => (await comment(realClient.base)) === 'r5',
    );
    assert.equal(await comment(devClient.base), 'v4', 'the dev client was not a destination');
    // A later event for the dev nodes: once the dev client acked it, it had its chance to handle the first.
    assert.equal(await post(spring.url, '/actuator/busrefresh/sample:dev:**'), 204);
    const [toReal] = refreshEvents('sample:real:**', from);
    const [toDev] = await waitUntil(
      'the dev event on the bus',
      () => refreshEvents('sample:dev:**', from).length > 0,
    ).then(() => refreshEvents('sample:dev:**', from));
    await waitUntil('the dev client acking the dev event', () => acksOf(toDev!).some(isDevClient));
    assert.ok(
      !acksOf(toReal!).some(isDevClient),
      'the dev client did not handle the event for sample:real:**',
    );
    await waitUntil(
      'the confbus dev client serving v5',
      async () => (await comment(devClient.base)) === 'v5',
    );
  });

  it('the Spring app honours a destination sent by a confbus client', async () => {
    await remote.commit({ 'sample-dev.yml': dev('v6'), 'sample-real.yml': real('r6') });
    const from = tap.messages.length;
    assert.equal((await devClient.post('/actuator/busrefresh/sample:real:**')).status, 204);
    await waitUntil(
      'the confbus real client serving r6',
      async () => (await comment(realClient.base)) === 'r6',
    );
    assert.equal((await devClient.post('/actuator/busrefresh/sample:dev:**')).status, 204);
    await waitUntil('both events on the bus', () => refreshEvents('sample:dev:**', from).length > 0);
    const [toReal] = refreshEvents('sample:real:**', from);
    const [toDev] = refreshEvents('sample:dev:**', from);
    await waitUntil('the Spring app acking the dev event', () => acksOf(toDev!).includes(springId), 60_000);
    assert.ok(
      !acksOf(toReal!).includes(springId),
      'the Spring app did not handle the event for sample:real:**',
    );
    await waitUntil('the Spring app serving v6', async () => (await comment(spring.url)) === 'v6', 60_000);
  });
});
