// Staged rollouts across server processes: a `confbus server` and a second replica on one Git remote (the
// rollouts' state is a ref both read), both on a RabbitMQ vhost of their own, and `confbus sample-client`
// processes fetching from the first. The replica answers every instance as the first does; the first restarts
// in the middle of a running rollout, reads it back, answers everyone as before and goes on judging it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  getJson,
  reserveFreePort,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
  type ConfbusProcess,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { createTestVhost, RABBIT_HOST, RABBIT_PORT, type TestVhost } from '@confbus/testkit/rabbit-vhost';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const FLEET = 4;
const yaml = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;

interface RolloutView {
  status: string;
  wave: number;
  picked: string[][];
  decisions: Array<{ action: string; by: string; reason: string }>;
  instances: Array<{ id: string; health: { status: string } | null }>;
}

describe('staged rollouts across a server restart and two replicas', { timeout: 600_000 }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let port: number;
  let server: ConfbusProcess;
  let replica: ConfbusProcess;
  const clients = new Map<string, ConfbusProcess>();

  const startServer = (basedir: string, atPort: number) =>
    startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/${basedir}`,
      cwd: temp.path,
      port: atPort,
      args: [
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        '--confbus.server.rollouts.report-interval-ms=500',
        '--confbus.server.rollouts.tick-ms=250',
        '--confbus.server.rollouts.sync-ms=500',
        '--confbus.server.rollouts.silence-ms=8000',
      ],
    });
  const comment = async (id: string) =>
    ((await getJson(`${clients.get(id)!.url}/dynamic`)).body as { comment: string }).comment;
  const onComment = async (value: string) => {
    const ids: string[] = [];
    for (const id of clients.keys()) if ((await comment(id).catch(() => '')) === value) ids.push(id);
    return ids;
  };
  const rollout = async (base: string, id: string) =>
    (await getJson(`${base}/-/rollouts/${id}`)).body as RolloutView;
  /** The commit each of these instances is served by `base`: the fleet, and ids no process has. */
  const ids = () => [...clients.keys(), ...Array.from({ length: 20 }, (_, index) => `elsewhere-${index}`)];
  const answers = async (base: string) => {
    const out: string[] = [];
    for (const id of ids()) {
      const response = await fetch(`${base}/sample/default`, { headers: { 'x-confbus-instance-id': id } });
      out.push(((await response.json()) as { version: string }).version);
    }
    return out;
  };

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({ 'sample.yml': yaml('first') });
    port = await reserveFreePort();
    [server, replica] = await Promise.all([startServer('mirror', port), startServer('replica', 0)]);
    for (let index = 0; index < FLEET; index++) {
      const id = `sample-${index}`;
      clients.set(
        id,
        await startSampleClientProcess(
          [
            '--server.port=0',
            '--spring.application.name=sample',
            `--spring.cloud.config.uri=${server.url}`,
            `--confbus.client.instance-id=${id}`,
            '--spring.cloud.bus.enabled=true',
            `--spring.rabbitmq.host=${RABBIT_HOST}`,
            `--spring.rabbitmq.port=${RABBIT_PORT}`,
            `--spring.rabbitmq.virtual-host=${vhost.name}`,
          ],
          {},
          { cwd: temp.path, timeoutMs: 120_000 },
        ),
      );
    }
  });
  after(async () => {
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  it('the replica answers like the first server; a restart mid-rollout resumes it, judge included', async () => {
    const A = ((await getJson(`${server.url}/sample/default`)).body as { version: string }).version;
    const B = await remote.commit({ 'sample.yml': yaml('second') }, { branch: 'next' });
    const response = await fetch(`${server.url}/-/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application: 'sample', from: A, to: B, waves: '1,40%,100%', bakeSeconds: 3600 }),
    });
    assert.equal(response.status, 201);
    const id = ((await response.json()) as { id: string }).id;
    await remote.git('push', '--quiet', 'origin', `${B}:refs/heads/master`);
    const [canary] = await waitFor('the canary serves B', async () => {
      const onB = await onComment('second');
      return onB.length === 1 && onB;
    });

    // The replica reads the same ref: once it has the canary's pick, every instance gets the same commit.
    await waitFor(
      'the replica has the pick',
      async () => (await rollout(replica.url, id)).picked?.[0]?.[0] === canary,
    );
    const before = await answers(server.url);
    assert.deepEqual(await answers(replica.url), before, 'both replicas answer every instance alike');
    assert.deepEqual(
      ids().filter((_, index) => before[index] === B),
      [canary],
      'only the canary is served B (wave 1: one instance)',
    );

    // Restarted mid-rollout, on the same port: the rollout is read back before the port opens.
    await server.process.stop();
    server = await startServer('mirror', port);
    const resumed = await rollout(server.url, id);
    assert.deepEqual([resumed.status, resumed.wave, resumed.picked], ['running', 0, [[canary]]]);
    assert.deepEqual(await answers(server.url), before, 'every instance is answered as before the restart');

    // It goes on judging: the canary reports to the restarted server, then goes silent (stopped) and the
    // restarted server's judge rolls back; the replica follows.
    await waitFor('the canary reports to the restarted server', async () =>
      (await rollout(server.url, id)).instances.some((i) => i.id === canary && i.health !== null),
    );
    await clients.get(canary!)!.process.stop();
    clients.delete(canary!);
    const rolledBack = await waitFor('the restarted server rolls back', async () => {
      const view = await rollout(server.url, id);
      return view.status === 'rolled-back' && view;
    });
    assert.deepEqual(
      rolledBack.decisions.map((d) => `${d.action} ${d.by}`),
      ['start operator', 'rollback judge'],
    );
    assert.match(rolledBack.decisions.at(-1)!.reason, new RegExp(`canary ${canary} has not reported`));
    await waitFor(
      'the replica follows',
      async () => (await rollout(replica.url, id)).status === 'rolled-back',
    );
    const everyoneA = ids().map(() => A);
    assert.deepEqual(await answers(server.url), everyoneA);
    assert.deepEqual(await answers(replica.url), everyoneA);
    assert.deepEqual((await onComment('first')).sort(), [...clients.keys()].sort());
  });
});
