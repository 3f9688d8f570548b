/**
 * The version hint end to end: real git, real RabbitMQ, two `confbus server` processes and sample clients.
 * A webhook to server A announces the pushed commit in its refresh events; a client of server B (cached mode,
 * which has not fetched) re-fetches with that hint, so B fetches once and answers with the new commit; a client
 * of A (refresh-rate 0, already at the commit) is answered without another upstream check.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { busSettings, postPushWebhook } from '../support/bus-fleet.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';

const yaml = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;

interface GitDetails {
  checks: number;
  fetches: number;
}

describe('version hint across two config servers', () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let serverA: RunningServer;
  let serverB: RunningServer;
  let clientOfA: RunningClient;
  let clientOfB: RunningClient;
  let tap: RawBusTap;

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': yaml('v1') });
    const common = {
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.clone-on-start': true,
      ...busSettings(vhost.name),
    };
    [serverA, serverB] = await Promise.all([
      startServer({ ...common, 'spring.cloud.config.server.git.refresh-rate': 0 }),
      // Cached mode: without a hint, B would serve its mirror's commit for an hour.
      startServer({ ...common, 'spring.cloud.config.server.git.refresh-rate': 3600 }),
    ]);
    const client = (server: RunningServer) =>
      startClient({
        'spring.profiles.active': 'dev',
        'spring.cloud.config.uri': server.base,
        ...busSettings(vhost.name),
      });
    [clientOfA, clientOfB] = await Promise.all([client(serverA), client(serverB)]);
    tap = await openRawBusTap(vhost.amqpUrl);
  });

  after(async () => {
    await tap?.close();
    await stopFleet();
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
  });

  const comment = async (client: RunningClient) =>
    ((await client.get('/dynamic')).json as { comment: string }).comment;
  const git = async (server: RunningServer) =>
    (await server.health()).components.git!.details as unknown as GitDetails;

  it('a webhook to A: both clients end on the pushed commit, B fetching once, A checking no more', async () => {
    assert.equal(await comment(clientOfB), 'v1');
    const pushed = await remote.commit({ 'sample-dev.yml': yaml('v2') });
    const mark = tap.messages.length;
    const [gitA, gitB] = await Promise.all([git(serverA), git(serverB)]);
    const answer = await postPushWebhook(serverA.base, ['sample-dev.yml']);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));

    await waitUntil('both clients serve v2', async () => {
      const [a, b] = await Promise.all([comment(clientOfA), comment(clientOfB)]);
      return a === 'v2' && b === 'v2';
    });
    // One event per service the changed file may feed (`sample-dev`, `sample`); the clients are `sample`.
    const events = (await tap.drain(mark)).filter((m) => m.body.type === 'RefreshRemoteApplicationEvent');
    assert.ok(events.length > 0);
    for (const e of events) assert.equal(e.body.configVersion, pushed, 'each event announces the commit');
    const event = events.find((e) => e.body.destinationService === 'sample:**');

    const [afterA, afterB] = await Promise.all([git(serverA), git(serverB)]);
    // The webhook's own check; refresh-rate 0 would add one for the client's re-fetch without the hint.
    assert.equal(afterA.checks, gitA.checks + 1, 'A already had the commit: no check for its client');
    assert.equal(afterB.checks, gitB.checks + 1, 'B checked upstream once for the hint');
    assert.equal(afterB.fetches, gitB.fetches + 1);
    const acksOf = async () =>
      (await tap.drain(mark)).filter(
        (m) => m.body.type === 'AckRemoteApplicationEvent' && m.body.ackId === event?.body.id,
      );
    await waitUntil('both clients acked', async () => (await acksOf()).length >= 2);
    const acks = await acksOf();
    assert.deepEqual(
      acks.map((m) => m.body.configVersion),
      [pushed, pushed],
      'both clients acked serving the pushed commit',
    );
  });
});
