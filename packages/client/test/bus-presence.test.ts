// Fleet presence from the client's side, over a real RabbitMQ (own vhost) seen through a raw tap: the client
// announces itself when it joins the bus, after a local refresh (with its new version), when asked, and when it
// leaves; after a bus refresh its ack says the version instead. Replies go out with the reply routing key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import {
  createPresenceRequest,
  createRefreshEvent,
  decodeBusEvent,
  encodeBusEvent,
  readPresenceAnnouncement,
} from '@confbus/core';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import {
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  type TestVhost,
  createTestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { type StubConfigServer, startStubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

const BUS_ID = 'app:dev,eu:7:presence';

describe('client presence on the bus', () => {
  let stub: StubConfigServer;
  let vhost: TestVhost;
  let tap: RawBusTap;
  let temp: { path: string; remove: () => Promise<void> };
  let client: ConfigClient | undefined;

  const publish = (version: string) =>
    stub.setEnvironment('app', 'dev,eu', {
      version,
      propertySources: [{ name: 'repo/app.yml', source: { a: version } }],
    });

  const announcements = () =>
    tap.messages.flatMap((message) => {
      const announcement = readPresenceAnnouncement(decodeBusEvent(message.raw));
      return announcement ? [announcement] : [];
    });

  before(async () => {
    stub = await startStubConfigServer();
    vhost = await createTestVhost();
    tap = await openRawBusTap(vhost.amqpUrl);
    temp = await makeTempDir();
    publish('1'.repeat(40));
  });

  after(async () => {
    await client?.close();
    await tap?.close();
    await vhost?.remove();
    await stub?.stop();
    await temp?.remove();
  });

  it('announces on joining, after a refresh, on request and when leaving', async () => {
    client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=app',
        '--spring.profiles.active=dev,eu',
        '--spring.cloud.bus.enabled=true',
        `--spring.cloud.bus.id=${BUS_ID}`,
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        `--spring.rabbitmq.username=${RABBIT_USER}`,
        `--spring.rabbitmq.password=${RABBIT_PASSWORD}`,
      ],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    const joined = await waitFor('the announcement on joining', () => announcements()[0]);
    assert.equal(joined.service, BUS_ID);
    assert.deepEqual(
      [joined.application, joined.profiles, joined.label, joined.configVersion, joined.leaving],
      ['app', ['dev', 'eu'], null, '1'.repeat(40), false],
    );
    assert.ok(joined.startedAt <= joined.timestamp);

    publish('2'.repeat(40));
    await client.refresh();
    await waitFor('an announcement of the new version', () =>
      announcements().some((a) => a.configVersion === '2'.repeat(40)),
    );

    const before = announcements().length;
    await tap.publish(
      JSON.parse(encodeBusEvent(createPresenceRequest('configserver:8888:x'))) as Record<string, unknown>,
    );
    await waitFor('an answer to the presence request', () => announcements().length > before);

    // A refresh for a bus event: its ack says the new version, so no announcement follows (one reply, not two).
    publish('3'.repeat(40));
    const event = createRefreshEvent('configserver:8888:x', 'app:**');
    const afterRequest = announcements().length;
    await tap.publish(JSON.parse(encodeBusEvent(event)) as Record<string, unknown>);
    const ack = await waitFor('the ack', () =>
      tap.messages.find((m) => m.body.type === 'AckRemoteApplicationEvent' && m.body.ackId === event.id),
    );
    assert.equal(ack.body.configVersion, '3'.repeat(40));
    await tap.drain();
    assert.equal(announcements().length, afterRequest, 'no announcement after a bus refresh');
    // Replies go out with the reply key, which other confbus nodes (bound to `springCloudBus` only) never get.
    assert.equal(ack.routingKey, 'springCloudBus.acks');
    const replyKeys = new Set(
      tap.messages.filter((m) => readPresenceAnnouncement(decodeBusEvent(m.raw))).map((m) => m.routingKey),
    );
    assert.deepEqual([...replyKeys], ['springCloudBus.acks']);

    await client.close();
    client = undefined;
    await tap.drain();
    assert.equal(announcements().at(-1)?.leaving, true);
  });
});
