// Staged rollouts end to end: a git remote, `confbus server` on a RabbitMQ vhost of its own, ten
// `confbus sample-client` processes (bus on, stable instance ids, the sample's injected fault), all real
// processes on 127.0.0.1. A good push goes out in three waves; a bad one is rolled back by the fleet's reports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  getJson,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
  type ConfbusProcess,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { createTestVhost, RABBIT_HOST, RABBIT_PORT, type TestVhost } from '@confbus/testkit/rabbit-vhost';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const FLEET = 10;
const yaml = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;

interface RolloutView {
  id: string;
  status: string;
  wave: number;
  decisions: Array<{ action: string; by: string; reason: string; figures?: Record<string, unknown> }>;
  instances: Array<{ id: string; side: 'from' | 'to'; served: string[] }>;
}

// Each new commit is first pushed to a side branch, the rollout started for it, and only then is master moved:
// a push straight to master would be served to any instance fetching before POST /-/rollouts (the repository
// setting that makes every push to a branch a rollout is not built; docs/rollouts.md, "Limits").
describe('staged rollouts with real processes', { timeout: 600_000 }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  const clients = new Map<string, ConfbusProcess>();
  /** Every comment each instance's /dynamic ever showed, sampled throughout. */
  const seen = new Map<string, Set<string>>();
  let sampling: NodeJS.Timeout | undefined;
  let commitA: string;

  const startClient = async (id: string) => {
    const client = await startSampleClientProcess(
      [
        '--server.port=0',
        '--spring.application.name=sample',
        `--spring.cloud.config.uri=${server.url}`,
        `--confbus.client.instance-id=${id}`,
        '--confbus.client.tags.zone=test',
        '--sample.fault.when=group.comment=broken',
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
      ],
      {},
      { cwd: temp.path, timeoutMs: 120_000 },
    );
    clients.set(id, client);
    return client;
  };
  const comment = async (id: string) => {
    const { body } = await getJson(`${clients.get(id)!.url}/dynamic`);
    return (body as { comment: string }).comment;
  };
  const rollout = async (id: string) => (await getJson(`${server.url}/-/rollouts/${id}`)).body as RolloutView;
  const post = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST' });
    assert.equal(response.status, 200, await response.text());
  };
  const start = async (body: unknown) => {
    const response = await fetch(`${server.url}/-/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as RolloutView;
    assert.equal(response.status, 201, JSON.stringify(json));
    return json;
  };
  const describeFleet = async () => {
    const parts: string[] = [];
    for (const id of clients.keys())
      parts.push(`${id}=${await comment(id).catch((e: unknown) => String(e))}`);
    return parts.join(' ');
  };
  const onComment = async (value: string) => {
    const ids: string[] = [];
    for (const id of clients.keys()) if ((await comment(id).catch(() => '')) === value) ids.push(id);
    return ids.sort();
  };

  /** Commits on the side branch `next` (visible to the server, served to nobody), master stays where it was. */
  const stage = (files: Record<string, string>) => remote.commit(files, { branch: 'next' });
  /** Moves master to the staged commit: from now on the label's head, served by the rollout's waves. */
  const release = (commit: string) => remote.git('push', '--quiet', 'origin', `${commit}:refs/heads/master`);

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    temp = await makeTempDir();
    commitA = await remote.commit({ 'sample.yml': yaml('first') });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/mirror`,
      cwd: temp.path,
      args: [
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        '--confbus.server.rollouts.report-interval-ms=500',
        '--confbus.server.rollouts.tick-ms=250',
        '--confbus.server.rollouts.silence-ms=20000',
      ],
    });
    const ids = Array.from({ length: FLEET }, (_, index) => `sample-${index}`);
    // Started a few at a time: ten Node processes at once on a loaded two-core machine start slowly.
    for (let index = 0; index < ids.length; index += 4)
      await Promise.all(ids.slice(index, index + 4).map((id) => startClient(id)));
    sampling = setInterval(() => {
      for (const id of clients.keys())
        void comment(id).then(
          (value) => seen.set(id, (seen.get(id) ?? new Set()).add(value)),
          () => undefined,
        );
    }, 200);
  });
  after(async () => {
    clearInterval(sampling);
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  it('a good push reaches every instance wave by wave; outside a wave nobody serves it, not even after a restart', async () => {
    assert.deepEqual(await onComment('first'), [...clients.keys()].sort());
    const commitB = await stage({ 'sample.yml': yaml('second') });
    const started = await start({
      application: 'sample',
      from: commitA,
      to: commitB,
      waves: '1,30%,100%',
      bakeSeconds: 8,
    });
    await release(commitB);

    const wave1 = await waitFor('the first canary serves B', async () => {
      const onB = await onComment('second');
      return onB.length === 1 ? onB : undefined;
    });
    // Held in wave 1 while an instance outside it restarts: it comes back on A.
    await post(`/-/rollouts/${started.id}/pause`);
    const view1 = await rollout(started.id);
    assert.equal(view1.wave, 0);
    assert.deepEqual(
      view1.instances.filter((i) => i.side === 'to').map((i) => i.id),
      wave1,
    );
    const outside = [...clients.keys()].find((id) => !wave1.includes(id))!;
    await clients.get(outside)!.process.stop();
    await startClient(outside);
    assert.equal(await comment(outside), 'first');
    assert.deepEqual(await onComment('second'), wave1);
    await post(`/-/rollouts/${started.id}/resume`);

    await waitFor('the rollout completes', async () => (await rollout(started.id)).status === 'completed', {
      timeoutMs: 120_000,
    });
    await waitFor('everyone serves B', async () => (await onComment('second')).length === FLEET);
    const done = await rollout(started.id);
    assert.deepEqual(
      done.decisions.map((d) => d.action),
      ['start', 'pause', 'resume', 'next-wave', 'next-wave', 'complete'],
      "the operator's pause and resume are in the decision log too",
    );
    // The registry's record: an instance was served B only once its wave had started (its side says so), and
    // the wave-2 members are exactly those the 30% hash picked on top of the canary.
    for (const instance of done.instances) assert.equal(instance.side, 'to');
  });

  it('a bad push whose canary turns DOWN is rolled back automatically; nobody outside wave 1 ever served it', async () => {
    const commitB = (await getJson(`${server.url}/sample/default`)).body as { version: string };
    for (const id of clients.keys()) seen.set(id, new Set());
    const commitC = await stage({ 'sample.yml': yaml('broken') });
    const started = await start({
      application: 'sample',
      from: commitB.version,
      to: commitC,
      waves: '1,50%,100%',
      bakeSeconds: 60,
    });
    await release(commitC);
    const rolledBack = await waitFor(
      'the rollout rolls back',
      async () => {
        const view = await rollout(started.id);
        return view.status === 'rolled-back' ? view : undefined;
      },
      { timeoutMs: 120_000 },
    );
    const decision = rolledBack.decisions.at(-1)!;
    assert.equal(decision.by, 'judge');
    assert.match(decision.reason, /reported DOWN/);
    await waitFor('every instance serves B again', async () => {
      const onB = await onComment('second');
      return onB.length === FLEET;
    }).catch(async (error: unknown) => {
      throw new Error(`${String(error)}: ${await describeFleet()}`);
    });
    const servedC = rolledBack.instances.filter((i) => i.served.includes(commitC)).map((i) => i.id);
    assert.equal(servedC.length, 1, `only the canary was ever served C: ${servedC.join(', ')}`);
    const sawBroken = [...seen].filter(([, values]) => values.has('broken')).map(([id]) => id);
    assert.ok(
      sawBroken.every((id) => servedC.includes(id)),
      `outside wave 1 nobody showed C: ${sawBroken.join(', ')}`,
    );
  });
});
