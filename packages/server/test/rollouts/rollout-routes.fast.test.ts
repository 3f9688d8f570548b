import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type FakeTestServer } from '../server-harness.js';

const json = { 'content-type': 'application/json' };

describe('rollouts over HTTP: the API, and every fetch answered by its wave (routes and fast path)', () => {
  let t: FakeTestServer;
  let A: string;
  let B: string;

  before(async () => {
    t = await startTestServer(
      {
        'confbus.server.rollouts.tick-ms': '60000',
        'spring.cloud.bus.enabled': 'true',
      },
      { files: { 'orders.yml': 'greeting: from-a\n', 'rollouts.yml': 'greeting: an app named rollouts\n' } },
    );
    A = (await t.get('/orders/default').then((r) => r.json() as { version: string })).version;
    B = t.repository.push({ 'orders.yml': 'greeting: from-b\n' });
  });
  after(() => t.stop());

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${t.base}${path}`, {
      method: 'POST',
      headers: { ...json, ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const fetchAs = async (id: string | undefined) => {
    const response = await t.get('/orders/default', id === undefined ? {} : { 'x-confbus-instance-id': id });
    assert.equal(response.status, 200);
    return (response.json() as { version: string }).version;
  };

  it('lives under /-/: an application named rollouts is served at /rollouts/{profiles} as Spring serves it', async () => {
    const app = await t.get('/rollouts/default');
    assert.equal(app.status, 200);
    assert.equal((app.json() as { name: string }).name, 'rollouts');
    assert.equal((await t.get('/-/rollouts')).status, 200);
  });

  it('refuses bad requests with the field named, unknown rollouts with 404', async () => {
    const missing = await post('/-/rollouts', { from: A, to: B });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'CONFBUS_ROLLOUT_BAD_REQUEST');
    assert.match(String(missing.body.message), /'application'/);
    const unknown = await post('/-/rollouts', { application: 'orders', from: A, to: 'c'.repeat(40) });
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body.message), /'to' commit c{40} cannot serve 'orders'/);
    const nope = await t.get('/-/rollouts/00000000-0000-0000-0000-000000000000');
    assert.equal(nope.status, 404);
    assert.equal((nope.json() as { code: string }).code, 'CONFBUS_ROLLOUT_NOT_FOUND');
    const noId = await post('/-/rollouts/reports', { application: 'orders', status: 'UP', version: A });
    assert.equal(noId.status, 400);
    assert.match(String(noId.body.message), /X-Confbus-Instance-Id/);
  });

  it('serves A outside the wave and B inside, on the first request and on repeats (fast path), and tells reporters', async () => {
    const started = await post('/-/rollouts', {
      application: 'orders',
      from: A,
      waves: '1,100%',
      bakeSeconds: 60,
    });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    assert.equal(started.body.to, undefined); // the plan carries it
    const id = String(started.body.id);
    assert.equal((started.body.plan as { to: string }).to, B, "'to' defaults to the label's head");
    assert.deepEqual(
      t.bus?.published.map((event) => event.destinationService),
      ['orders:**'],
      'the start is announced',
    );

    const ids = Array.from({ length: 6 }, (_, index) => `orders-${index}`);
    for (const instance of ids)
      assert.equal(await fetchAs(instance), A, 'before the first wave knows anyone');
    assert.equal(await fetchAs(undefined), A, 'no instance id: the stable commit');
    await t.server.rollouts!.engine.tick();
    const onB = [];
    for (const instance of ids) {
      const answer = await post(
        '/-/rollouts/reports',
        { application: 'orders', version: A, status: 'UP', errors: 0 },
        { 'x-confbus-instance-id': instance },
      );
      assert.equal(answer.status, 200);
      assert.equal(answer.body.rollout, id);
      if (answer.body.version === B) onB.push(instance);
    }
    assert.equal(onB.length, 1, 'one canary is told to move');
    const servedBefore = t.server.fastPath!.served;
    for (let round = 0; round < 3; round++)
      for (const instance of ids) assert.equal(await fetchAs(instance), instance === onB[0] ? B : A);
    assert.ok(t.server.fastPath!.served > servedBefore, 'repeats went through the fast path');
    const told = await t.get('/orders/default', { 'x-confbus-instance-id': 'orders-0' });
    assert.equal(told.headers.get('x-confbus-rollout'), 'report', 'the answer tells the client to report');
    const other = await t.get('/other/default', { 'x-confbus-instance-id': 'orders-0' });
    assert.equal(other.headers.get('x-confbus-rollout'), null, 'not for an application no rollout holds');

    const detail = await t.get(`/-/rollouts/${id}`);
    const body = detail.json() as { instances: Array<{ id: string; side: string }> };
    assert.deepEqual(
      body.instances.filter((i) => i.side === 'to').map((i) => i.id),
      onB,
    );

    const paused = await post(`/-/rollouts/${id}/pause`, { reason: 'lunch' });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.status, 'paused');
    const again = await post(`/-/rollouts/${id}/pause`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'CONFBUS_ROLLOUT_CONFLICT');
    const bad = await post(`/-/rollouts/${id}/explode`, {});
    assert.equal(bad.status, 400);

    const rolledBack = await post(`/-/rollouts/${id}/rollback`, { reason: 'by hand' });
    assert.equal(rolledBack.body.status, 'rolled-back');
    for (const instance of ids) assert.equal(await fetchAs(instance), A, 'everyone on A again');
    const list = await t.get('/-/rollouts');
    assert.equal((list.json() as { rollouts: unknown[] }).rollouts.length, 1);
    const rollouts = t.audit.filter((entry) => entry.action.startsWith('rollout.'));
    assert.deepEqual(
      rollouts.map(({ action, target, outcome, status }) => ({ action, target, outcome, status })),
      [
        { action: 'rollout.start', target: 'POST /-/rollouts', outcome: 'failure', status: 400 },
        { action: 'rollout.start', target: 'rollout of orders', outcome: 'failure', status: 400 },
        { action: 'rollout.start', target: 'rollout of orders', outcome: 'success', status: 201 },
        { action: 'rollout.pause', target: `rollout ${id}`, outcome: 'success', status: 200 },
        { action: 'rollout.pause', target: `rollout ${id}`, outcome: 'failure', status: 409 },
        { action: 'rollout.rollback', target: `rollout ${id}`, outcome: 'success', status: 200 },
      ],
      'every start and action audited, a conflicting one as a failure',
    );
  });
});
