/**
 * The console's view of staged rollouts on real Git: a rollout started through /-/rollouts is announced to open
 * console pages and listed by the console API with its plan, and one rollout shows its instances on A or B with
 * their health and error rate, both sides' figures and the decision log. An action from the console needs the CSRF token, goes through the
 * engine as /-/rollouts does, and is audited the same way; a pause or a resume is told to open pages too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConsoleRolloutDetails, ConsoleRollouts } from '@confbus/core';
import { openEventStream } from '@confbus/testkit/event-stream';
import { createGitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';
import { type RolloutGitServer, startRolloutGitServer } from '../rollouts/rollout-git-server.js';

describe('console: rollouts', () => {
  let fixture: RolloutGitServer | undefined;
  let server: TestServer;
  let A: string;
  let B: string;
  let id: string;

  before(async () => {
    fixture = await startRolloutGitServer({ 'logging.level.root': 'warn' });
    ({ server, A, B } = fixture);
  });
  after(() => fixture?.stop());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const details = async () => {
    const answer = await server.get(`/-/console/api/rollouts/${id}`);
    assert.equal(answer.status, 200, answer.body);
    return answer.json() as ConsoleRolloutDetails;
  };
  const report = (instance: string, version: string, status: string, errors: number) =>
    post('/-/rollouts/reports', { instance, application: 'orders', version, status, errors });

  it('lists a rollout started through /-/rollouts, newest first, with its plan', async () => {
    const empty = (await server.get('/-/console/api/rollouts')).json() as ConsoleRollouts;
    assert.deepEqual(empty, { enabled: true, rollouts: [] });
    const stream = await openEventStream(`${server.base}/-/console/api/events`, {
      accept: 'text/event-stream',
    });
    try {
      const started = await post('/-/rollouts', {
        application: 'orders',
        from: A,
        to: B,
        waves: '50%,100%',
        bakeSeconds: 120,
      });
      assert.equal(started.status, 201, await started.clone().text());
      id = ((await started.json()) as { id: string }).id;
      // Open Rollouts views hear of it.
      await waitFor('the rollout event', () => stream.events.some((event) => event.event === 'rollout'));
      const event = stream.events.find((e) => e.event === 'rollout');
      assert.deepEqual(JSON.parse(event?.data ?? '{}'), { applications: ['orders'], commit: B });
    } finally {
      stream.close();
    }
    const listed = (await server.get('/-/console/api/rollouts')).json() as ConsoleRollouts;
    assert.equal(listed.enabled, true);
    assert.equal(listed.rollouts.length, 1);
    const [rollout] = listed.rollouts;
    assert.deepEqual(
      [rollout?.id, rollout?.status, rollout?.applications, rollout?.from, rollout?.to, rollout?.wave],
      [id, 'running', ['orders'], A, B, 0],
    );
    assert.deepEqual(
      rollout?.waves.map((wave) => wave.text),
      ['50%', '100%'],
    );
    assert.equal(rollout?.bakeSeconds, 120);
    assert.ok(rollout?.bakeEndsAt, 'a running wave bakes until a known time');
    assert.deepEqual(rollout?.actions, ['pause', 'promote', 'abort', 'rollback']);
    assert.equal(rollout?.lastDecision.action, 'start');
  });

  it("shows each instance on A or B with its health and error rate, beside the other side's", async () => {
    // Instances fetch (the rollout places them), then report what they serve.
    const served = new Map<string, string>();
    for (let n = 1; n <= 8; n++) {
      const instance = `orders-${n}`;
      const answer = await server.get('/orders/default', { 'x-confbus-instance-id': instance });
      served.set(instance, (answer.json() as { version: string }).version);
    }
    for (const [instance, version] of served)
      assert.equal((await report(instance, version, 'UP', 0)).status, 200);
    const shown = await details();
    assert.equal(shown.instances.length, 8);
    for (const instance of shown.instances) {
      assert.equal(instance.servedCommit, served.get(instance.id));
      assert.equal(instance.side, served.get(instance.id) === B ? 'B' : 'A');
      assert.deepEqual(
        [instance.health?.status, instance.health?.version, instance.health?.errorsPerMinute],
        ['UP', served.get(instance.id), 0],
      );
    }
    const onB = [...served.values()].filter((version) => version === B).length;
    assert.deepEqual(
      [shown.canaries.instances, shown.canaries.reporting, shown.canaries.unhealthy],
      [onB, onB, 0],
    );
    assert.equal(shown.controls.instances, 8 - onB);
    assert.deepEqual(
      shown.decisions.map((decision) => [decision.action, decision.by]),
      [['start', 'operator']],
    );
    assert.equal(shown.decisions[0]?.figures.waves, 2, 'the decision log carries its figures');
  });

  it('pauses from the console with the CSRF token only, through the engine, audited as /-/rollouts', async () => {
    const path = `/-/console/api/rollouts/${id}/pause`;
    const refused = await post(path, { reason: 'checking the dashboards' });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { code: string }).code, 'CONFBUS_CONSOLE_CSRF');
    assert.equal((await details()).status, 'running', 'a refused action changes nothing');

    const session = (await server.get('/-/console/api/session')).json() as {
      csrfToken: string;
      csrfHeader: string;
    };
    const csrf = { [session.csrfHeader]: session.csrfToken };
    const paused = await post(path, { reason: 'checking the dashboards' }, csrf);
    assert.equal(paused.status, 200, await paused.clone().text());
    const answer = (await paused.json()) as ConsoleRolloutDetails;
    assert.equal(answer.status, 'paused');
    assert.deepEqual(answer.actions, ['resume', 'promote', 'abort', 'rollback']);
    const last = answer.decisions[answer.decisions.length - 1];
    assert.deepEqual(
      [last?.action, last?.by, last?.reason],
      ['pause', 'operator', 'checking the dashboards'],
    );
    // The /-/rollouts API reads the same state: one engine.
    const direct = (await server.get(`/-/rollouts/${id}`)).json() as { status: string };
    assert.equal(direct.status, 'paused');

    const again = await post(path, { reason: 'twice' }, csrf);
    assert.equal(again.status, 409, 'the engine refuses to pause a paused rollout');
    assert.equal(((await again.json()) as { code: string }).code, 'CONFBUS_ROLLOUT_CONFLICT');

    const audit = (await server.get('/-/console/api/audit')).json() as {
      entries: Array<{ action: string; target?: string; outcome: string }>;
    };
    const pauses = audit.entries
      .filter((entry) => entry.action === 'rollout.pause' && entry.target === `rollout ${id}`)
      .map((entry) => entry.outcome)
      .sort();
    assert.deepEqual(pauses, ['denied', 'failure', 'success'], 'each attempt audited, as on /-/rollouts');

    const missing = await post('/-/console/api/rollouts/no-such-rollout/resume', { reason: 'x' }, csrf);
    assert.equal(missing.status, 404);
  });

  it('tells open pages of a resume and a pause made through /-/rollouts, announcing no move', async () => {
    const stream = await openEventStream(`${server.base}/-/console/api/events`, {
      accept: 'text/event-stream',
    });
    try {
      assert.equal((await post(`/-/rollouts/${id}/resume`, { reason: 'dashboards fine' })).status, 200);
      assert.equal((await post(`/-/rollouts/${id}/pause`, { reason: 'one more look' })).status, 200);
      const statuses = () => stream.events.filter((event) => event.event === 'rollout-status');
      await waitFor('both status events', () => statuses().length === 2);
      assert.deepEqual(
        statuses().map((event) => JSON.parse(event.data) as unknown),
        [
          { id, applications: ['orders'], status: 'running' },
          { id, applications: ['orders'], status: 'paused' },
        ],
      );
      assert.ok(
        !stream.events.some((event) => event.event === 'rollout'),
        'nobody was moved: no rollout event',
      );
    } finally {
      stream.close();
    }
  });

  it('starts a rollout from the console with the CSRF token only, reading the plan as /-/rollouts does', async () => {
    // orders is held by the paused rollout above: end it first, from the console too.
    const session = (await server.get('/-/console/api/session')).json() as {
      csrfToken: string;
      csrfHeader: string;
    };
    const csrf = { [session.csrfHeader]: session.csrfToken };
    assert.equal((await post(`/-/console/api/rollouts/${id}/abort`, { reason: 'done' }, csrf)).status, 200);
    const plan = { applications: ['orders'], from: A, to: B, waves: '50%,100%', reason: 'from the console' };
    const refused = await post('/-/console/api/rollouts', plan);
    assert.equal(refused.status, 403);
    const malformed = await post('/-/console/api/rollouts', { ...plan, waves: 'lots' }, csrf);
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { code: string }).code, 'CONFBUS_ROLLOUT_BAD_REQUEST');
    const started = await post('/-/console/api/rollouts', plan, csrf);
    assert.equal(started.status, 201, await started.clone().text());
    const view = (await started.json()) as ConsoleRolloutDetails;
    assert.deepEqual([view.status, view.from, view.to, view.applications], ['running', A, B, ['orders']]);
    assert.equal(view.decisions[0]?.reason, 'from the console');
    const direct = (await server.get(`/-/rollouts/${view.id}`)).json() as { status: string };
    assert.equal(direct.status, 'running', 'the same engine');
    const audit = (await server.get('/-/console/api/audit')).json() as {
      entries: Array<{ action: string; outcome: string }>;
    };
    assert.ok(audit.entries.some((e) => e.action === 'rollout.start' && e.outcome === 'success'));
  });
});

describe('console: rollouts off', () => {
  it('says so, and refuses an action', async () => {
    const remote = await createGitRemote();
    await remote.commit({ 'orders.yml': 'greeting: a\n' });
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.bus.enabled': 'false',
      'confbus.server.rollouts.enabled': 'false',
      'logging.level.root': 'warn',
    });
    try {
      const listed = (await server.get('/-/console/api/rollouts')).json() as ConsoleRollouts;
      assert.deepEqual(listed, { enabled: false, rollouts: [] });
      assert.equal((await server.get('/-/console/api/rollouts/some-id')).status, 404);
    } finally {
      await server.stop();
      await remote.remove();
    }
  });
});
