// Rollouts on push (confbus.server.rollouts.auto.*): a real `confbus server` on a real git remote, checking
// upstream on every request (refresh-rate 0: the request that first sees a push is the one that fetched it, the
// tightest race there is). A push to the rule's branch becomes a rollout of the applications it changes before
// any request is served the new commit; instances are HTTP fetches with their instance id header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  type ConfbusProcess,
  getJson,
  startConfbusServer,
  waitFor,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const FLEET = Array.from({ length: 8 }, (_, index) => `orders-${index}`);

interface RolloutView {
  id: string;
  status: string;
  plan: { applications: string[]; label: string | null; from: string; to: string; bakeMs: number };
  decisions: Array<{ action: string; reason: string }>;
}

describe('rollouts on push', { timeout: 300_000 }, () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  let commitA: string;

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    commitA = await remote.commit({ 'orders.yml': 'limit: 1\n', 'billing.yml': 'currency: EUR\n' });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/mirror`,
      cwd: temp.path,
      args: [
        '--spring.cloud.config.server.git.refresh-rate=0',
        '--confbus.server.rollouts.tick-ms=100',
        '--confbus.server.rollouts.auto.main.branch=master',
        '--confbus.server.rollouts.auto.main.waves=1,100%',
        '--confbus.server.rollouts.auto.main.bake=5m',
      ],
    });
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  /** The commit the server answers `path` with, as the instance `id` (none: no instance header). */
  const servedAs = async (id: string | undefined, path = '/orders/default') => {
    const response = await fetch(`${server.url}${path}`, {
      headers: id === undefined ? {} : { 'x-confbus-instance-id': id },
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { version: string }).version;
  };
  const rollouts = async () =>
    ((await getJson(`${server.url}/-/rollouts`)).body as { rollouts: RolloutView[] }).rollouts;
  const fleetOn = async () => {
    const answers = await Promise.all(FLEET.map((id) => servedAs(id)));
    return FLEET.map((id, index) => [id, answers[index] ?? '']);
  };

  it('a push starts a rollout of the applications it changes, and nobody is served it before its wave', async () => {
    for (const [, version] of await fleetOn()) assert.equal(version, commitA);
    const commitB = await remote.commit({ 'orders.yml': 'limit: 2\n' });
    // The first requests after the push fetch it themselves: every one is answered A, inside the wave or not
    // (the count wave's instance is picked at the engine's next tick).
    const first = await fleetOn();
    assert.deepEqual(
      first.filter(([, version]) => version !== commitA),
      [],
      'served the new commit before the rollout decided',
    );
    const rollout = await waitFor('the rollout of the push', async () => (await rollouts())[0], {
      timeoutMs: 30_000,
    });
    assert.deepEqual(rollout.plan.applications, ['orders']);
    assert.deepEqual([rollout.plan.from, rollout.plan.to, rollout.plan.label], [commitA, commitB, null]);
    assert.equal(rollout.plan.bakeMs, 300_000);
    assert.match(rollout.decisions[0]?.reason ?? '', /^push to master \(auto rollout 'main'\)$/);

    // One instance (the first wave) moves to B; every other instance, a request without an id and one naming
    // the label by name stay on A.
    const onB = await waitFor('the first wave on B', async () => {
      const fleet = await fleetOn();
      const moved = fleet.filter(([, version]) => version === commitB);
      return moved.length > 0 ? { fleet, moved } : undefined;
    });
    assert.equal(onB.moved.length, 1, JSON.stringify(onB.fleet));
    assert.deepEqual(
      onB.fleet.filter(([, version]) => version !== commitA && version !== commitB),
      [],
    );
    assert.equal(await servedAs(undefined), commitA);
    assert.equal(
      await servedAs(FLEET[7] === onB.moved[0]?.[0] ? FLEET[6] : FLEET[7], '/orders/default/master'),
      commitA,
    );
    // billing is not changed by B: no rollout holds it, it is served the head.
    assert.equal(await servedAs('billing-0', '/billing/default'), commitB);

    const promoted = await fetch(`${server.url}/-/rollouts/${rollout.id}/promote`, { method: 'POST' });
    assert.equal(promoted.status, 200);
    for (const [, version] of await fleetOn()) assert.equal(version, commitB);

    // The next push rolls out from B, for what it changes (billing only).
    const commitC = await remote.commit({ 'billing.yml': 'currency: CHF\n' });
    assert.equal(await servedAs('billing-0', '/billing/default'), commitB);
    const latest = await waitFor(
      'the rollout of the second push',
      async () => (await rollouts()).find((view) => view.plan.to === commitC),
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(
      [latest?.plan.applications, latest?.plan.from, latest?.plan.to],
      [['billing'], commitB, commitC],
    );
    // orders is unchanged by C: served the head.
    assert.equal(await servedAs(FLEET[0]), commitC);
  });
});
