// The client's bus member in process, against a stub config server and a real RabbitMQ (own vhost).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import { ConfigClient, createManagementHandler, clientSettingSpecs } from '@confbus/client';
import { readClientBusSettings } from '../src/bus-member/bus-member-settings.js';
import {
  createEnvironmentChangeEvent,
  createRefreshEvent,
  createShutdownEvent,
  resolveSettings,
  type AckBusEvent,
  type BusEvent,
} from '@confbus/core';
import { amqpBusMember } from '@confbus/testkit/bus-member';
import { waitFor } from '@confbus/testkit/confbus-processes';
import {
  createTestVhost,
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  type TestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { z } from 'zod';
import { CaptureLogger } from './support/capture-logger.js';

describe('bus settings', () => {
  const read = (args: string[]) =>
    readClientBusSettings(resolveSettings(clientSettingSpecs, { args, env: {} }, { unknownKeys: 'keep' }));

  it("defaults to Spring's: disabled, springCloudBus, acks on, every command carried out, localhost:5672 guest", () => {
    const settings = read([]);
    assert.equal(settings.enabled, false);
    assert.equal(settings.destination, 'springCloudBus');
    assert.equal(settings.ackEnabled, true);
    assert.deepEqual(settings.commands, { refresh: true, env: true, shutdown: true });
    assert.equal(settings.trace, false);
    assert.deepEqual(settings.transport, {
      binder: 'rabbit',
      destination: 'springCloudBus',
      rabbit: { addresses: ['localhost:5672'], username: 'guest', password: 'guest', virtualHost: '/' },
    });
    assert.deepEqual(settings.reconnectDelayMs, { min: 1000, max: 30000 });
    assert.equal(settings.publishTimeoutMs, 5000);
    assert.equal(settings.ackRoutingKey, 'springCloudBus.acks');
    assert.equal(settings.refreshSpreadMs, 0);
  });

  it('reads confbus.bus.refresh.spread in ms and refuses a negative window', () => {
    assert.equal(read(['--confbus.bus.refresh.spread=2000']).refreshSpreadMs, 2000);
    assert.throws(() => read(['--confbus.bus.refresh.spread=-1']), /confbus\.bus\.refresh\.spread/);
  });

  it('reads spring.rabbitmq.addresses as host[:port] or amqp:// URLs whose parts win', () => {
    const settings = read([
      '--spring.rabbitmq.addresses=rabbit-a,amqp://svc:s%40cret@rabbit-b:5673/prod%2Fbus',
      '--spring.rabbitmq.host=ignored',
    ]);
    assert.deepEqual(settings.transport.binder === 'rabbit' && settings.transport.rabbit, {
      addresses: ['rabbit-a:5672', 'rabbit-b:5673'],
      username: 'svc',
      password: 's@cret',
      virtualHost: 'prod/bus',
    });
  });

  it('names a malformed address without showing its password', () => {
    assert.throws(
      () => read(['--spring.rabbitmq.addresses=amqp://svc:topsecret@']),
      (error: Error & { code?: string }) =>
        error.code === 'CONFBUS_BAD_SETTING' &&
        error.message.includes('spring.rabbitmq.addresses') &&
        !error.message.includes('topsecret'),
    );
  });
});

describe('client bus member', () => {
  let stub: StubConfigServer;
  let vhost: TestVhost;
  let temp: { path: string; remove: () => Promise<void> };
  const servers: Server[] = [];
  const clients: ConfigClient[] = [];
  const nodes: BusNode[] = [];
  let version = 0;

  const publish = (comment: string) => {
    version++;
    stub.setEnvironment('app', 'dev', {
      version: String(version).padStart(40, '0'),
      propertySources: [{ name: 'repo/app.yml', source: { 'group.comment': comment } }],
    });
  };

  before(async () => {
    stub = await startStubConfigServer();
    vhost = await createTestVhost();
    temp = await makeTempDir();
    publish('one');
  });
  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const client of clients) await client.close();
    for (const node of nodes) await node.close();
    await vhost.remove();
    await stub.stop();
    await temp.remove();
  });

  const startClient = async (args: string[], logger = new CaptureLogger()) => {
    const client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=app',
        '--spring.profiles.active=dev',
        '--management.endpoints.web.exposure.include=health,refresh,busrefresh,bus-refresh',
        ...args,
      ],
      env: {},
      cwd: temp.path,
      logger,
    });
    clients.push(client);
    const handler = createManagementHandler(client);
    const server = createServer((req, res) => {
      if (!handler(req, res)) res.writeHead(404).end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { client, logger, url };
  };

  const busArgs = (extra: string[] = []) => [
    '--spring.cloud.bus.enabled=true',
    `--spring.rabbitmq.host=${RABBIT_HOST}`,
    `--spring.rabbitmq.port=${RABBIT_PORT}`,
    `--spring.rabbitmq.virtual-host=${vhost.name}`,
    `--spring.rabbitmq.username=${RABBIT_USER}`,
    `--spring.rabbitmq.password=${RABBIT_PASSWORD}`,
    '--confbus.bus.reconnect.initial-interval=200',
    ...extra,
  ];

  const startNode = async (busId: string) => {
    const node = amqpBusMember(vhost.name, { busId });
    nodes.push(node);
    await node.start();
    return node;
  };

  const post = async (url: string) => {
    const response = await fetch(url, { method: 'POST' });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as { message?: string }) : undefined };
  };

  it('answers 503 on busrefresh and bus-refresh when the bus is disabled, and has no bus health', async () => {
    const { url, client } = await startClient([]);
    assert.equal(client.busState.state, 'disabled');
    for (const id of ['busrefresh', 'bus-refresh']) {
      const response = await post(`${url}/actuator/${id}`);
      assert.equal(response.status, 503);
      assert.match(response.body?.message ?? '', /bus is disabled \(spring\.cloud\.bus\.enabled=false\)/);
    }
    const health = (await (await fetch(`${url}/actuator/health`)).json()) as Record<string, unknown>;
    assert.equal(health.components, undefined);
  });

  it('only answers busrefresh when it is exposed', async () => {
    const { url } = await startClient([
      ...busArgs(['--spring.cloud.bus.id=app:dev:1:exposure']),
      '--management.endpoints.web.exposure.include=health,bus-refresh',
    ]);
    assert.equal((await post(`${url}/actuator/busrefresh`)).status, 404);
    assert.equal((await post(`${url}/actuator/bus-refresh`)).status, 204);
  });

  it('starts and serves with the broker down; busrefresh refreshes this node and says the bus is down', async () => {
    const { url, client, logger } = await startClient([
      '--spring.cloud.bus.enabled=true',
      '--spring.rabbitmq.addresses=127.0.0.1:1',
      '--spring.rabbitmq.password=never-logged-pw',
      '--spring.cloud.bus.id=app:dev:9:down',
    ]);
    assert.equal(client.getString('group.comment'), 'one');
    const health = (await (await fetch(`${url}/actuator/health`)).json()) as {
      status: string;
      components: { bus: { status: string; details: { lastError?: string; lastErrorCode?: string } } };
    };
    assert.equal(health.status, 'UP');
    assert.equal(health.components.bus.status, 'DOWN');
    // Why, as the server's bus component says it.
    assert.equal(health.components.bus.details.lastErrorCode, 'ECONNREFUSED');
    assert.match(String(health.components.bus.details.lastError), /ECONNREFUSED 127\.0\.0\.1:1/);

    publish('two');
    const response = await post(`${url}/actuator/busrefresh`);
    assert.equal(response.status, 503);
    assert.match(
      response.body?.message ?? '',
      /^Only this node was refreshed: the bus is not connected to the broker \(127\.0\.0\.1:1\)/,
    );
    assert.equal(client.getString('group.comment'), 'two');
    assert.ok(logger.lines.includes('debug: Received remote refresh request.'));
    assert.ok(!logger.lines.some((line) => line.includes('never-logged-pw')));
  });

  it('says so when this node fails to refresh on busrefresh, while the others were sent the event', async () => {
    const { url } = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:2:failing']));
    stub.setFailing(503);
    try {
      const response = await post(`${url}/actuator/busrefresh/nobody`);
      assert.equal(response.status, 204, 'a destination that skips this node needs no fetch');
      const failed = await post(`${url}/actuator/busrefresh/app:dev:2:failing`);
      assert.equal(failed.status, 500);
      assert.match(
        failed.body?.message ?? '',
        /^Refreshing this node failed \(Refresh failed, keeping the current configuration/,
      );
      assert.match(failed.body?.message ?? '', /the other nodes were sent the event$/);
    } finally {
      stub.setFailing(null);
    }
  });

  it('waits for the port when server.port=0, then uses it in the bus id', async () => {
    const { client, url } = await startClient(busArgs(['--server.port=0']));
    assert.equal(client.busState.state, 'waiting-for-port');
    assert.equal((await post(`${url}/actuator/busrefresh`)).status, 503);
    const health = (await (await fetch(`${url}/actuator/health`)).json()) as {
      components: { bus: { status: string } };
    };
    assert.equal(health.components.bus.status, 'UNKNOWN');
    await client.setLocalServerPort(4321);
    assert.equal(client.busState.state, 'started');
    assert.match(client.bus?.busId ?? '', /^app:dev:4321:[0-9a-f]{32}$/);
    assert.ok(client.bus?.connected);
  });

  it('takes a backtracking-prone destination over HTTP busrefresh at once; every node decides it and stays responsive', async () => {
    // Issue #15: `POST /actuator/busrefresh/**/********z` answered 204, then each `*` multiplied every node's
    // matching time by ~4.5 (10 stars: 29.6 s). With 24 stars the old matcher would not finish in this test.
    const { client, url } = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:7:0123abcd']));
    const other = await startNode(`other:default:9:${'0'.repeat(32)}`);
    const seen: string[] = [];
    other.on('observed', (event) => seen.push(event.destinationService));
    const droppedBefore = other.stats.dropped;
    // (No `?`: in a URL it would start the query.)
    const hostile = [
      `**/${'*'.repeat(24)}z`,
      `**/${'*/'.repeat(60)}*z`,
      `${'**/'.repeat(40)}${'*'.repeat(30)}z`,
    ];
    for (const destination of hostile) {
      const answer = await Promise.all([
        post(`${url}/actuator/busrefresh/${destination}`),
        // Asked while the event is being matched here: answered too.
        fetch(`${url}/actuator/health`).then((response) => response.status),
      ]);
      assert.deepEqual([answer[0].status, answer[1]], [204, 200], destination);
    }
    await waitFor('the other node to decide every hostile event', () => seen.length === hostile.length);
    assert.deepEqual(
      seen,
      // Joined by `:`; Spring adds `:**` to a destination of two segments.
      hostile.map((destination, i) => `${destination.replaceAll('/', ':')}${i === 0 ? ':**' : ''}`),
    );
    // Longer than the destination cap (1,024 characters): this node sends it, the others drop it as malformed.
    assert.equal((await post(`${url}/actuator/busrefresh/**/${'*'.repeat(2000)}z`)).status, 204);
    await waitFor(
      'the other node to drop the over-long event',
      () => other.stats.dropped === droppedBefore + 1,
    );
    // Both still serve and take the next event.
    const next = createRefreshEvent('tester:1:abc', 'other:**');
    await other.publish(next);
    assert.equal((await fetch(`${url}/actuator/health`)).status, 200);
    assert.ok(client.bus?.connected && other.connected);
  });

  it('refreshes on an event for it with Spring log lines, acks after refreshing, ignores others', async () => {
    const { client, logger } = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:8080:events']));
    const sender = await startNode('sender:0:test');
    const acks: AckBusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    const received = () => logger.lines.filter((line) => line === 'debug: Received remote refresh request.');

    // Not for it: nothing happens and nothing is logged.
    publish('three');
    await sender.publish(createRefreshEvent('sender:0:test', 'other:**'));
    // Then one for it (by its full id: other clients of this file share the vhost). Events arrive
    // in order, so once this one is handled the first one was too.
    const event = createRefreshEvent('sender:0:test', 'app:dev:8080:events');
    await sender.publish(event);
    const ack = await waitFor('the ack', () => acks.find((a) => a.ackId === event.id));
    assert.equal(received().length, 1);
    assert.equal(client.getString('group.comment'), 'three');
    assert.equal(ack.originService, 'app:dev:8080:events');
    assert.equal(ack.ackDestinationService, 'app:dev:8080:events');
    assert.equal(ack.event, 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent');
    assert.equal(ack.configVersion, client.status.version);
    assert.equal(ack.configVersion, String(version).padStart(40, '0'));
    assert.equal(acks.filter((a) => a.originService === 'app:dev:8080:events').length, 1);
    // One INFO line for the refresh, in Spring's words; the fetch and the event's receipt are DEBUG.
    const keysLine = logger.lines.find((line) => line.startsWith('info: Keys refreshed [')) ?? '';
    assert.match(
      keysLine,
      /^info: Keys refreshed \[config\.client\.version, group\.comment\] \{"trigger":"bus",/,
    );
    const sinceReceipt = logger.lines.slice(logger.lines.indexOf('debug: Received remote refresh request.'));
    assert.deepEqual(
      sinceReceipt.filter((line) => line.startsWith('info: ')),
      [keysLine],
    );
    // The ack went out after the refresh had finished.
    assert.ok(
      logger.lines.indexOf(keysLine) < logger.lines.findIndex((l) => l.startsWith('debug: Sent bus ack')),
    );
  });
  it('acks a refresh its own schema refuses as rejected, with the reason, and keeps its values', async () => {
    const { client } = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:8080:schema']));
    const sender = await startNode('sender:0:schema');
    const acks: AckBusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    const group = z.object({ comment: z.string().min(3) });
    publish('fine');
    await client.refresh();
    assert.deepEqual(client.bind('group', group), { comment: 'fine' });
    const applied = createRefreshEvent('sender:0:schema', 'app:dev:8080:schema');
    publish('good');
    await sender.publish(applied);
    const first = await waitFor('the ack', () => acks.find((a) => a.ackId === applied.id));
    assert.deepEqual([first.outcome, first.reason], ['applied', undefined]);

    publish('no');
    const refused = createRefreshEvent('sender:0:schema', 'app:dev:8080:schema');
    await sender.publish(refused);
    const ack = await waitFor('the ack', () => acks.find((a) => a.ackId === refused.id));
    assert.equal(ack.outcome, 'rejected');
    assert.match(
      ack.reason ?? '',
      /rejected by the application's schema: Invalid configuration under 'group': group\.comment: /,
    );
    assert.equal(client.getString('group.comment'), 'good');
    assert.equal(ack.configVersion, client.status.version, 'it says which version it still serves');
  });

  it('with confbus.bus.refresh.spread, waits the share of the window it announces, then refreshes and acks', async () => {
    const logger = new CaptureLogger();
    // When the client announced its wait and when its re-fetch started, on this process's clock.
    let waitAnnounced: { at: number; waitMs: number } | undefined;
    let fetchStarted: number | undefined;
    logger.onLine((line) => {
      const wait = /^debug: Re-fetching in (\d+) ms \(confbus\.bus\.refresh\.spread=1500\)/.exec(line);
      if (wait) waitAnnounced = { at: performance.now(), waitMs: Number(wait[1]) };
      else if (waitAnnounced && fetchStarted === undefined && line.startsWith('debug: Fetching config'))
        fetchStarted = performance.now();
    });
    const { client } = await startClient(
      busArgs(['--spring.cloud.bus.id=app:dev:8080:spread', '--confbus.bus.refresh.spread=1500']),
      logger,
    );
    const sender = await startNode('sender:0:spread');
    const acks: AckBusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    publish('spread');
    const event = createRefreshEvent('sender:0:spread', 'app:dev:8080:spread');
    await sender.publish(event);
    const ack = await waitFor('the ack', () => acks.find((a) => a.ackId === event.id));
    assert.equal(client.getString('group.comment'), 'spread');
    assert.equal(ack.configVersion, client.status.version);
    // The wait is a share of the window, and the re-fetch started no earlier than announced (a lower bound:
    // a loaded machine only makes it later).
    assert.ok(waitAnnounced && waitAnnounced.waitMs < 1500, 'a wait within the window was announced');
    assert.ok(fetchStarted !== undefined, 'the re-fetch started after the announcement');
    assert.ok(
      fetchStarted - waitAnnounced.at >= waitAnnounced.waitMs - 1,
      `re-fetched ${(fetchStarted - waitAnnounced.at).toFixed(0)} ms after announcing ${waitAnnounced.waitMs} ms`,
    );
  });

  it("passes an event's version hint to its server, and skips the fetch when it already serves that commit", async () => {
    const { client } = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:8080:hinted']));
    const sender = await startNode('sender:0:hint');
    const acks: AckBusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    publish('four');
    const announced = String(version).padStart(40, '0');
    const requestsBefore = stub.requests.length;
    const hinted = {
      ...createRefreshEvent('sender:0:hint', 'app:dev:8080:hinted'),
      configVersion: announced,
    };
    await sender.publish(hinted);
    await waitFor('the ack', () => acks.find((a) => a.ackId === hinted.id));
    assert.equal(client.getString('group.comment'), 'four');
    const sent = stub.requests.slice(requestsBefore);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.headers['x-config-min-version'], announced, 'the fetch carried the hint');

    // The same commit announced again (one event per guessed service): nothing to fetch.
    const again = { ...createRefreshEvent('sender:0:hint', 'app:dev:8080:hinted'), configVersion: announced };
    await sender.publish(again);
    const ack = await waitFor('the second ack', () => acks.find((a) => a.ackId === again.id));
    assert.equal(stub.requests.length, requestsBefore + 1, 'no second fetch');
    assert.equal(ack.configVersion, announced);

    // A Spring-shaped event (no hint) fetches as before, without the header.
    const plain = createRefreshEvent('sender:0:hint', 'app:dev:8080:hinted');
    await sender.publish(plain);
    await waitFor('the third ack', () => acks.find((a) => a.ackId === plain.id));
    assert.equal(stub.requests.at(-1)!.headers['x-config-min-version'], undefined);
  });
  it('busenv sets a property on every targeted node (which refreshes), busshutdown shuts targeted nodes down', async () => {
    const exposed = '--management.endpoints.web.exposure.include=busenv,bus-env,busshutdown';
    const a = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:1:env-a', exposed]));
    const b = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:2:env-b', exposed]));
    const sender = await startNode('sender:0:env');
    const acks: AckBusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    const postJson = async (url: string, body: unknown) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as { message?: string }) : undefined };
    };

    // Everyone matching app:dev:** (only these two carry the env- ids in this file's fleet of clients).
    const all = await postJson(`${a.url}/actuator/busenv/app:dev:*:env-*`, {
      name: 'group.comment',
      value: 'from-bus',
    });
    assert.equal(all.status, 204);
    await waitFor('b took the value', () => b.client.getString('group.comment') === 'from-bus');
    assert.equal(a.client.getString('group.comment'), 'from-bus', 'the node that was asked applies it too');
    const envAck = await waitFor('b acked', () => acks.find((x) => x.originService === 'app:dev:2:env-b'));
    assert.equal(envAck.event, 'org.springframework.cloud.bus.event.EnvironmentChangeRemoteApplicationEvent');
    // It stays on top of what the server sends, across refreshes.
    publish('five');
    await b.client.refresh();
    assert.equal(b.client.getString('group.comment'), 'from-bus');

    // Spring 2.x's name, addressed to b only.
    assert.equal(
      (await postJson(`${a.url}/actuator/bus-env/app:dev:2:env-b`, { name: 'x.y', value: 7 })).status,
      204,
    );
    await waitFor('b has x.y', () => b.client.getString('x.y') === '7');
    assert.equal(a.client.getString('x.y'), undefined);

    const bad = await postJson(`${a.url}/actuator/busenv`, { value: 'v' });
    assert.equal(bad.status, 400);
    assert.match(bad.body?.message ?? '', /"name" is missing/);

    let shutdowns = 0;
    b.client.on('shutdown', () => shutdowns++);
    a.client.on('shutdown', () => assert.fail('a was not addressed'));
    assert.equal((await post(`${a.url}/actuator/busshutdown/app:dev:2:env-b`)).status, 204);
    const shutdownAck = await waitFor('b acked the shutdown', () =>
      acks.find((x) => x.event.endsWith('.ShutdownRemoteApplicationEvent')),
    );
    assert.equal(shutdownAck.originService, 'app:dev:2:env-b');
    await waitFor('b was asked to shut down', () => shutdowns === 1);
  });

  it("honours Spring's spring.cloud.bus.{refresh,env,shutdown}.enabled=false: acks those events, carries none out", async () => {
    const id = 'app:dev:5:switched-off';
    const { client, url, logger } = await startClient(
      busArgs([
        `--spring.cloud.bus.id=${id}`,
        '--spring.cloud.bus.refresh.enabled=false',
        '--spring.cloud.bus.env.enabled=false',
        '--spring.cloud.bus.shutdown.enabled=false',
        '--management.endpoints.web.exposure.include=busrefresh,busenv,busshutdown',
      ]),
    );
    const sender = await startNode('sender:0:switches');
    const acks: AckBusEvent[] = [];
    const seen: BusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    sender.on('other', (event) => seen.push(event));
    sender.on('observed', (event) => seen.push(event));
    let shutdowns = 0;
    client.on('shutdown', () => shutdowns++);
    const served = client.getString('group.comment');
    publish('not for a node with bus refresh off');
    const requestsBefore = stub.requests.length;

    // From another node: each is acked (Spring's BusConsumer acks whatever listens), none is carried out.
    const events = [
      createEnvironmentChangeEvent('sender:0:switches', { 'group.comment': 'from-bus' }, id),
      createShutdownEvent('sender:0:switches', id),
      createRefreshEvent('sender:0:switches', id),
    ];
    for (const event of events) await sender.publish(event);
    for (const event of events)
      await waitFor(`the ack of ${event.type}`, () => acks.some((a) => a.ackId === event.id));
    await waitFor(
      'the shutdown handled',
      () =>
        shutdowns > 0 ||
        logger.lines.some((line) => line.includes('spring.cloud.bus.shutdown.enabled=false')),
    );
    assert.equal(client.getString('group.comment'), served, 'neither busenv nor the refresh was applied');
    assert.equal(stub.requests.length, requestsBefore, 'no fetch for the refresh');
    assert.equal(shutdowns, 0);

    // Asked of this node (addressed to it only: other clients share the vhost): sent on the bus, as Spring's
    // endpoints publish whatever listens locally, but not carried out here.
    const postJson = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.status);
    assert.equal(await postJson(`/actuator/busenv/${id}`, { name: 'group.comment', value: 'local' }), 204);
    assert.equal((await post(`${url}/actuator/busrefresh/${id}`)).status, 204);
    assert.equal((await post(`${url}/actuator/busshutdown/${id}`)).status, 204);
    await waitFor('the others were sent all three', () =>
      [
        'EnvironmentChangeRemoteApplicationEvent',
        'RefreshRemoteApplicationEvent',
        'ShutdownRemoteApplicationEvent',
      ].every((type) => seen.some((event) => event.type === type && event.originService === id)),
    );
    assert.equal(client.getString('group.comment'), served);
    assert.equal(stub.requests.length, requestsBefore);
    assert.equal(shutdowns, 0);
    assert.equal(client.busState.state, 'started', 'busshutdown did not close this node');
  });

  it("with spring.cloud.bus.trace.enabled, logs what it receives at DEBUG as Spring's TraceListener does", async () => {
    const id = 'app:dev:6:traced';
    const { logger } = await startClient(
      busArgs([`--spring.cloud.bus.id=${id}`, '--spring.cloud.bus.trace.enabled=true']),
    );
    const sender = await startNode('sender:0:trace');
    const acks: AckBusEvent[] = [];
    sender.on('ack', (ack) => acks.push(ack));
    const event = createRefreshEvent('sender:0:trace', id);
    await sender.publish(event);
    await waitFor('the ack', () => acks.some((a) => a.ackId === event.id));
    const sent =
      logger.lines.find((line) => line.startsWith('debug: bus trace') && line.includes(event.id)) ?? '';
    assert.match(sent, /"signal":"spring\.cloud\.bus\.sent","type":"RefreshRemoteApplicationEvent"/);
    assert.match(sent, /"origin":"sender:0:trace","destination":"app:dev:6:traced"/);
  });

  it('busenv and busshutdown answer only when exposed', async () => {
    const { url } = await startClient(busArgs(['--spring.cloud.bus.id=app:dev:3:unexposed']));
    assert.equal((await post(`${url}/actuator/busenv`)).status, 404);
    assert.equal((await post(`${url}/actuator/busshutdown`)).status, 404);
  });
});
