// Rollout changes reach a fleet without a bus on the watch stream (real Git mirror, no bus): a watcher of the
// application is told of the start (naming B) and of a rollback (naming A), and fetches the commit of its wave.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openEventStream } from '@confbus/testkit/event-stream';
import { waitFor } from '@confbus/testkit/wait-for';
import type { TestServer } from '../git-server-harness.js';
import { type RolloutGitServer, startRolloutGitServer } from './rollout-git-server.js';

interface Change {
  version: string;
  keys: string[] | null;
}

describe('rollouts announced on the watch stream', () => {
  let fixture: RolloutGitServer | undefined;
  let server: TestServer;
  let A: string;
  let B: string;

  before(async () => {
    fixture = await startRolloutGitServer();
    ({ server, A, B } = fixture);
  });
  after(() => fixture?.stop());

  it('tells the watchers of the application of a start and of a rollback', async () => {
    const stream = await openEventStream(`${server.base}/-/watch/orders/default?version=${A}`, {
      accept: 'text/event-stream',
    });
    try {
      await waitFor('a watcher', () => server.server.watch?.hub.watchers === 1);
      const started = await fetch(`${server.base}/-/rollouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ application: 'orders', from: A, to: B, waves: '100%' }),
      });
      assert.equal(started.status, 201, await started.clone().text());
      const { id } = (await started.json()) as { id: string };
      const changes = () =>
        stream.events.filter((e) => e.event === 'change').map((e) => JSON.parse(e.data) as Change);
      await waitFor('the start', () => changes().length === 1);
      assert.deepEqual(changes()[0], { ...changes()[0], version: B, keys: null });
      const fetched = (
        await server.get('/orders/default', { 'x-confbus-instance-id': 'orders-1' })
      ).json() as {
        version: string;
      };
      assert.equal(fetched.version, B, 'the watcher fetches, and its wave (100%) is on B');

      const rolledBack = await fetch(`${server.base}/-/rollouts/${id}/rollback`, { method: 'POST' });
      assert.equal(rolledBack.status, 200);
      await waitFor('the rollback', () => changes().length === 2);
      assert.equal(changes()[1]!.version, A);
    } finally {
      stream.close();
    }
  });
});
