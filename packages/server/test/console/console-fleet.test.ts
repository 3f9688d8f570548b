// The console's fleet and refresh views over a real RabbitMQ (own vhost), with a raw tap playing the other nodes:
// a confbus node known by its announcement, a Spring node known by its ack of the server's presence request,
// current / same-config / lagging states after a push, a bus refresh published from the console with its ack
// timeline, presence, a webhook's refresh and acks streamed live (server-sent events), an instance of a named
// repository's application stood against that repository, and a leaving node dropped.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PRESENCE_REQUEST_EVENT_TYPE, createPresenceAnnouncement, encodeBusEvent } from '@confbus/core';
import { waitFor } from '@confbus/testkit/confbus-processes';
import { openEventStream } from '@confbus/testkit/event-stream';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { RABBIT_HOST, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Instance {
  id: string;
  kind: string;
  application: string;
  configVersion: string | null;
  state: string;
  latest: string | null;
}

describe('console fleet over the bus', () => {
  let remote: GitRemote;
  /** A named repository (repos.team, pattern payments*): its instances stand against its own commits. */
  let team: GitRemote;
  let teamFirst: string;
  let vhost: TestVhost;
  let server: TestServer;
  let tap: RawBusTap;
  let first: string;

  before(async () => {
    remote = await createGitRemote();
    first = await remote.commit({ 'orders.yml': 'limit: 1\n', 'billing.yml': 'rate: 1\n' });
    team = await createGitRemote('team');
    teamFirst = await team.commit({ 'payments.yml': 'fee: 1\n' });
    vhost = await createTestVhost();
    tap = await openRawBusTap(vhost.amqpUrl);
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': RABBIT_HOST,
      'spring.rabbitmq.virtual-host': vhost.name,
      'confbus.console.presence-interval': '30',
      'spring.cloud.config.server.git.repos.team.uri': team.url,
      'spring.cloud.config.server.git.repos.team.pattern': 'payments*',
    });
  });

  after(async () => {
    await server?.stop();
    await tap?.close();
    await vhost?.remove();
    await remote?.remove();
    await team?.remove();
  });

  const announce = (service: string, application: string, configVersion: string, leaving = false) =>
    tap.publish(
      JSON.parse(
        encodeBusEvent(
          createPresenceAnnouncement(service, {
            application,
            profiles: ['default'],
            label: null,
            configVersion,
            startedAt: Date.now() - 1000,
            leaving,
          }),
        ),
      ) as Record<string, unknown>,
    );

  const ack = (
    origin: string,
    ackId: string,
    event: string,
    configVersion?: string,
    outcome?: { outcome: string; reason?: string },
  ) =>
    tap.publish({
      type: 'AckRemoteApplicationEvent',
      timestamp: Date.now(),
      originService: origin,
      destinationService: '**',
      id: randomUUID(),
      ackId,
      ackDestinationService: '**',
      event: `org.springframework.cloud.bus.event.${event}`,
      ...(configVersion ? { configVersion } : {}),
      ...outcome,
    });

  const fleet = async () => {
    const response = await server.get('/-/console/api/fleet');
    assert.equal(response.status, 200, response.body);
    return response.json() as { items: Instance[]; counts: Record<string, number> };
  };

  it('lists confbus nodes by announcement and Spring nodes by their ack of a presence request', async () => {
    await announce('orders:default:1:a', 'orders', first);
    await announce('billing:default:2:b', 'billing', first);
    const request = await waitFor('a presence request from the server', () =>
      tap.messages.find((m) => m.body.type === PRESENCE_REQUEST_EVENT_TYPE),
    );
    assert.equal(request.body.destinationService, '**', 'addressed to every node, so Spring nodes ack it');
    await ack('legacy:8080:java', String(request.body.id), 'UnknownRemoteApplicationEvent');
    const listed = await waitFor('three instances', async () => {
      const now = await fleet();
      return now.items.length === 3 ? now : undefined;
    });
    assert.deepEqual(
      listed.items.map((i) => [i.id, i.kind, i.application, i.state]),
      [
        ['billing:default:2:b', 'confbus', 'billing', 'current'],
        ['legacy:8080:java', 'spring', 'legacy', 'unknown'],
        ['orders:default:1:a', 'confbus', 'orders', 'current'],
      ],
    );
    const overview = (await server.get('/-/console/api/overview')).json() as {
      counts: { instances: number };
    };
    assert.equal(overview.counts.instances, 3);
  });

  it('after a push: lagging where the configuration changed, same-config where it did not', async () => {
    const second = await remote.commit({ 'orders.yml': 'limit: 2\n' });
    await server.get('/orders/default'); // an upstream check
    const states = await waitFor('states against the new commit', async () => {
      const now = await fleet();
      return now.items.every((i) => i.kind === 'spring' || i.latest === second) ? now : undefined;
    });
    const byId = new Map(states.items.map((i) => [i.id, i]));
    assert.equal(byId.get('orders:default:1:a')?.state, 'lagging');
    assert.equal(byId.get('billing:default:2:b')?.state, 'same-config');
    assert.equal(states.counts.lagging, 1);
    const lagging = (await server.get('/-/console/api/fleet?state=lagging')).json() as { items: Instance[] };
    assert.deepEqual(
      lagging.items.map((i) => i.id),
      ['orders:default:1:a'],
    );
  });

  it('publishes a bus refresh from the console and shows its acks as a timeline', async () => {
    const session = (await server.get('/-/console/api/session')).json() as { csrfToken: string };
    const response = await fetch(`${server.base}/-/console/api/bus-refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-confbus-csrf': session.csrfToken },
      body: JSON.stringify({ target: 'application', application: 'orders' }),
    });
    assert.equal(response.status, 202);
    const published = (await response.json()) as { id: string; destination: string; commit: string };
    assert.equal(published.destination, 'orders:**');
    const onWire = await waitFor('the refresh event on the bus', () =>
      tap.messages.find((m) => m.body.id === published.id),
    );
    assert.equal(onWire.body.type, 'RefreshRemoteApplicationEvent');

    await ack('orders:default:1:a', published.id, 'RefreshRemoteApplicationEvent', published.commit);
    await ack('legacy:8080:java', published.id, 'RefreshRemoteApplicationEvent');
    const event = await waitFor('both acks', async () => {
      const view = (await server.get(`/-/console/api/refresh-events/${published.id}`)).json() as {
        ackCount: number;
        onCommit: number;
        timeline: Array<{ acked: number; onCommit: number }>;
        diffTarget: { application: string };
        acks: Array<{ service: string }>;
      };
      return view.ackCount === 2 ? view : undefined;
    });
    assert.equal(event.onCommit, 1);
    assert.deepEqual(
      event.timeline.map((p) => p.acked),
      [1, 2],
    );
    assert.equal(event.timeline.at(-1)?.onCommit, 1);
    assert.equal(event.diffTarget.application, 'orders');
    const orders = (await fleet()).items.find((i) => i.id === 'orders:default:1:a');
    assert.deepEqual([orders?.configVersion, orders?.state], [published.commit, 'current']);
  });

  it('shows per instance whether a refresh was applied, rejected (with the reason) or never answered', async () => {
    for (const id of ['orders:default:2:applies', 'orders:default:2:rejects', 'orders:default:2:silent'])
      await announce(id, 'orders', first);
    await waitFor('three orders instances in the fleet', async () =>
      (await fleet()).items.filter((i) => i.id.startsWith('orders:default:2:')).length === 3
        ? true
        : undefined,
    );
    const session = (await server.get('/-/console/api/session')).json() as { csrfToken: string };
    const response = await fetch(`${server.base}/-/console/api/bus-refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-confbus-csrf': session.csrfToken },
      body: JSON.stringify({ target: 'application', application: 'orders' }),
    });
    const published = (await response.json()) as { id: string; commit: string };
    const reason = 'the new configuration is rejected by the application schema: limit must be >= 5';
    await ack('orders:default:2:applies', published.id, 'RefreshRemoteApplicationEvent', published.commit, {
      outcome: 'applied',
    });
    await ack('orders:default:2:rejects', published.id, 'RefreshRemoteApplicationEvent', first, {
      outcome: 'rejected',
      reason,
    });
    type Ack = { service: string; outcome: string; reason?: string };
    type View = { ackCount: number; rejected: number; acks: Ack[]; silent: string[]; silentCount: number };
    const event = await waitFor('both acks', async () => {
      const view = (await server.get(`/-/console/api/refresh-events/${published.id}`)).json() as View;
      return view.ackCount === 2 ? view : undefined;
    });
    assert.equal(event.rejected, 1);
    const byService = new Map(event.acks.map((a) => [a.service, a]));
    assert.deepEqual(byService.get('orders:default:2:applies'), {
      service: 'orders:default:2:applies',
      afterMs: (byService.get('orders:default:2:applies') as { afterMs: number } | undefined)?.afterMs,
      configVersion: published.commit,
      outcome: 'applied',
    });
    assert.equal(byService.get('orders:default:2:rejects')?.outcome, 'rejected');
    assert.equal(byService.get('orders:default:2:rejects')?.reason, reason);
    assert.ok(event.silent.includes('orders:default:2:silent'), event.silent.join(', '));
    assert.ok(!event.silent.some((id) => id.endsWith(':applies') || id.endsWith(':rejects')));
    assert.ok(
      !event.silent.some((id) => !id.startsWith('orders:')),
      'only instances the destination addresses',
    );
    assert.equal(event.silentCount, event.silent.length);

    type Refreshed = Instance & { lastRefresh: { outcome: string; reason?: string } | null };
    const items = (await fleet()).items as Refreshed[];
    const lastOf = (id: string) => items.find((i) => i.id === id)?.lastRefresh;
    assert.equal(lastOf('orders:default:2:applies')?.outcome, 'applied');
    assert.deepEqual(
      [lastOf('orders:default:2:rejects')?.outcome, lastOf('orders:default:2:rejects')?.reason],
      ['rejected', reason],
    );
    assert.equal(lastOf('orders:default:2:silent'), null);
    const actuator = (await server.get('/actuator/refresh-events')).json() as Array<{
      id: string;
      rejectedAcks: number;
    }>;
    const listed = actuator.find((e) => e.id === published.id);
    assert.equal(listed?.rejectedAcks, 1);
  });

  it('streams presence, a webhook refresh and its acks live to an open console', async () => {
    const stream = await openEventStream(`${server.base}/-/console/api/events`);
    try {
      await announce('shipping:default:9:z', 'shipping', first);
      const joined = await waitFor('the presence event', () =>
        stream.find<{ service: string; leaving: boolean }>(
          'presence',
          (d) => d.service === 'shipping:default:9:z',
        ),
      );
      assert.equal(joined.leaving, false);

      const webhook = await fetch(`${server.base}/monitor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: ['orders.yml'] }),
      });
      assert.equal(webhook.status, 200, await webhook.text());
      const refresh = await waitFor('the refresh event of the webhook', () =>
        stream.find<{ id: string; destination: string }>('refresh', (d) => d.destination === 'orders:**'),
      );
      await ack('orders:default:1:a', refresh.id, 'RefreshRemoteApplicationEvent', first);
      const acked = await waitFor('the ack event', () =>
        stream.find<{ ackId: string; service: string; configVersion: string | null }>(
          'ack',
          (d) => d.ackId === refresh.id,
        ),
      );
      assert.deepEqual([acked.service, acked.configVersion], ['orders:default:1:a', first]);

      await announce('shipping:default:9:z', 'shipping', first, true);
      await waitFor('the leaving event', () =>
        stream.find<{ service: string; leaving: boolean }>('presence', (d) => d.leaving),
      );
    } finally {
      stream.close();
    }
  });

  it("stands an instance of a named repository's application against that repository, and refreshes it with its commit", async () => {
    await announce('payments:default:3:c', 'payments', teamFirst);
    const payments = async () => (await fleet()).items.find((i) => i.id === 'payments:default:3:c');
    const current = await waitFor('payments in the fleet', payments);
    assert.deepEqual([current.state, current.latest], ['current', teamFirst]);

    const teamSecond = await team.commit({ 'payments.yml': 'fee: 2\n' });
    await server.get('/payments/default'); // an upstream check of the team repository
    const lagging = await waitFor('payments against the new team commit', async () => {
      const now = await payments();
      return now?.latest === teamSecond ? now : undefined;
    });
    assert.equal(lagging.state, 'lagging');

    const session = (await server.get('/-/console/api/session')).json() as { csrfToken: string };
    const response = await fetch(`${server.base}/-/console/api/bus-refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-confbus-csrf': session.csrfToken },
      body: JSON.stringify({ target: 'application', application: 'payments' }),
    });
    assert.equal(response.status, 202);
    const published = (await response.json()) as { commit: string };
    assert.equal(published.commit, teamSecond, "the team repository's commit, which payments will fetch");
  });

  it('drops a node that announces it is leaving', async () => {
    await announce('billing:default:2:b', 'billing', first, true);
    await waitFor(
      'billing gone',
      async () => !(await fleet()).items.some((i) => i.id === 'billing:default:2:b'),
    );
  });
});
