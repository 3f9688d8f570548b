// A client's /actuator/prometheus with the bus on: a client in process against a stub config server and a real
// RabbitMQ (own vhost); events put on the wire by a raw amqplib tap, the counts read back from the exposition.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigClient, createManagementHandler } from '@confbus/client';
import { waitFor } from '@confbus/testkit/wait-for';
import { metricSample } from '@confbus/testkit/prometheus-text';
import {
  createTestVhost,
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  type TestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

const BUS_ID = 'app:dev:8080:metrics';
const REFRESH = 'RefreshRemoteApplicationEvent';
const ACK = 'AckRemoteApplicationEvent';

describe('client bus metrics', () => {
  let stub: StubConfigServer;
  let vhost: TestVhost;
  let temp: { path: string; remove: () => Promise<void> };
  let client: ConfigClient;
  let server: Server;
  let url: string;
  let tap: RawBusTap;

  before(async () => {
    stub = await startStubConfigServer();
    stub.setEnvironment('app', 'dev', {
      version: '1'.padStart(40, '0'),
      propertySources: [{ name: 'repo/app.yml', source: { 'group.comment': 'one' } }],
    });
    vhost = await createTestVhost();
    temp = await makeTempDir();
    tap = await openRawBusTap(vhost.amqpUrl);
    client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=app',
        '--spring.profiles.active=dev',
        '--management.endpoints.web.exposure.include=prometheus,busrefresh',
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
    const handler = createManagementHandler(client);
    server = createServer((req, res) => {
      if (!handler(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await client?.close();
    await tap?.close();
    await vhost?.remove();
    await stub?.stop();
    await temp?.remove();
  });

  const scrape = async () => (await fetch(`${url}/actuator/prometheus`)).text();

  it('says the bus is connected, with no traffic counted yet', async () => {
    assert.equal(client.busState.state, 'started');
    const text = await scrape();
    assert.equal(metricSample(text, 'confbus_bus_connected'), 1);
    for (const series of [
      'confbus_bus_publish_failures_total',
      'confbus_bus_messages_dropped_total',
      'confbus_bus_refreshes_handled_total',
      'confbus_bus_reconnects_total',
    ]) {
      assert.equal(metricSample(text, series), 0, series);
    }
    assert.match(text, /^# TYPE confbus_bus_events_published_total counter$/m);
    assert.match(text, /^# TYPE confbus_bus_events_received_total counter$/m);
  });

  it('counts its busrefresh, an event from another node it handles and acks, and a malformed message', async () => {
    const count = (text: string, series: string) => metricSample(text, series) ?? 0;
    const before = await scrape();
    const was = (series: string) => count(before, series);

    // Its own busrefresh: published, and received back from the exchange (ignored as its own).
    assert.equal((await fetch(`${url}/actuator/busrefresh`, { method: 'POST' })).status, 204);
    // Another node's refresh for everyone: handled, then acked.
    await tap.publish({
      type: REFRESH,
      timestamp: Date.now(),
      originService: 'other:8080:abc',
      destinationService: '**',
      id: '4d1b3a8e-6a6e-4d7e-9f0e-0a1b2c3d4e5f',
    });
    await tap.publish({ type: REFRESH, id: 42 }); // not a valid event: dropped
    const published = (type: string) => `confbus_bus_events_published_total{type="${type}"}`;
    const received = (type: string) => `confbus_bus_events_received_total{type="${type}"}`;
    // The ack goes out once the refresh it acknowledges has finished; the malformed message came after it.
    const text = await waitFor('the ack and the malformed message to be counted', async () => {
      const current = await scrape();
      const done =
        count(current, published(ACK)) === 1 && count(current, 'confbus_bus_messages_dropped_total') === 1;
      return done ? current : undefined;
    });
    assert.equal(count(text, published(REFRESH)) - was(published(REFRESH)), 1, 'its busrefresh');
    assert.equal(
      count(text, received(REFRESH)) - was(received(REFRESH)),
      2,
      'its own back, and the other one',
    );
    assert.equal(count(text, 'confbus_bus_refreshes_handled_total'), 1, "the other node's refresh");
    assert.equal(count(text, 'confbus_bus_publish_failures_total'), 0);
    assert.equal(metricSample(text, 'confbus_bus_connected'), 1);
    // Both refreshes show in the client's own counter too.
    assert.equal(count(text, 'confbus_client_refreshes_total{outcome="success"}'), 2);
  });
});
