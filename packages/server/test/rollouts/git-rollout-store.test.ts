// The rollouts' state on a ref the server pushes to its own upstream (real git): two replicas on one remote
// serve identical answers, a restarted server resumes the rollout, and a replica that lost a write race is
// refused (compare-and-swap) and catches up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('rollouts kept on a Git ref: replicas and restarts', () => {
  let remote: GitRemote;
  const servers: TestServer[] = [];
  let A: string;
  let B: string;

  const start = async () => {
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.server.rollouts.sync-ms': '200',
      'confbus.server.rollouts.tick-ms': '60000',
      'logging.level.root': 'info',
    });
    servers.push(server);
    return server;
  };
  const versionFor = async (server: TestServer, id: string) =>
    (
      server.get('/orders/default', { 'x-confbus-instance-id': id }).then((r) => r.json()) as Promise<{
        version: string;
      }>
    ).then((body) => body.version);
  const answers = async (server: TestServer) => {
    const out: string[] = [];
    for (let index = 0; index < 20; index++) out.push(await versionFor(server, `orders-${index}`));
    return out;
  };
  const post = async (server: TestServer, path: string, body: unknown) => {
    const response = await fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  before(async () => {
    remote = await createGitRemote();
    A = await remote.commit({ 'orders.yml': 'greeting: a\n' });
    B = await remote.commit({ 'orders.yml': 'greeting: b\n' });
  });
  after(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await remote?.remove();
  });

  it('two replicas answer every instance alike; a restart resumes the rollout where it was', async () => {
    const [one, two] = [await start(), await start()];
    const started = await post(one, '/-/rollouts', {
      application: 'orders',
      from: A,
      to: B,
      waves: '40%,100%',
    });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const id = String(started.body.id);
    const onOne = await answers(one);
    assert.ok(onOne.includes(A) && onOne.includes(B), 'the 40% wave splits the fleet');
    await waitFor(
      'the second replica follows the ref',
      async () => (await two.get(`/-/rollouts/${id}`)).status === 200,
    ).catch((error: unknown) => {
      throw new Error(
        `${String(error)}: ${JSON.stringify(two.logs.filter((l) => l.component === 'rollouts').slice(-3))}`,
      );
    });
    assert.deepEqual(await answers(two), onOne);
    await remote.git('fetch', '--quiet', 'origin', '+refs/confbus/rollouts:refs/confbus/rollouts');
    assert.match(await remote.git('log', '--format=%s', 'refs/confbus/rollouts'), /start \(operator\)/);

    // The first replica pauses it; the second follows. A write from a stale replica is refused, then it catches up.
    assert.equal((await post(one, `/-/rollouts/${id}/pause`, {})).status, 200);
    await waitFor('the second replica sees the pause', async () => {
      const view = (await two.get(`/-/rollouts/${id}`)).json() as { status: string };
      return view.status === 'paused';
    });

    await one.stop();
    servers.splice(servers.indexOf(one), 1);
    const restarted = await start();
    const view = (await restarted.get(`/-/rollouts/${id}`)).json() as { status: string; wave: number };
    assert.equal(view.status, 'paused');
    assert.deepEqual(
      await answers(restarted),
      onOne,
      'the same instances on the same commits after the restart',
    );
  });

  it('two replicas acting at once: one wins, the other is refused (503 from the lost push, or 409 once synced)', async () => {
    const [one, two] = servers;
    assert.ok(one && two);
    const list = (await one.get('/-/rollouts')).json() as { rollouts: Array<{ id: string }> };
    const id = list.rollouts[0]!.id;
    // Both act at once: git accepts one push, refuses the other (force-with-lease).
    const [x, y] = await Promise.all([
      post(one, `/-/rollouts/${id}/resume`, {}),
      post(two, `/-/rollouts/${id}/promote`, {}),
    ]);
    const statuses = [x.status, y.status].sort();
    assert.ok(statuses[0] === 200, JSON.stringify([x.body, y.body]));
    if (statuses[1] !== 200) {
      const refused = x.status === 200 ? y : x;
      assert.ok(
        refused.body.code === 'CONFBUS_ROLLOUT_UNAVAILABLE' ||
          refused.body.code === 'CONFBUS_ROLLOUT_CONFLICT',
        JSON.stringify(refused.body),
      );
    }
    // Whatever won, both replicas end up answering the same.
    const winner = x.status === 200 ? x.body : y.body;
    await waitFor('both replicas agree', async () => {
      const views = await Promise.all(
        [one, two].map(async (s) => (await s.get(`/-/rollouts/${id}`)).json() as { status: string }),
      );
      return views.every((view) => view.status === winner.status);
    });
  });
});
