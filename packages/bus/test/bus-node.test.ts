import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import amqplib from 'amqplib';
import { AmqpTransport, BusNode, DEFAULT_BUS_DESTINATION, type AmqpTransportOptions } from '@confbus/bus';
import { encodeBusEvent, type AckBusEvent, type RefreshBusEvent } from '@confbus/core';
import {
  closeVhostConnections,
  createTestVhost,
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  type TestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { waitFor } from '@confbus/testkit/wait-for';
import { DROPPED_MESSAGE_LOG_LIMIT } from '../src/bus-node.js';
import { captureLogger } from './capture-logger.js';

interface Member {
  node: BusNode;
  refreshes: RefreshBusEvent[];
  acks: AckBusEvent[];
  log: ReturnType<typeof captureLogger>;
}

describe('BusNode against RabbitMQ', () => {
  let vhost: TestVhost;
  const members: Member[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];

  function member(busId: string, extra: Partial<AmqpTransportOptions> = {}): Member {
    const log = captureLogger();
    const transport = new AmqpTransport({
      addresses: [`${RABBIT_HOST}:${RABBIT_PORT}`],
      username: RABBIT_USER,
      password: RABBIT_PASSWORD,
      vhost: vhost.name,
      destination: DEFAULT_BUS_DESTINATION,
      connectionName: busId,
      logger: log,
      reconnectDelayMs: { min: 100, max: 1000 },
      ...extra,
    });
    const node = new BusNode({ transport, busId, ackEnabled: true, logger: log });
    const m: Member = { node, refreshes: [], acks: [], log };
    node.on('refresh', (e) => m.refreshes.push(e));
    node.on('ack', (e) => m.acks.push(e));
    members.push(m);
    return m;
  }

  let a: Member; // publisher (a config server)
  let b: Member;
  let c: Member;

  before(async () => {
    vhost = await createTestVhost();
    a = member('configserver:8888:aaa');
    b = member('svc-b:8080:bbb');
    c = member('svc-c:dev,db:8080:ccc');
    await Promise.all([a, b, c].map((m) => m.node.start()));
    assert.ok(a.node.connected && b.node.connected && c.node.connected, 'all three nodes are connected');
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await Promise.all(members.map((m) => m.node.close()));
    await vhost?.remove();
  });

  async function rawChannel(): Promise<amqplib.Channel> {
    const conn = await amqplib.connect(vhost.amqpUrl);
    conn.on('error', () => undefined); // a broker-side close in a later test must not crash the run
    cleanups.push(() => conn.close());
    return conn.createChannel();
  }

  const acksFor = (m: Member, id: string) => m.acks.filter((ack) => ack.ackId === id);

  it('delivers a refresh to every other node, not back to the sender, and the sender sees the acks', async () => {
    const e = await a.node.publishRefresh();
    assert.equal(e.destinationService, '**');
    assert.equal(e.originService, 'configserver:8888:aaa');
    await waitFor('both acks at the publisher', () => acksFor(a, e.id).length === 2);
    // a's queue is FIFO: its own refresh was ahead of the acks, so it has been seen (and ignored) by now.
    assert.deepEqual(a.refreshes, []);
    assert.deepEqual(
      b.refreshes.map((r) => r.id),
      [e.id],
    );
    assert.deepEqual(
      c.refreshes.map((r) => r.id),
      [e.id],
    );
    const acks = acksFor(a, e.id);
    assert.deepEqual(acks.map((ack) => ack.originService).sort(), [
      'svc-b:8080:bbb',
      'svc-c:dev,db:8080:ccc',
    ]);
    for (const ack of acks) {
      assert.equal(ack.ackDestinationService, '**');
      assert.equal(ack.destinationService, '**');
      assert.equal(ack.event, 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent');
    }
  });

  it('with ackRoutingKey, acks skip the nodes that opted in but still reach nodes bound with #', async () => {
    const ackRoutingKey = `${DEFAULT_BUS_DESTINATION}.acks`;
    const d = member('svc-d:8080:ddd', { ackRoutingKey });
    const e = member('svc-e:8080:eee', { ackRoutingKey });
    await Promise.all([d.node.start(), e.node.start()]);
    const event = await a.node.publishRefresh('svc-d');
    await waitFor("d's ack at the publisher (bound with #)", () => acksFor(a, event.id).length === 1);
    assert.deepEqual(acksFor(a, event.id)[0]?.originService, 'svc-d:8080:ddd');
    await waitFor(
      "d's ack at the Spring-style nodes",
      () => acksFor(b, event.id).length === 1 && acksFor(c, event.id).length === 1,
    );
    // The ack was routed before `a` received it, so had it been routed to e it would sit ahead of this sentinel.
    const sentinel = await a.node.publishRefresh('svc-e');
    await waitFor('the sentinel at e', () => e.refreshes.some((r) => r.id === sentinel.id));
    assert.deepEqual(acksFor(e, event.id), [], "e did not receive d's ack");
    assert.deepEqual(
      d.refreshes.map((r) => r.id),
      [event.id],
      'events still reach opted-in nodes',
    );
    // Leave the three-node setup as the later tests expect it (close() is idempotent for the final cleanup).
    await Promise.all([d.node.close(), e.node.close()]);
  });

  it('delivers only to the addressed service, including by a single profile of a multi-profile id', async () => {
    const before = { b: b.refreshes.length, c: c.refreshes.length };
    const toB = await a.node.publishRefresh('svc-b');
    assert.equal(toB.destinationService, 'svc-b:**');
    await waitFor("b's ack seen by c", () => acksFor(c, toB.id).length === 1);
    assert.equal(b.refreshes.at(-1)?.id, toB.id);
    assert.equal(c.refreshes.length, before.c, 'c ignored a refresh addressed to svc-b');

    const toDb = await a.node.publishRefresh('svc-c:db:**');
    await waitFor("c's ack seen by b", () => acksFor(b, toDb.id).length === 1);
    assert.equal(c.refreshes.at(-1)?.id, toDb.id);
    assert.equal(b.refreshes.length, before.b + 1, 'b ignored a refresh addressed to svc-c:db');
  });

  it('writes exactly the JSON, content type and routing key Spring uses (read by a raw amqplib consumer)', async () => {
    const ch = await rawChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    await ch.bindQueue(queue, 'springCloudBus', '#');
    const got: amqplib.ConsumeMessage[] = [];
    await ch.consume(queue, (msg) => msg && got.push(msg), { noAck: true });
    const e = await a.node.publishRefresh('svc-b');
    await waitFor('the raw consumer to get the refresh', () =>
      got.some((m) => m.content.toString('utf8').includes(`"id":"${e.id}"`)),
    );
    const msg = got.find((m) => m.content.toString('utf8').includes(`"id":"${e.id}"`))!;
    assert.equal(
      msg.content.toString('utf8'),
      `{"type":"RefreshRemoteApplicationEvent","timestamp":${e.timestamp},"originService":"configserver:8888:aaa",` +
        `"destinationService":"svc-b:**","id":"${e.id}"}`,
    );
    assert.equal(msg.content.toString('utf8'), encodeBusEvent(e));
    assert.equal(msg.properties.contentType, 'application/json');
    assert.equal(msg.fields.exchange, 'springCloudBus');
    assert.equal(msg.fields.routingKey, 'springCloudBus');
    // The ack b sends for it goes the same way.
    await waitFor('the raw consumer to get the ack', () =>
      got.some((m) => m.content.toString('utf8').includes(`"ackId":"${e.id}"`)),
    );
    const ack = JSON.parse(
      got.find((m) => m.content.toString('utf8').includes(`"ackId":"${e.id}"`))!.content.toString(),
    );
    assert.deepEqual(Object.keys(ack), [
      'type',
      'timestamp',
      'originService',
      'destinationService',
      'id',
      'ackId',
      'ackDestinationService',
      'event',
    ]);
    assert.equal(ack.originService, 'svc-b:8080:bbb');
    assert.equal(ack.ackDestinationService, 'svc-b:**');

    const declared = await ch.checkExchange('springCloudBus');
    assert.ok(declared);
  });

  it('accepts a hand-written Spring event from a raw amqplib publisher, and drops malformed ones', async () => {
    const ch = await rawChannel();
    const publish = (body: string, contentType = 'application/json') =>
      ch.publish('springCloudBus', 'springCloudBus', Buffer.from(body), { contentType });
    const warnsBefore = b.log.lines.filter((l) => l.msg === 'dropped bus message').length;
    publish('this is not json');
    publish('{"type":"RefreshRemoteApplicationEvent","timestamp":1}');
    publish('[1,2,3]', 'text/plain');
    publish(
      '{"type":"SomethingNewRemoteApplicationEvent","timestamp":1563303289000,"originService":"boot:8080:x",' +
        '"destinationService":"**","id":"00000000-0000-4000-8000-000000000001"}',
    );
    // What a Spring Boot app with a snake_case Jackson mapper sends.
    const id = 'b70947c1-048e-4e37-8c20-b1640de9bc75';
    publish(
      `{"type":"RefreshRemoteApplicationEvent","timestamp":1563303289000,"origin_service":"boot-app:8080:3f1c",` +
        `"destination_service":"svc-b:**","id":"${id}"}`,
    );
    await waitFor('b to accept the hand-written refresh', () => b.refreshes.some((r) => r.id === id));
    const got = b.refreshes.find((r) => r.id === id)!;
    assert.equal(got.originService, 'boot-app:8080:3f1c');
    assert.equal(got.timestamp, 1563303289000);
    const dropped = b.log.lines.filter((l) => l.msg === 'dropped bus message');
    assert.equal(dropped.length - warnsBefore, 3, b.log.text());
    assert.ok(b.node.connected, 'b is still connected after the malformed messages');
    assert.ok(!c.refreshes.some((r) => r.id === id));
    await waitFor('the ack from b for the hand-written event', () => acksFor(a, id).length === 1);
  });

  it('drops and counts every message of a malformed flood, logging a few lines a window, not one per message', async () => {
    const ch = await rawChannel();
    const dropLines = () => b.log.lines.filter((l) => l.msg?.startsWith('dropped bus message')).length;
    const linesBefore = dropLines();
    const droppedBefore = b.node.stats.dropped;
    for (let i = 0; i < 200; i++)
      ch.publish('springCloudBus', 'springCloudBus', Buffer.from(`{"malformed": ${i}`), {
        contentType: 'application/json',
      });
    await waitFor('b to drop all 200', () => b.node.stats.dropped >= droppedBefore + 200);
    assert.equal(b.node.stats.dropped, droppedBefore + 200, 'each one counted');
    assert.ok(
      dropLines() - linesBefore <= DROPPED_MESSAGE_LOG_LIMIT.lines,
      `${dropLines() - linesBefore} lines for 200 dropped messages`,
    );
  });

  it('reconnects by itself after the broker closes its connection, then receives events again', async () => {
    const lost = Promise.all([a, b, c].map((m) => once(m.node, 'disconnected')));
    const back = Promise.all([a, b, c].map((m) => once(m.node, 'reconnected')));
    const closed = await closeVhostConnections(vhost.name);
    assert.ok(closed >= 3, `the broker closed ${closed} connections`);
    await lost;
    await back;
    assert.ok(a.node.connected && b.node.connected && c.node.connected);
    const e = await a.node.publishRefresh();
    await waitFor('b and c to get the refresh after reconnecting', () =>
      [b, c].every((m) => m.refreshes.some((r) => r.id === e.id)),
    );
    await waitFor('acks after reconnecting', () => acksFor(a, e.id).length === 2);
  });

  it('resolves start() when the broker is unreachable, keeps retrying, and never logs the password', async () => {
    // A TCP endpoint that hangs up on every connection: the broker is "down", and we can count the attempts.
    const sockets = new Set<Socket>();
    let attempts = 0;
    const server: Server = createServer((socket) => {
      attempts++;
      sockets.add(socket);
      socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise((r) => server.close(r)));
    const port = (server.address() as { port: number }).port;
    const password = 'pa55-w0rd-never-logged';
    const down = member('svc-down:8080:ddd', {
      addresses: [`127.0.0.1:${port}`],
      password,
      reconnectDelayMs: { min: 50, max: 200 },
    });
    await down.node.start();
    assert.equal(down.node.connected, false);
    await waitFor('three connection attempts', () => attempts >= 3);
    await assert.rejects(
      () => down.node.close().then(() => down.node.publishRefresh()),
      /not started or already closed/,
    );
    assert.ok(down.log.lines.some((l) => l.msg === 'bus broker unreachable, retrying in the background'));
    assert.ok(!down.log.text().includes(password), down.log.text());
  });
});
