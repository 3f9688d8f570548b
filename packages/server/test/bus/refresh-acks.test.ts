// Acks for the refreshes /monitor publishes, collected by the server and listed at GET /actuator/refresh-events:
// two BusNodes act as clients; a hand-built ack (raw amqplib) carries a configVersion.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { BusNode } from '@confbus/bus';
import { silentLogger } from '@confbus/core';
import { amqpBusMember } from '@confbus/testkit/bus-member';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, RABBIT_HOST, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { waitFor } from '@confbus/testkit/wait-for';

interface TrackedRefresh {
  id: string;
  destination: string;
  commit: string;
  publishedAt: string;
  ackCount: number;
  droppedAcks: number;
  acks: Array<{ service: string; afterMs: number; configVersion?: string }>;
}

describe('refresh acks at /actuator/refresh-events', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: TestServer;
  let tap: RawBusTap;
  const clients: BusNode[] = [];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: 0\n', 'bar.yml': 'value: 0\n' });
    vhost = await createTestVhost();
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': RABBIT_HOST,
      'spring.rabbitmq.virtual-host': vhost.name,
    });
    for (const busId of ['foo:8080:one', 'foo:dev:8081:two']) {
      const node = amqpBusMember(vhost.name, { busId, ackEnabled: true, logger: silentLogger });
      clients.push(node);
      await node.start();
      assert.ok(node.connected, `${busId} joined the bus`);
    }
    tap = await openRawBusTap(vhost.amqpUrl);
  });

  after(async () => {
    await tap?.close();
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
    await vhost?.remove();
    await remote?.remove();
  });

  async function refreshEvents(): Promise<TrackedRefresh[]> {
    const response = await server.get('/actuator/refresh-events');
    assert.equal(response.status, 200, response.body);
    return response.json() as TrackedRefresh[];
  }

  async function monitor(path: string): Promise<void> {
    const response = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
    });
    assert.equal(response.status, 200, await response.text());
  }

  it('lists the published event with the acks of both clients', async () => {
    const commit = await remote.commit({ 'foo.yml': 'value: 1\n' });
    await monitor('foo.yml');
    const entry = await waitFor('two acks for the foo refresh', async () => {
      const found = (await refreshEvents()).find((e) => e.destination === 'foo:**' && e.commit === commit);
      return found && found.acks.length >= 2 ? found : undefined;
    });
    assert.equal(entry.commit, commit);
    assert.ok(!Number.isNaN(Date.parse(entry.publishedAt)));
    assert.deepEqual(entry.acks.map((a) => a.service).sort(), ['foo:8080:one', 'foo:dev:8081:two']);
    for (const ack of entry.acks) {
      assert.ok(Number.isInteger(ack.afterMs) && ack.afterMs >= 0, `afterMs ${ack.afterMs}`);
      assert.equal(ack.configVersion, undefined, 'BusNode acks carry no config version');
    }
  });

  it('keeps the configVersion a hand-built ack carries, and lists no ack for an event it did not publish', async () => {
    const commit = await remote.commit({ 'bar.yml': 'value: 1\n' });
    await monitor('bar.yml');
    const published = await waitFor('the bar refresh to be listed', async () =>
      (await refreshEvents()).find((e) => e.destination === 'bar:**' && e.commit === commit),
    );
    const ack = (ackId: string, originService: string, extra: Record<string, unknown> = {}) => ({
      type: 'AckRemoteApplicationEvent',
      timestamp: Date.now(),
      originService,
      destinationService: '**',
      id: randomUUID(),
      ackId,
      ackDestinationService: 'bar:**',
      event: 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent',
      ...extra,
    });
    await tap.publish(ack(published.id, 'bar:8080:java', { configVersion: commit }));
    await tap.publish(ack(randomUUID(), 'bar:8080:stray', { configVersion: commit }));
    // A Spring app with a snake_case Jackson mapper.
    await tap.publish({
      type: 'AckRemoteApplicationEvent',
      timestamp: Date.now(),
      origin_service: 'bar:8080:snake',
      destination_service: '**',
      id: randomUUID(),
      ack_id: published.id,
      ack_destination_service: 'bar:**',
      event: 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent',
      config_version: commit,
    });
    const entry = await waitFor('both hand-built acks', async () => {
      const found = (await refreshEvents()).find((e) => e.id === published.id);
      return found && found.acks.length >= 2 ? found : undefined;
    });
    assert.deepEqual(
      entry.acks.map((a) => [a.service, a.configVersion]),
      [
        ['bar:8080:java', commit],
        ['bar:8080:snake', commit],
      ],
    );
    const all = await refreshEvents();
    assert.ok(!all.some((e) => e.acks.some((a) => a.service === 'bar:8080:stray')));
    assert.equal(all[0]?.id, published.id, 'newest first');
  });

  it('pages the listing, bounds the acks shown, drops acks with oversized fields, and rejects bad parameters', async () => {
    const commit = await remote.commit({ 'bar.yml': 'value: 2\n' });
    await monitor('bar.yml');
    const published = await waitFor('the second bar refresh to be listed', async () =>
      (await refreshEvents()).find((e) => e.destination === 'bar:**' && e.commit === commit),
    );
    const ack = (originService: string) => ({
      type: 'AckRemoteApplicationEvent',
      timestamp: Date.now(),
      originService,
      destinationService: '**',
      id: randomUUID(),
      ackId: published.id,
      ackDestinationService: 'bar:**',
      event: 'org.springframework.cloud.bus.event.RefreshRemoteApplicationEvent',
    });
    // Oversized ids are malformed messages: dropped before they reach the tracker.
    await tap.publish(ack(`bar:8080:${'x'.repeat(600_000)}`));
    for (let i = 0; i < 30; i++) await tap.publish(ack(`bar:8080:forged-${i}`));
    const entry = await waitFor('30 acks', async () => {
      const found = (await refreshEvents()).find((e) => e.id === published.id);
      return found && found.ackCount >= 30 ? found : undefined;
    });
    assert.equal(entry.ackCount, 30);
    assert.ok(entry.acks.every((a) => a.service.length < 100));

    const page = await server.get('/actuator/refresh-events?limit=1&acks=5');
    assert.equal(page.status, 200);
    const events = page.json() as TrackedRefresh[];
    assert.equal(events.length, 1);
    assert.equal(events[0]?.id, published.id);
    assert.equal(events[0]?.acks.length, 5);
    assert.equal(events[0]?.ackCount, 30);
    assert.ok(Number(page.headers.get('x-total-count')) >= 3);
    const second = (await server.get('/actuator/refresh-events?limit=1&offset=1')).json() as TrackedRefresh[];
    assert.notEqual(second[0]?.id, published.id);

    for (const query of ['limit=0', 'limit=abc', 'limit=201', 'offset=-1', 'acks=1e9']) {
      const bad = await server.get(`/actuator/refresh-events?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal((bad.json() as { code: string }).code, 'CONFBUS_BAD_QUERY_PARAMETER');
    }
  });
});
