// Signed bus messages (confbus.bus.signing.*) on a real RabbitMQ vhost (the HMAC itself: message-signing.fast.test.ts):
// forged busrefresh commands published by a raw AMQP client
// (unsigned, wrongly signed, a captured signed message sent again) are dropped and counted in require mode, while
// a mixed-fleet node (sign) still obeys the unsigned one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import amqplib from 'amqplib';
import {
  AmqpTransport,
  BusNode,
  DEFAULT_BUS_DESTINATION,
  MessageSigning,
  SIGNATURE_HEADER,
} from '@confbus/bus';
import { type BusSigningSettings, type RefreshBusEvent, createRefreshEvent } from '@confbus/core';
import {
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  type TestVhost,
  createTestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { waitFor } from '@confbus/testkit/wait-for';

import { captureLogger } from './capture-logger.js';

const KEY = 'k'.repeat(32);
const OLD_KEY = 'o'.repeat(32);
const settings = (mode: BusSigningSettings['mode'], keys = [KEY]): BusSigningSettings => ({
  mode,
  keys,
  maxAgeMs: 60_000,
});

describe('signed bus on RabbitMQ', () => {
  let vhost: TestVhost;
  const nodes: BusNode[] = [];
  let raw: amqplib.ChannelModel;
  let channel: amqplib.Channel;
  let server: BusNode;
  let strict: { node: BusNode; refreshes: RefreshBusEvent[] };
  let mixed: { node: BusNode; refreshes: RefreshBusEvent[] };
  /** Signed messages as a raw AMQP consumer saw them: body and headers, for the replay test. */
  const captured: { body: Buffer; headers: Record<string, unknown> }[] = [];

  function member(busId: string, mode: BusSigningSettings['mode']) {
    const log = captureLogger();
    const transport = new AmqpTransport({
      addresses: [`${RABBIT_HOST}:${RABBIT_PORT}`],
      username: RABBIT_USER,
      password: RABBIT_PASSWORD,
      vhost: vhost.name,
      destination: DEFAULT_BUS_DESTINATION,
      connectionName: busId,
      logger: log,
    });
    const node = new BusNode({
      transport,
      busId,
      ackEnabled: true,
      logger: log,
      signing: new MessageSigning(settings(mode)),
      droppedMessageLog: { lines: 100, windowMs: 60_000 },
    });
    nodes.push(node);
    const refreshes: RefreshBusEvent[] = [];
    node.on('refresh', (e) => refreshes.push(e));
    return { node, refreshes, log };
  }

  before(async () => {
    vhost = await createTestVhost();
    server = member('configserver:8888:srv', 'require').node;
    strict = member('orders:8080:strict', 'require');
    mixed = member('billing:8080:mixed', 'sign');
    await Promise.all(nodes.map((node) => node.start()));
    raw = await amqplib.connect(vhost.amqpUrl);
    channel = await raw.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, DEFAULT_BUS_DESTINATION, '#');
    await channel.consume(queue, (msg) => {
      if (msg) captured.push({ body: msg.content, headers: msg.properties.headers ?? {} });
    });
  });

  after(async () => {
    await raw?.close();
    await Promise.all(nodes.map((node) => node.close()));
    await vhost?.remove();
  });

  const publishRaw = (event: object, headers?: Record<string, string>) =>
    channel.publish(DEFAULT_BUS_DESTINATION, DEFAULT_BUS_DESTINATION, Buffer.from(JSON.stringify(event)), {
      contentType: 'application/json',
      ...(headers ? { headers } : {}),
    });

  /** A signed refresh from the server, after the forged ones: once it is handled, they have been seen too. */
  async function signedRefreshHandled(): Promise<RefreshBusEvent> {
    const e = await server.publishRefresh();
    await waitFor('the signed refresh at both nodes', () =>
      [strict, mixed].every((m) => m.refreshes.some((r) => r.id === e.id)),
    );
    return e;
  }

  it('a signed refresh reaches every node, and their signed acks reach the server', async () => {
    const acks: string[] = [];
    server.on('ack', (ack) => acks.push(ack.originService));
    const e = await signedRefreshHandled();
    await waitFor('both acks', () => acks.length === 2);
    assert.ok(
      captured.some((m) => typeof m.headers[SIGNATURE_HEADER] === 'string'),
      'the header is on the wire',
    );
    assert.ok(e.id);
  });

  it('drops and counts a forged unsigned busrefresh in require mode; a mixed-fleet node obeys it', async () => {
    const forged = createRefreshEvent('attacker:1:x');
    publishRaw(forged);
    // The forged message comes over its own connection, so it may arrive after a later signed one: wait for it.
    await waitFor(
      'the forged refresh at both nodes',
      () => strict.node.stats.rejected.unsigned === 1 && mixed.refreshes.some((r) => r.id === forged.id),
    );
    await signedRefreshHandled();
    assert.ok(!strict.refreshes.some((r) => r.id === forged.id), 'require: not obeyed');
    assert.equal(strict.node.stats.rejected.unsigned, 1);
    assert.ok(
      mixed.refreshes.some((r) => r.id === forged.id),
      'sign: obeyed, as a Spring node would',
    );
  });

  it('drops a wrongly signed message everywhere, and a captured signed message sent again', async () => {
    const forged = createRefreshEvent('attacker:1:y');
    publishRaw(forged, {
      [SIGNATURE_HEADER]: new MessageSigning(settings('require', [OLD_KEY])).sign(JSON.stringify(forged))!,
    });
    const original = await signedRefreshHandled();
    for (const m of [strict, mixed]) {
      assert.ok(!m.refreshes.some((r) => r.id === forged.id));
      assert.equal(m.node.stats.rejected['bad-signature'], 1);
    }
    const copy = captured.find((m) => m.body.toString().includes(original.id));
    assert.ok(copy, 'the raw consumer saw the signed refresh');
    channel.publish(DEFAULT_BUS_DESTINATION, DEFAULT_BUS_DESTINATION, copy.body, {
      contentType: 'application/json',
      headers: copy.headers,
    });
    await signedRefreshHandled();
    assert.equal(strict.refreshes.filter((r) => r.id === original.id).length, 1);
    assert.equal(strict.node.stats.rejected.replayed, 1);
  });
});
