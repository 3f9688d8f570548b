import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '@confbus/core';
import type { EnvironmentRequest } from '../../src/environment/environment-service.js';
import type { AuditEntry } from '../../src/audit/audit-log.js';
import { RolloutEngine } from '../../src/rollouts/rollout-engine.js';
import { parseRolloutPlan, type RolloutPlan } from '../../src/rollouts/rollout-plan.js';
import { MemoryRolloutStore } from '../../src/rollouts/rollout-store.js';
import { stickyHash } from '../../src/rollouts/wave-membership.js';
import { FakeClock } from '../fake-clock.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const judgeSettings = { silenceMs: 10_000, errorRateFactor: 2, minErrorRatePerMinute: 5 };

function engineOn(store = new MemoryRolloutStore(), clock = new FakeClock()) {
  const announced: Array<{ applications: readonly string[]; commit: string }> = [];
  const audited: AuditEntry[] = [];
  const engine = new RolloutEngine({
    audit: { record: (entry) => void audited.push(entry) },
    store,
    clock,
    judge: judgeSettings,
    reportIntervalMs: 1000,
    logger: silentLogger,
    verify: async () => {},
    announce: async (applications, commit) => void announced.push({ applications, commit }),
  });
  return { engine, clock, store, announced, audited };
}

const request = (application = 'orders', label: string | null = null): EnvironmentRequest => ({
  name: application,
  applications: [application],
  profilesText: 'default',
  profiles: ['default'],
  label,
});

const plan = (waves: string, bakeSeconds = 60): RolloutPlan =>
  parseRolloutPlan({ application: 'orders', from: A, to: B, waves, bakeSeconds }, { waves: [], bakeMs: 0 });

/** The fleet: ids `orders-0` … `orders-(n-1)`, each fetching and reporting healthy on what it is told. */
class Fleet {
  readonly versions = new Map<string, string>();
  readonly everServed = new Map<string, Set<string>>();
  errors = new Map<string, number>();
  down = new Set<string>();
  silent = new Set<string>();

  constructor(
    private readonly engine: RolloutEngine,
    readonly size: number,
  ) {}

  ids(): string[] {
    return Array.from({ length: this.size }, (_, index) => `orders-${index}`);
  }

  /** Each instance fetches (as after the start's announcement), then reports and follows its answer. */
  fetchAll(): void {
    for (const id of this.ids()) this.fetch(id);
  }

  fetch(id: string): string {
    const served = this.engine.choose(request(), { id, tags: {} });
    const commit = served.commit ?? 'head';
    this.versions.set(id, commit);
    const seen = this.everServed.get(id) ?? new Set();
    seen.add(commit);
    this.everServed.set(id, seen);
    return commit;
  }

  reportAll(): void {
    for (const id of this.ids()) {
      if (this.silent.has(id)) continue;
      const answer = this.engine.report({
        instance: id,
        tags: {},
        application: 'orders',
        profiles: ['default'],
        version: this.versions.get(id) ?? null,
        status: this.down.has(id) ? 'DOWN' : 'UP',
        errors: this.errors.get(id) ?? 0,
        rejected: false,
      });
      // An instance told to serve another commit fetches again (the client's reporter does so).
      if (answer.version !== null && answer.version !== this.versions.get(id)) this.fetch(id);
    }
  }

  on(commit: string): string[] {
    return this.ids().filter((id) => this.versions.get(id) === commit);
  }
}

describe('rollout engine: waves, stickiness, the fleet as judge', () => {
  it('moves a good push wave by wave (1 instance, 30%, 100%) and never serves B outside a wave', async () => {
    const { engine, clock, announced } = engineOn();
    const state = await engine.start(plan('1,30%,100%'));
    assert.deepEqual(announced, [{ applications: ['orders'], commit: B }]);
    const fleet = new Fleet(engine, 20);
    fleet.fetchAll();
    assert.equal(fleet.on(B).length, 0, 'nobody is picked before the first tick knows the fleet');
    fleet.reportAll();
    await engine.tick();
    fleet.reportAll();
    assert.equal(fleet.on(B).length, 1, 'wave 1: one instance');
    const canary = fleet.on(B)[0]!;
    const lowest = fleet.ids().sort((x, y) => stickyHash(state.id, x) - stickyHash(state.id, y))[0];
    assert.equal(canary, lowest, 'the lowest sticky hash is picked');
    assert.equal(announced.length, 2, 'the pick is announced: instances that never report fetch too');

    clock.advance(30_000);
    fleet.reportAll();
    await engine.tick();
    assert.equal(engine.get(state.id).wave, 0, 'still baking');
    clock.advance(31_000);
    fleet.reportAll();
    await engine.tick();
    assert.equal(engine.get(state.id).wave, 1);
    assert.deepEqual(announced.at(-1), { applications: ['orders'], commit: B }, 'so is every next wave');
    assert.equal(announced.length, 3);
    fleet.reportAll();
    const second = fleet.on(B);
    const expected = fleet.ids().filter((id) => id === canary || stickyHash(state.id, id) < 0.3);
    assert.deepEqual(second.sort(), expected.sort(), 'wave 2: the first canary and every hash below 30%');
    // A restart of an instance outside the waves: it is served A again, not B.
    const outside = fleet.ids().find((id) => !second.includes(id))!;
    assert.equal(fleet.fetch(outside), A);

    clock.advance(61_000);
    fleet.reportAll();
    await engine.tick();
    fleet.reportAll();
    assert.equal(fleet.on(B).length, 20, 'wave 3: everyone');
    clock.advance(61_000);
    fleet.reportAll();
    await engine.tick();
    assert.equal(engine.get(state.id).status, 'completed');
    assert.deepEqual(
      engine.get(state.id).decisions.map((d) => d.action),
      ['start', 'next-wave', 'next-wave', 'complete'],
    );
    assert.equal(fleet.fetch('orders-0'), 'head', 'a completed rollout pins nothing: the label serves');
  });

  it('rolls back when a canary reports DOWN: every canary is served A again; nobody outside wave 1 ever had B', async () => {
    const { engine, clock, announced, audited } = engineOn();
    const state = await engine.start(plan('1,50%,100%', 5));
    const fleet = new Fleet(engine, 12);
    fleet.fetchAll();
    fleet.reportAll();
    await engine.tick();
    fleet.reportAll();
    const [canary] = fleet.on(B);
    assert.ok(canary);
    fleet.down.add(canary);
    clock.advance(1000);
    fleet.reportAll();
    await engine.tick();
    const after = engine.get(state.id);
    assert.equal(after.status, 'rolled-back');
    const decision = after.decisions.at(-1)!;
    assert.equal(decision.by, 'judge');
    assert.match(decision.reason, new RegExp(`canary ${canary} reported DOWN`));
    assert.equal(decision.figures?.controls, 11);
    assert.deepEqual(
      audited.map(({ action, target, principal, outcome }) => ({ action, target, principal, outcome })),
      [
        {
          action: 'rollout.rollback',
          target: `rollout ${state.id}`,
          principal: 'rollout-judge',
          outcome: 'success',
        },
      ],
      'the automatic rollback is audited',
    );
    fleet.reportAll();
    assert.deepEqual(fleet.on(B), [], 'the canary is told to serve A');
    assert.equal(fleet.fetch(canary), A, 'and is served A, also after a restart');
    assert.deepEqual(announced.at(-1), { applications: ['orders'], commit: A });
    for (const id of fleet.ids()) if (id !== canary) assert.deepEqual([...fleet.everServed.get(id)!], [A]);
    clock.advance(10_000);
    await engine.tick();
    assert.equal(engine.get(state.id).wave, 0, 'a rolled-back rollout moves no more');
  });

  it("rolls back on a canary error rate clearly worse than the control group's, with the figures", async () => {
    const { engine, clock } = engineOn();
    const state = await engine.start(plan('2,100%', 300));
    const fleet = new Fleet(engine, 10);
    fleet.fetchAll();
    fleet.reportAll();
    await engine.tick();
    fleet.reportAll(); // the canaries are told to move, and do
    fleet.reportAll(); // their first report on B: their error window starts
    const canaries = fleet.on(B);
    assert.equal(canaries.length, 2);
    // One minute later: controls made 1 error each, canaries 40 each.
    clock.advance(60_000);
    for (const id of fleet.ids()) fleet.errors.set(id, canaries.includes(id) ? 40 : 1);
    fleet.reportAll();
    await engine.tick();
    const decision = engine.get(state.id).decisions.at(-1)!;
    assert.equal(decision.action, 'rollback');
    assert.equal(decision.figures?.canaryErrorsPerMinute, 40);
    assert.equal(decision.figures?.controlErrorsPerMinute, 1);
  });

  it('a few errors on an idle fleet, or the same rate as the controls, decide nothing', async () => {
    const { engine, clock } = engineOn();
    const state = await engine.start(plan('2,100%', 120));
    const fleet = new Fleet(engine, 10);
    fleet.fetchAll();
    fleet.reportAll();
    await engine.tick();
    fleet.reportAll();
    fleet.reportAll();
    clock.advance(60_000);
    for (const id of fleet.ids()) fleet.errors.set(id, fleet.on(B).includes(id) ? 3 : 0);
    fleet.reportAll();
    await engine.tick();
    assert.equal(engine.get(state.id).status, 'running', '3/min over 0/min is under min-error-rate (5/min)');
  });

  it('rolls back a canary that reported once and then went silent', async () => {
    const { engine, clock } = engineOn();
    const state = await engine.start(plan('1,100%'));
    const fleet = new Fleet(engine, 5);
    fleet.fetchAll();
    fleet.reportAll();
    await engine.tick();
    fleet.reportAll();
    fleet.silent.add(fleet.on(B)[0]!);
    clock.advance(11_000);
    fleet.reportAll();
    await engine.tick();
    assert.match(engine.get(state.id).decisions.at(-1)!.reason, /has not reported for 11 s/);
  });

  it('resumes after a restart from the store: same waves, same members', async () => {
    const store = new MemoryRolloutStore();
    const clock = new FakeClock();
    const first = engineOn(store, clock);
    const state = await first.engine.start(plan('30%,100%'));
    const fleet = new Fleet(first.engine, 20);
    fleet.fetchAll();
    const before = fleet.on(B).sort();
    assert.ok(before.length > 0 && before.length < 20);
    const second = engineOn(store, clock);
    await second.engine.open();
    const again = new Fleet(second.engine, 20);
    again.fetchAll();
    assert.deepEqual(again.on(B).sort(), before);
    assert.equal(second.engine.get(state.id).status, 'running');
  });

  it('operator actions: pause holds the wave, promote serves everyone B, rollback from completed, conflicts are 409', async () => {
    const { engine, clock } = engineOn();
    const state = await engine.start(plan('1,100%', 1));
    await assert.rejects(engine.start(plan('1')), { code: 'CONFBUS_ROLLOUT_CONFLICT' });
    await engine.act(state.id, 'pause');
    clock.advance(5000);
    await engine.tick();
    assert.equal(engine.get(state.id).wave, 0, 'a paused rollout does not move');
    await assert.rejects(engine.act(state.id, 'pause'), { code: 'CONFBUS_ROLLOUT_CONFLICT' });
    await engine.act(state.id, 'resume');
    await engine.act(state.id, 'promote', 'looks good');
    assert.equal(engine.choose(request(), { id: 'x', tags: {} }).commit, undefined);
    await engine.act(state.id, 'rollback');
    assert.equal(engine.choose(request(), { id: 'x', tags: {} }).commit, A);
    assert.equal(
      engine.choose(request('other'), { id: 'x', tags: {} }).commit,
      undefined,
      'other applications',
    );
    assert.equal(
      engine.choose(request('orders', 'dev'), { id: 'x', tags: {} }).commit,
      undefined,
      'other labels',
    );
    assert.equal(engine.choose(request(), undefined).commit, A, 'without an instance id: the stable commit');
    await assert.rejects(engine.act('nope', 'pause'), { code: 'CONFBUS_ROLLOUT_NOT_FOUND' });
  });

  it('tag and profile selectors', async () => {
    const { engine } = engineOn();
    const selected = parseRolloutPlan(
      {
        application: 'orders',
        from: A,
        to: B,
        waves: [{ tags: { zone: 'eu-1' } }, { profiles: ['canary'] }, '100%'],
      },
      { waves: [], bakeMs: 0 },
    );
    await engine.start(selected);
    assert.equal(engine.choose(request(), { id: 'x', tags: { zone: 'eu-1' } }).commit, B);
    assert.equal(engine.choose(request(), { id: 'y', tags: { zone: 'us-1' } }).commit, A);
  });

  it('refuses malformed plans naming the field', () => {
    const parse = (body: unknown) => () => parseRolloutPlan(body, { waves: [], bakeMs: 0 });
    assert.throws(parse({ from: A, to: B }), /'application'/);
    assert.throws(parse({ application: 'orders', from: 'abc', to: B }), /'from' must be a full commit id/);
    assert.throws(parse({ application: 'orders', from: A, to: A }), /same commit/);
    assert.throws(
      parse({ application: 'orders', from: A, to: B, waves: '1,150%' }),
      /percent must be above 0 and at most 100/,
    );
    assert.throws(parse({ application: 'orders', from: A, to: B, waves: 'x' }), /neither a count/);
    assert.throws(
      parse({ application: 'orders', from: A, to: B, waves: '1', bakeSeconds: -1 }),
      /'bakeSeconds'/,
    );
  });
});
