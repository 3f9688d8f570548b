/**
 * Several config servers behind one bus, with nothing shared but Git and the broker: three `confbus server`
 * processes in cached mode (refresh-rate an hour: only a webhook or a version hint makes one look upstream) and
 * confbus clients listing all three, most of them first naming a server that did not receive the webhook.
 * Every client ends on the pushed commit, each server's /actuator/refresh-events lists the same event with the
 * same acks, and a server SIGKILLed during the refresh storm costs no failed refresh and leaves no client on
 * the old commit (clients fail over to the next URI within the refresh). Server B sits behind a TCP proxy that can
 * hold its answers back, so the kill lands while B has answered every re-fetch sent to it and none of those
 * answers has reached its client: each of them must fail over.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { silentLogger } from '@confbus/core';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TcpProxy, startTcpProxy } from '@confbus/testkit/tcp-proxy';
import { RABBIT_HOST, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { busSettings, postPushWebhook } from '../support/bus-fleet.js';
import { type RunningServer, startServer, stopFleet } from '../support/fleet.js';

const CLIENTS = 24;

interface RefreshEventJson {
  id: string;
  commit: string;
  ackCount: number;
  acks: Array<{ service: string; configVersion?: string }>;
}

describe('several config servers', () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let servers: RunningServer[];
  /** In front of B: the address half of the clients ask first. */
  let proxyOfB: TcpProxy;
  const clients: ConfigClient[] = [];
  const failures: string[] = [];
  let generation = 0;

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({ 'sample.yml': 'value: 0\n' });
    servers = await Promise.all(
      [0, 1, 2].map(() =>
        startServer({
          'spring.cloud.config.server.git.uri': remote.url,
          'spring.cloud.config.server.git.clone-on-start': true,
          'spring.cloud.config.server.git.refresh-rate': 3600,
          ...busSettings(vhost.name),
        }),
      ),
    );
    proxyOfB = await startTcpProxy(servers[1]!.port);
    const [a, , c] = servers.map((s) => s.base) as [string, string, string];
    const b = `http://127.0.0.1:${proxyOfB.port}`;
    for (let i = 0; i < CLIENTS; i++) {
      // Half first ask B, half first ask C; A (which gets the webhooks) comes last.
      const uris = i % 2 === 0 ? [b, c, a] : [c, b, a];
      const client = await ConfigClient.start({
        args: [
          `--spring.cloud.config.uri=${uris.join(',')}`,
          '--spring.application.name=sample',
          '--spring.cloud.bus.enabled=true',
          `--spring.cloud.bus.id=sample:default:${i + 1}:several`,
          `--spring.rabbitmq.host=${RABBIT_HOST}`,
          `--spring.rabbitmq.virtual-host=${vhost.name}`,
        ],
        env: {},
        cwd: temp.path,
        logger: silentLogger,
      });
      client.on('error', (error) => failures.push(error.message));
      clients.push(client);
    }
    await waitFor('every client on the bus', () => clients.every((c) => c.bus?.connected));
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stopFleet();
    await stopAllNodeProcesses();
    await proxyOfB?.stop();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  const refreshEvents = async (server: RunningServer) =>
    (await (await fetch(`${server.base}/actuator/refresh-events`)).json()) as RefreshEventJson[];

  /** `id@configVersion` of every instance in a server's console fleet view, sorted. */
  const fleetOf = async (server: RunningServer) => {
    const body = (await (await fetch(`${server.base}/-/console/api/fleet`)).json()) as {
      items: Array<{ id: string; configVersion?: string }>;
    };
    return body.items.map((i) => `${i.id}@${i.configVersion}`).sort();
  };

  async function pushAndNotify(): Promise<string> {
    const commit = await remote.commit({ 'sample.yml': `value: ${++generation}\n` });
    const answer = await postPushWebhook(servers[0]!.base, ['sample.yml']);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return commit;
  }

  const onCommit = (commit: string) =>
    waitFor(`every client on ${commit}`, () =>
      clients.every((c) => c.status.version === commit && c.getNumber('value') === generation),
    );

  it('a webhook to one server: clients of the others end on the new commit; refresh-events agree', async () => {
    const commit = await pushAndNotify();
    await onCommit(commit);
    const listings = await waitFor('every server saw every ack', async () => {
      const all = await Promise.all(servers.map(refreshEvents));
      return all.every((events) => events[0]?.commit === commit && events[0].ackCount === CLIENTS) && all;
    });
    const [first, ...others] = listings.map((events) => {
      const e = events[0]!;
      return {
        id: e.id,
        commit: e.commit,
        acks: e.acks.map((a) => `${a.service}@${a.configVersion}`).sort(),
      };
    });
    for (const other of others) assert.deepEqual(other, first);
    assert.ok(first!.acks.every((a) => a.endsWith(`@${commit}`)));
    // The console's fleet view is built from the same acks and presence: every server lists every client
    // on the pushed commit.
    const fleets = await waitFor('every console fleet view lists every client on the commit', async () => {
      const views = await Promise.all(servers.map(fleetOf));
      return (
        views.every((view) => view.length === CLIENTS && view.every((i) => i.endsWith(`@${commit}`))) && views
      );
    });
    for (const view of fleets.slice(1)) assert.deepEqual(view, fleets[0]);
    assert.deepEqual(failures, []);
  });

  /** Environment requests B has answered (read from B itself, not through the proxy). */
  async function answeredByB(): Promise<number> {
    const text = await (await fetch(`${servers[1]!.base}/actuator/prometheus`)).text();
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith('confbus_http_requests_total{method="GET",route="/:name/:profiles",status="200"}'),
      );
    return line === undefined ? 0 : Number(line.split(' ').pop());
  }

  it('a server SIGKILLed during a refresh storm: no failed refresh, no client left on the old commit', async () => {
    const victim = servers[1]!; // B: first in the list of half the clients
    const askingB = CLIENTS / 2;
    const before = await answeredByB();
    // B's answers stay in the proxy: the re-fetches the push causes reach B, and none comes back.
    proxyOfB.hold(true);
    const forwardedBefore = proxyOfB.bytesForwarded;
    const commit = await pushAndNotify();
    await waitFor(
      `B answered the re-fetch of all ${askingB} clients that ask it first`,
      async () => (await answeredByB()) - before >= askingB,
    );
    // Every one of those answers is still in flight: kill B now, mid-storm.
    process.kill(victim.process.pid, 'SIGKILL');
    await victim.process.exited;
    await onCommit(commit);
    // B's answers never left the proxy (still held): every client that asked B got the commit elsewhere.
    assert.equal(proxyOfB.bytesForwarded, forwardedBefore, 'an answer of B reached a client');
    assert.deepEqual(failures, [], 'no refresh failed');
    assert.ok(clients.every((c) => c.status.lastRefreshError === undefined));
    // And the next push still reaches everyone through the two servers left.
    const next = await pushAndNotify();
    await onCommit(next);
    assert.deepEqual(failures, []);
  });
});
