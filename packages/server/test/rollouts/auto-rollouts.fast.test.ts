// The rollouts-on-push policy on a fake engine: what unpinned requests are served while a move is being started
// and after, where a rollout starts from, and what a failed start leaves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '@confbus/core';
import type { EnvironmentRequest } from '../../src/environment/environment-service.js';
import type { RolloutPlan } from '../../src/rollouts/rollout-plan.js';
import { AutoRollouts } from '../../src/rollouts/auto-rollouts.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const X = 'c'.repeat(40);
const head = (commit: string) => ({ label: 'main', commit, stale: false });
const request = (application: string, label: string | null = null, commit?: string): EnvironmentRequest => ({
  name: application,
  applications: [application],
  profilesText: 'default',
  profiles: ['default'],
  label,
  ...(commit ? { commit } : {}),
});

function setup(options: { failStart?: boolean } = {}) {
  const plans: RolloutPlan[] = [];
  /** Commit an application is held on for a request without an instance id (the fake engine's choice). */
  const held = new Map<string, string>();
  let reloads = 0;
  let release: () => void = () => undefined;
  const changesComputed = new Promise<void>((resolve) => (release = resolve));
  const auto = new AutoRollouts({
    rules: [
      { name: 'main', branch: 'main', applications: undefined, waves: [{ percent: 100 }], bakeMs: 1000 },
    ],
    logger: silentLogger,
    defaultLabel: async () => 'main',
    changedApplications: async () => {
      await changesComputed;
      return ['orders', 'billing'];
    },
    engine: {
      start: async (plan: RolloutPlan) => {
        if (options.failStart) throw new Error('store refused');
        plans.push(plan);
        for (const name of plan.applications) held.set(name, plan.from);
        return {} as never;
      },
      choose: (req: EnvironmentRequest) => {
        const commit = held.get(req.applications[0] ?? '');
        return commit === undefined || req.label !== null ? req : { ...req, commit };
      },
      reload: async () => void reloads++,
    },
  });
  return { auto, plans, held, release, reloads: () => reloads };
}

describe('rollouts on push: the serving policy', () => {
  it('serves the accepted head until the rollout of a move is started, then as the rollout says', async () => {
    const { auto, plans, release } = setup();
    assert.equal(
      auto.decideNow(request('orders'), head(A)),
      undefined,
      'a first head is decided by decide()',
    );
    assert.deepEqual(await auto.decide(request('orders'), head(A)), head(A));
    const moved = auto.observe('main', B);
    // Starting: nobody unpinned is served B, on either path.
    assert.equal((await auto.decide(request('orders'), head(B))).commit, A);
    assert.equal(auto.decideNow(request('billing'), head(B))?.commit, A);
    release();
    await moved;
    assert.deepEqual(plans, [
      {
        applications: ['orders', 'billing'],
        label: null,
        from: A,
        to: B,
        waves: [{ percent: 100 }],
        bakeMs: 1000,
      },
    ]);
    // Started: an unpinned request (raced the start, or names the default label) gets the stable commit; a
    // request the rollout chose B for gets B.
    assert.equal(auto.decideNow(request('orders'), head(B))?.commit, A);
    assert.equal((await auto.decide(request('orders', 'main'), head(B))).commit, A);
    assert.equal(auto.decideNow(request('orders', null, B), head(B))?.commit, B);
    // Another branch is not the policy's business.
    assert.deepEqual(auto.decideNow(request('orders'), { ...head(X), label: 'dev' }), {
      ...head(X),
      label: 'dev',
    });
  });

  it('rolls out from the commit a rolled-back rollout holds, not from the head it refused', async () => {
    const { auto, plans, held, release } = setup();
    release();
    await auto.observe('main', A);
    held.set('orders', X);
    await auto.observe('main', B);
    assert.deepEqual(
      plans.map((plan) => [plan.applications, plan.from]),
      [
        [['orders'], X],
        [['billing'], A],
      ],
    );
  });

  it('a start that fails re-reads the store and serves the head as without the rule', async () => {
    const { auto, release, reloads } = setup({ failStart: true });
    release();
    await auto.observe('main', A);
    await auto.observe('main', B);
    assert.equal(reloads(), 1);
    assert.deepEqual(auto.decideNow(request('orders'), head(B)), head(B));
  });
});
