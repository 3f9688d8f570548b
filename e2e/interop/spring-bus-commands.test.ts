/**
 * The bus commands other than refresh, between a real Spring Boot app (interop/spring-client,
 * spring-cloud-starter-bus-amqp) and confbus sample clients on one RabbitMQ vhost: `busenv`
 * (EnvironmentChangeRemoteApplicationEvent) and `busshutdown` (ShutdownRemoteApplicationEvent), each sent by
 * one kind and honoured by the other, addressed to one node so the others show that a destination is kept.
 *
 * "Was not applied" is checked through the bus's order, not time: every node handles its queue in order, so
 * once a node has acked a later event it would already have handled the earlier one had it been addressed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost, listVhostQueues } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, type TappedMessage, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { type SpringProcess, buildSpringPeer, startSpringApp } from '@confbus/testkit/spring-peers';
import { busSettings, postJson } from '../support/bus-fleet.js';
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
  skipWithoutJava,
  springConfigImport,
  springRabbitSettings,
} from './support/spring-fleet.js';

const dev = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n  owner: repo\n`;

describe('busenv and busshutdown between Spring Boot and confbus', { skip: skipWithoutJava() }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let server: RunningServer;
  let spring: SpringProcess;
  let springId: string;
  let sender: RunningClient;
  let target: RunningClient;
  let tap: RawBusTap;

  before(async () => {
    const jar = await buildSpringPeer('spring-client');
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': dev('v1') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...busSettings(vhost.name),
    });
    tap = await openRawBusTap(vhost.amqpUrl);
    const clientSettings = {
      'spring.cloud.config.uri': server.base,
      'spring.profiles.active': 'dev',
      ...busSettings(vhost.name),
    };
    [spring, sender, target] = await Promise.all([
      startSpringApp(jar, {
        ...springRabbitSettings(vhost.name),
        ...springConfigImport(server.base),
        'spring.profiles.active': 'dev',
      }),
      startClient(clientSettings),
      startClient(clientSettings),
    ]);
    // Spring's id on the wire carries port 0 (see spring-bus.test.ts); the random part is the one /env shows.
    const envId = (
      await getJsonOk<{ property: { value: string } }>(spring.url, '/actuator/env/spring.cloud.bus.id')
    ).property.value;
    springId = `sample:dev:0:${envId.split(':').pop()}`;
    await waitUntil(
      'four bus queues (server, Spring app, two clients)',
      async () =>
        (await listVhostQueues(vhost.name)).filter((q) => q.startsWith('springCloudBus.')).length === 4,
      60_000,
    );
  });

  after(async () => {
    await tap?.close();
    await spring?.stop();
    await stopAllNodeProcesses();
    await stopFleet();
    await vhost?.remove();
    await remote?.remove();
  });

  const springValue = async (key: string) => {
    const response = await fetch(`${spring.url}/actuator/env/${key}`);
    if (response.status === 404) return undefined;
    return ((await response.json()) as { property: { value: string } }).property.value;
  };
  const comment = async (base: string) => (await getJsonOk<Group>(base, '/dynamic')).comment;
  /** A confbus client's bus id is `sample:dev:<port>:<random>`: its port addresses it alone. */
  const destinationOf = (client: RunningClient) => `sample:dev:${new URL(client.base).port}:**`;
  const isClient = (client: RunningClient) => (service: string) =>
    service.startsWith(`sample:dev:${new URL(client.base).port}:`);
  /** The bus events of `type` seen on the wire from message `from` on. */
  const eventsOf = (type: string, from: number) =>
    tap.messages.slice(from).filter((m) => m.body.type === type);
  /** The first event of `type` from message `from` on, once the tap has it. */
  const nextEvent = async (type: string, from: number): Promise<TappedMessage> => {
    await waitUntil(`a ${type} on the bus`, () => eventsOf(type, from).length > 0);
    return eventsOf(type, from)[0]!;
  };
  const acksOf = (event: TappedMessage) =>
    tap.messages
      .filter((m) => m.body.type === 'AckRemoteApplicationEvent' && m.body.ackId === event.body.id)
      .map((m) => String(m.body.originService));

  it('busenv on a confbus client, addressed to the Spring app, sets the property there only', async () => {
    const from = tap.messages.length;
    const status = await postJson(sender.base, `/actuator/busenv/${springId}`, {
      name: 'group.owner',
      value: 'set-by-confbus',
    });
    assert.equal(status, 204);
    await waitUntil('the Spring app to show group.owner=set-by-confbus', async () => {
      return (await springValue('group.owner')) === 'set-by-confbus';
    });
    const toSpring = await nextEvent('EnvironmentChangeRemoteApplicationEvent', from);
    await waitUntil('the Spring app acking the busenv', () => acksOf(toSpring).includes(springId));
    // A later event for the other confbus client: once it acked that one, it had its turn at the busenv.
    const later = tap.messages.length;
    assert.equal((await sender.post(`/actuator/busrefresh/${destinationOf(target)}`)).status, 204);
    const refresh = await nextEvent('RefreshRemoteApplicationEvent', later);
    await waitUntil('the other confbus client acking a later refresh', () =>
      acksOf(refresh).some(isClient(target)),
    );
    assert.deepEqual(acksOf(toSpring), [springId], 'only the Spring app handled the busenv');
    // Not addressed: its configuration still has the repository's value.
    const targetConfig = await getJsonOk<Record<string, unknown>>(target.base, '/actuator/env');
    assert.equal(JSON.stringify(targetConfig).includes('set-by-confbus'), false);
  });

  it('busenv on the Spring app, addressed to one confbus client, sets the value there, which refreshes', async () => {
    const from = tap.messages.length;
    const status = await postJson(spring.url, `/actuator/busenv/${destinationOf(target)}`, {
      name: 'group.comment',
      value: 'set-by-spring',
    });
    assert.ok(status === 200 || status === 204, `Spring answered ${status}`);
    await waitUntil('the addressed confbus client serving group.comment=set-by-spring', async () => {
      return (await comment(target.base)) === 'set-by-spring';
    });
    const toTarget = await nextEvent('EnvironmentChangeRemoteApplicationEvent', from);
    // A later event for the other client: once it acked that one, it had its turn at the busenv.
    const later = tap.messages.length;
    assert.equal((await target.post(`/actuator/busrefresh/${destinationOf(sender)}`)).status, 204);
    const refresh = await nextEvent('RefreshRemoteApplicationEvent', later);
    await waitUntil('the other confbus client acking a later refresh', () =>
      acksOf(refresh).some(isClient(sender)),
    );
    assert.ok(!acksOf(toTarget).some(isClient(sender)), 'the other client did not handle the busenv');
    assert.equal(await comment(sender.base), 'v1');
  });

  it(
    'busshutdown on the Spring app, addressed to one confbus client, stops that client only',
    { timeout: 60_000 },
    async () => {
      const status = await postJson(spring.url, `/actuator/busshutdown/${destinationOf(target)}`, {});
      assert.ok(status === 200 || status === 204, `Spring answered ${status}`);
      assert.equal(await target.process.exited, 0);
      assert.equal((await fetch(`${sender.base}/actuator/health`)).status, 200);
    },
  );

  it(
    'busshutdown on a confbus client, addressed to the Spring app, stops the Spring app',
    { timeout: 60_000 },
    async () => {
      const status = await postJson(sender.base, `/actuator/busshutdown/${springId}`, {});
      assert.equal(status, 204);
      await spring.process.exited;
      assert.equal((await fetch(`${sender.base}/actuator/health`)).status, 200);
    },
  );
});
