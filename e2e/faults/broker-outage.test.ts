/**
 * Fault: the broker drops the clients' connections during a bus refresh, briefly or for a while. Every client
 * reconnects by itself and, after a push made during the outage, ends on the new version; none is left stale.
 *
 * The long outage is made deterministic with a RabbitMQ user of the clients' own: with its permissions cleared
 * the broker refuses their reconnects, while the server (guest) stays connected and publishes the refresh
 * event, which the clients therefore miss. They catch up by comparing versions once they are let back in.
 * (Stopping the broker itself, `rabbitmqctl stop_app`, would disturb every other run on this broker: not used.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestRabbitUser, createTestRabbitUser } from '@confbus/testkit/rabbit-user';
import { type TestVhost, closeVhostConnections, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { busSettings, logMessages, postPushWebhook, startBusClient } from '../support/bus-fleet.js';
import { recordFault } from '../support/fault-report.js';
import {
  type RunningClient,
  type RunningServer,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';

const yaml = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;
/** BusNode's line (followed by its fields); the client's catch-up line starts with a capital B. */
const RECONNECTED = 'bus reconnected';
const CAUGHT_UP = /^Bus reconnected: the config server moved from version [0-9a-f]{40} to [0-9a-f]{40}/;

describe('fault: broker connections lost during a bus refresh', () => {
  let vhost: TestVhost;
  let user: TestRabbitUser;
  let remote: GitRemote;
  let server: RunningServer;
  let clients: RunningClient[];
  let tap: RawBusTap;

  before(async () => {
    vhost = await createTestVhost();
    user = await createTestRabbitUser(vhost.name);
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': yaml('v1') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...busSettings(vhost.name),
    });
    clients = await Promise.all(
      [1, 2, 3].map(() =>
        startBusClient(
          {
            'spring.profiles.active': 'dev',
            'spring.cloud.config.uri': server.base,
            ...busSettings(vhost.name),
          },
          user,
        ),
      ),
    );
    await waitUntil('every client on the bus', async () => (await user.countConnections()) === 3);
  });

  after(async () => {
    await tap?.close();
    await stopFleet();
    await stopAllNodeProcesses();
    await user?.remove().catch(() => undefined);
    await vhost?.remove();
    await remote?.remove();
  });

  const comment = async (client: RunningClient) =>
    ((await client.get('/dynamic')).json as { comment: string }).comment;
  const reconnects = (client: RunningClient) =>
    logMessages(client.process).filter((m) => m.startsWith(RECONNECTED)).length;
  const health = async (client: RunningClient) =>
    (await client.get('/actuator/health')).json as {
      details: { version: string };
      components: { bus: { status: string } };
    };
  const busStatus = async (client: RunningClient) => (await health(client)).components.bus.status;

  /** Waits until every client serves `expected`; returns the elapsed ms. */
  const allOn = (expected: string) =>
    waitUntil(
      `every client to serve comment ${expected}`,
      async () => (await Promise.all(clients.map(comment))).every((c) => c === expected),
      60_000,
    );

  it('connections closed while a push is announced: all reconnect and end on the new version', async () => {
    const before = clients.map(reconnects);
    const marks = clients.map((client) => client.process.lines.length);
    await remote.commit({ 'sample-dev.yml': yaml('v2') });
    // The broker closes every connection of the vhost (the server's too), one after the other; the webhook
    // goes in as soon as the first client has lost its connection, so the refresh is announced mid-outage.
    // Whatever the interleaving, no client may stay on v1. A 5xx (the server's own connection was down) is
    // redelivered, as a Git host does.
    const closing = closeVhostConnections(vhost.name);
    await waitUntil('a client to lose its bus connection', () =>
      clients.some((client, i) =>
        logMessages(client.process, marks[i]).some((m) => m.startsWith('bus connection lost')),
      ),
    );
    const statuses: number[] = [];
    await waitUntil(
      'the webhook to be accepted',
      async () => {
        statuses.push((await postPushWebhook(server.base, ['sample-dev.yml'])).status);
        return statuses.at(-1) === 200;
      },
      60_000,
    );
    const closed = await closing;
    const closedAt = Date.now();
    assert.ok(closed >= 4, `closed ${closed} connections (3 clients and the server)`);
    await waitUntil(
      'every client to reconnect',
      () => clients.every((client, i) => reconnects(client) > before[i]!),
      60_000,
    );
    await allOn('v2');
    const convergeMs = Date.now() - closedAt;
    for (const client of clients) assert.equal(await busStatus(client), 'UP');
    // How each got there: the event itself, or the version check after reconnecting (it missed the event).
    const caughtUp = clients.filter((client, i) =>
      logMessages(client.process, marks[i]).some((m) => CAUGHT_UP.test(m)),
    ).length;
    recordFault({
      fault: 'broker closes all bus connections during push+webhook',
      clients: clients.length,
      outcome:
        `${closed} connections closed; webhook answers ${statuses.join(',')}; all reconnected; ` +
        `all on the new version (${caughtUp} by the version check after reconnecting)`,
      convergeMs,
    });
  });

  it('clients kept off the broker while the event goes out catch up once let back in', async () => {
    // A raw consumer as guest, unaffected by the clients' user: it sees the event go out.
    tap = await openRawBusTap(vhost.amqpUrl);
    const marks = clients.map((client) => client.process.lines.length);
    await user.revoke();
    assert.equal(await user.closeConnections(), 3);
    await waitUntil(
      'every client to see its bus connection go',
      async () => (await Promise.all(clients.map(busStatus))).every((s) => s === 'DOWN'),
      60_000,
    );
    // From here on their reconnects are refused (the client does not log each refused attempt; the broker's
    // connection list below is the evidence that none got through).
    const commit = await remote.commit({ 'sample-dev.yml': yaml('v3') });
    const mark = tap.messages.length;
    const webhook = await postPushWebhook(server.base, ['sample-dev.yml']);
    assert.equal(webhook.status, 200, JSON.stringify(webhook.json));
    const events = (await tap.drain(mark)).filter((m) => m.body.type === 'RefreshRemoteApplicationEvent');
    const services = webhook.json as string[];
    assert.ok(services.includes('sample'), JSON.stringify(services));
    assert.deepEqual(
      events.map((e) => e.body.destinationService),
      services.map((service) => `${service}:**`),
      'the server published the refresh while the clients were away',
    );
    // Their queues are exclusive, so they went with the connections: nobody was there to receive it.
    assert.equal(await user.countConnections(), 0, 'no client got back in');
    for (const client of clients) {
      assert.equal(await busStatus(client), 'DOWN');
      assert.equal(await comment(client), 'v2', 'the event was missed');
    }

    await user.restore();
    const restoredAt = Date.now();
    await allOn('v3');
    const convergeMs = Date.now() - restoredAt;
    for (const [i, client] of clients.entries()) {
      const logged = logMessages(client.process, marks[i]);
      assert.ok(
        logged.some((m) => CAUGHT_UP.test(m) && m.includes(commit)),
        `caught up through the version check after reconnecting:\n${logged.join('\n')}`,
      );
      const after = await health(client);
      assert.equal(after.details.version, commit);
      assert.equal(after.components.bus.status, 'UP');
    }
    recordFault({
      fault: 'clients refused by the broker while a push is announced',
      clients: clients.length,
      outcome: `${events.length} event(s) missed by all; all caught up after reconnecting`,
      convergeMs,
    });
  });
});
