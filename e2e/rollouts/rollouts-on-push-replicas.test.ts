// Rollouts on push with two server replicas on one Git remote (the rollouts' store is a ref both write with a
// compare-and-swap push): both check upstream on every request (refresh-rate 0), so one push reaches both at
// once and both try to start its rollout. Exactly one rollout must result, both must answer every instance as
// its wave says, and neither may serve the push outside the wave, before, during or after the race.
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
  picked: string[][];
  plan: { applications: string[]; from: string; to: string };
}

describe('rollouts on push, two replicas', { timeout: 300_000 }, () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  const replicas: ConfbusProcess[] = [];
  let commitA: string;

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    commitA = await remote.commit({ 'orders.yml': 'limit: 1\n', 'billing.yml': 'currency: EUR\n' });
    for (const name of ['one', 'two'])
      replicas.push(
        await startConfbusServer({
          gitUri: remote.url,
          basedir: `${temp.path}/${name}`,
          cwd: temp.path,
          args: [
            '--spring.cloud.config.server.git.refresh-rate=0',
            '--confbus.server.rollouts.tick-ms=100',
            '--confbus.server.rollouts.sync-ms=200',
            '--confbus.server.rollouts.auto.main.branch=master',
            '--confbus.server.rollouts.auto.main.waves=1,100%',
            '--confbus.server.rollouts.auto.main.bake=5m',
          ],
        }),
      );
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  /** The commit `replica` answers the instance `id` with. */
  const servedBy = async (replica: ConfbusProcess, id: string) => {
    const response = await fetch(`${replica.url}/orders/default`, {
      headers: { 'x-confbus-instance-id': id },
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { version: string }).version;
  };
  /** Every instance as each replica answers it, asked of both at once. */
  const fleetOnBoth = async () =>
    Promise.all(replicas.map(async (replica) => Promise.all(FLEET.map((id) => servedBy(replica, id)))));
  const rolloutsOf = async (replica: ConfbusProcess) =>
    ((await getJson(`${replica.url}/-/rollouts`)).body as { rollouts: RolloutView[] }).rollouts;

  it('one push, one rollout: both replicas answer every instance by the same wave', async () => {
    for (const answers of await fleetOnBoth()) assert.deepEqual(new Set(answers), new Set([commitA]));
    const commitB = await remote.commit({ 'orders.yml': 'limit: 2\n' });
    // Both replicas fetch B on these requests and race to start its rollout; until the rollout is read back by
    // each, every answer is A.
    for (const answers of await fleetOnBoth())
      assert.deepEqual(new Set(answers), new Set([commitA]), 'served B before the rollout decided');

    // A count wave picks among instances that fetch during the rollout (from either replica).
    let last = '';
    const started = await waitFor(
      'both replicas to list the rollout with its first wave picked',
      async () => {
        const answers = await fleetOnBoth();
        const lists = await Promise.all(replicas.map(rolloutsOf));
        last = JSON.stringify({ answers, lists });
        if (lists.some((list) => list.length === 0))
          assert.ok(
            answers.flat().every((version) => version === commitA),
            `B with no rollout: ${last}`,
          );
        const picked = lists.map((list) => list[0]?.picked[0]?.length ?? 0);
        return picked.every((count) => count > 0) ? lists : undefined;
      },
      { timeoutMs: 30_000 },
    ).catch((error: unknown) => assert.fail(`${String(error)}: ${last}`));
    for (const list of started) {
      assert.equal(list.length, 1, `one rollout, not one per replica: ${JSON.stringify(list)}`);
      assert.deepEqual([list[0]?.plan.from, list[0]?.plan.to], [commitA, commitB]);
    }
    assert.equal(started[0]?.[0]?.id, started[1]?.[0]?.id);
    assert.deepEqual(started[0]?.[0]?.picked, started[1]?.[0]?.picked);

    // The wave's one instance is on B at both replicas, everyone else on A at both.
    const wave = new Set(started[0]?.[0]?.picked[0]);
    const expected = FLEET.map((id) => (wave.has(id) ? commitB : commitA));
    const [one, two] = await fleetOnBoth();
    assert.deepEqual(one, expected, 'replica one answers by the wave');
    assert.deepEqual(two, expected, 'replica two answers by the wave');
  });
});
