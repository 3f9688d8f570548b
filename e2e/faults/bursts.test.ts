/**
 * Fault: bursts after a push. A Git host that fires the same push webhook 50 times within a second costs one
 * fetch and one refresh event per service, not 50; a fleet that asks for its configuration 1,000 times at once
 * right after a push costs one upstream fetch and one environment build.
 *
 * The server runs in-process (packages/server/test/server-harness.ts) because the environment build count
 * (`server.environments.builds`) is not exposed over HTTP yet; git checks and fetches are read from
 * /actuator/health as an operator would. A raw amqplib consumer sees exactly what went over the wire.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { type TestServer, startGitTestServer } from '../../packages/server/test/git-server-harness.js';
import { postPushWebhook } from '../support/bus-fleet.js';
import { recordFault } from '../support/fault-report.js';

const WEBHOOKS = 50;
const REQUESTS = 1_000;

interface GitDetails {
  checks: number;
  fetches: number;
}

describe('fault: bursts after a push', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: TestServer;
  let tap: RawBusTap;
  let generation = 0;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'shared: 0\n', 'sample-dev.yml': 'value: 0\n' });
    vhost = await createTestVhost();
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      // 0: every request checks upstream (concurrent ones share a check), so a GET right after a push sees it.
      'spring.cloud.config.server.git.refresh-rate': '0',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': '127.0.0.1',
      'spring.rabbitmq.virtual-host': vhost.name,
    });
    assert.ok(server.server.bus?.connected, 'the server joined the bus');
    tap = await openRawBusTap(vhost.amqpUrl);
  });

  after(async () => {
    await tap?.close();
    await server?.stop();
    await vhost?.remove();
    await remote?.remove();
  });

  async function git(): Promise<GitDetails> {
    const health = (await server.get('/actuator/health')).json() as {
      components: { git: { details: GitDetails } };
    };
    return health.components.git.details;
  }

  const push = () => remote.commit({ 'sample-dev.yml': `value: ${++generation}\n` });

  it(`${WEBHOOKS} webhooks for one push within a second: one fetch, one event per service`, async () => {
    const gitBefore = await git();
    const mark = tap.messages.length;
    await push();
    const startedAt = Date.now();
    // Spread over one second, as a host redelivering (or several hooks on one repository) would send them;
    // each is sent without waiting for the answers to the previous ones.
    const answers = await Promise.all(
      Array.from(
        { length: WEBHOOKS },
        (_, i) =>
          new Promise<{ status: number; json: unknown }>((resolve, reject) => {
            setTimeout(
              () => postPushWebhook(server.base, ['sample-dev.yml']).then(resolve, reject),
              (i * 1000) / WEBHOOKS,
            );
          }),
      ),
    );
    const elapsedMs = Date.now() - startedAt;
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const services = answers[0]!.json as string[];
    assert.ok(services.includes('sample'), JSON.stringify(services));

    const events = (await tap.drain(mark)).filter((m) => m.body.type === 'RefreshRemoteApplicationEvent');
    assert.deepEqual(
      events.map((e) => e.body.destinationService).sort(),
      services.map((service) => `${service}:**`).sort(),
      'exactly one refresh event per service',
    );
    const gitAfter = await git();
    const fetches = gitAfter.fetches - gitBefore.fetches;
    const checks = gitAfter.checks - gitBefore.checks;
    // The refs change once; every later check finds them equal and fetches nothing.
    assert.equal(fetches, 1, `fetches for one push (checks: ${checks})`);
    recordFault({
      fault: `${WEBHOOKS} webhooks for one push in ~1 s`,
      clients: 0,
      outcome: `all 200 in ${elapsedMs} ms; ${checks} upstream checks, ${fetches} fetch; ${events.length} events for ${services.length} services`,
    });
  });

  it(`${REQUESTS} concurrent GET /sample/dev right after a push: one fetch, one environment build`, async () => {
    const gitBefore = await git();
    const buildsBefore = server.server.repositories.builds;
    const commit = await push();
    const startedAt = Date.now();
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, async () => {
        const response = await fetch(`${server.base}/sample/dev`);
        return { status: response.status, body: await response.text() };
      }),
    );
    const elapsedMs = Date.now() - startedAt;
    const versions = new Set<string>();
    for (const answer of answers) {
      assert.equal(answer.status, 200, answer.body);
      versions.add((JSON.parse(answer.body) as { version: string }).version);
    }
    // Each request waits for an upstream check that started after it arrived, so none sees the old commit.
    assert.deepEqual([...versions], [commit]);
    const builds = server.server.repositories.builds - buildsBefore;
    assert.equal(builds, 1, 'the environment was built once for the new commit');
    const gitAfter = await git();
    const fetches = gitAfter.fetches - gitBefore.fetches;
    const checks = gitAfter.checks - gitBefore.checks;
    assert.equal(fetches, 1, `fetches for one push (checks: ${checks})`);
    recordFault({
      fault: `${REQUESTS} concurrent GETs right after a push`,
      clients: REQUESTS,
      outcome: `all 200 on the new commit in ${elapsedMs} ms; ${checks} checks, ${fetches} fetch, ${builds} build`,
    });
  });
});
