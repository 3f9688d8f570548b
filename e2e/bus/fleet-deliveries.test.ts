/**
 * Deliveries linear in the fleet, counted by the broker: a refresh of N confbus clients costs N + 1 deliveries
 * of the event (each client and the config server) plus N acks, which reach the server only (confbus clients
 * bind their queues to the events' key; acks and presence announcements go out with `springCloudBus.acks`).
 * With Spring's topology (`confbus.bus.ack.routing-key=springCloudBus`) every ack reaches every node: N².
 * Real git, real RabbitMQ, an in-process server and N in-process clients (each with its own connection).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { silentLogger } from '@confbus/core';
import { brokerDeliveries } from '@confbus/testkit/broker-deliveries';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { RABBIT_HOST, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../../packages/server/test/git-server-harness.js';
import { postPushWebhook } from '../support/bus-fleet.js';

const N = 12;

describe('broker deliveries per refresh', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: TestServer;
  let tap: RawBusTap;
  let temp: { path: string; remove: () => Promise<void> };
  let generation = 0;
  const clients: ConfigClient[] = [];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample.yml': 'value: 0\n' });
    vhost = await createTestVhost();
    temp = await makeTempDir();
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '0',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': RABBIT_HOST,
      'spring.rabbitmq.virtual-host': vhost.name,
    });
    tap = await openRawBusTap(vhost.amqpUrl);
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await tap?.close();
    await server?.stop();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  async function startFleet(extra: string[]): Promise<ConfigClient[]> {
    const fleet = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        ConfigClient.start({
          args: [
            `--spring.cloud.config.uri=${server.base}`,
            '--spring.application.name=sample',
            '--spring.cloud.bus.enabled=true',
            `--spring.cloud.bus.id=sample:default:${i + 1}:${extra.length}`,
            `--spring.rabbitmq.host=${RABBIT_HOST}`,
            `--spring.rabbitmq.virtual-host=${vhost.name}`,
            ...extra,
          ],
          env: {},
          cwd: temp.path,
          logger: silentLogger,
        }),
      ),
    );
    clients.push(...fleet);
    // Each client announces itself on joining: once the tap has every announcement, the fleet is quiet.
    const ids = new Set(fleet.map((c) => c.bus?.busId));
    await waitFor('every client announced on the bus', () => {
      const announced = new Set(
        tap.messages
          .filter((m) => m.body.type === 'ConfbusPresenceRemoteApplicationEvent')
          .map((m) => m.body.originService),
      );
      return [...ids].every((id) => announced.has(id));
    });
    return fleet;
  }

  /**
   * Pushes, posts the webhook, waits for every ack; returns the broker's deliveries in between and the
   * messages a tap saw meanwhile.
   */
  async function refresh(fleet: ConfigClient[]): Promise<{ deliveries: number; types: string[] }> {
    const mark = (await tap.drain()).length;
    const before = await brokerDeliveries(vhost.name);
    const commit = await remote.commit({ 'sample.yml': `value: ${++generation}\n` });
    const answer = await postPushWebhook(server.base, ['sample.yml']);
    assert.deepEqual(answer.json, ['sample']);
    await waitFor('every client acked', () => {
      const event = server.server.tracker.list({ limit: 1 }).events[0];
      if (event?.commit !== commit || event.ackCount < fleet.length)
        throw new Error(`acks so far: ${JSON.stringify({ ...event, acks: undefined })}`);
      return event;
    });
    assert.deepEqual(
      fleet.map((c) => [c.getNumber('value'), c.status.lastRefreshError]),
      fleet.map(() => [generation, undefined]),
    );
    const deliveries = (await brokerDeliveries(vhost.name)) - before;
    const types = (await tap.drain(mark)).map((m) => String(m.body.type));
    return { deliveries, types };
  }

  it(`${N} confbus clients: at most 2N + 1 deliveries per refresh, and no other message`, async () => {
    const fleet = await startFleet([]);
    const { deliveries, types } = await refresh(fleet).finally(() =>
      Promise.all(fleet.map((c) => c.close())),
    );
    assert.ok(deliveries <= 2 * N + 1, `${deliveries} deliveries for ${N} clients (at most ${2 * N + 1})`);
    assert.ok(deliveries >= 2 * N + 1, `the counter saw every delivery (${deliveries})`);
    assert.deepEqual(
      [...new Set(types)].sort(),
      ['AckRemoteApplicationEvent', 'RefreshRemoteApplicationEvent'],
      'no presence announcement beside the acks',
    );
  });

  it(`with Spring's topology every ack reaches every node: about N² deliveries`, async () => {
    const fleet = await startFleet(['--confbus.bus.ack.routing-key=springCloudBus']);
    const { deliveries } = await refresh(fleet);
    assert.ok(deliveries >= N * N, `${deliveries} deliveries for ${N} clients (expected at least ${N * N})`);
  });
});
