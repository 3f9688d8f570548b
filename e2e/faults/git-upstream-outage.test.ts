/**
 * Fault: the Git upstream becomes unreachable. The server keeps serving the last fetched state, health says it
 * is stale and since when, one warning per outage, recovery logged once; clients keep working throughout.
 */
import assert from 'node:assert/strict';
import { rename } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { recordFault } from '../support/fault-report.js';
import { type RunningServer, startClient, startServer, stopFleet, waitUntil } from '../support/fleet.js';

describe('fault: git upstream unreachable', () => {
  let remote: GitRemote;
  let server: RunningServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': 'group:\n  profile: dev\n  comment: before\n' });
    server = await startServer({ 'spring.cloud.config.server.git.uri': remote.url });
  });

  after(async () => {
    await stopFleet();
    await remote?.remove();
  });

  it('serves the last fetched state while upstream is away and recovers by itself', async () => {
    const client = await startClient({
      'spring.profiles.active': 'dev',
      'spring.cloud.config.uri': server.base,
    });
    await rename(remote.path, `${remote.path}.away`);
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${server.base}/sample/dev`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-config-stale'), 'true');
    }
    assert.equal((await client.post('/actuator/refresh')).status, 200);
    assert.deepEqual((await client.get('/dynamic')).json, { profile: 'dev', comment: 'before' });
    const stale = await server.health();
    assert.equal(stale.status, 'UP');
    assert.equal(stale.components.git?.status, 'STALE');
    assert.ok(stale.components.git?.details?.staleSince, 'health says since when');
    const warnings = server.process.lines.filter(
      (line) => line.includes('"level":40') && line.includes('"component":"git"'),
    );
    assert.equal(warnings.length, 1, `one warning per outage:\n${warnings.join('\n')}`);

    await rename(`${remote.path}.away`, remote.path);
    await remote.commit({ 'sample-dev.yml': 'group:\n  profile: dev\n  comment: after\n' });
    const backAt = Date.now();
    await waitUntil(
      'the server to reach upstream again',
      async () =>
        (await server.health()).components.git?.status === 'UP' ||
        (await fetch(`${server.base}/sample/dev`), false),
    );
    assert.equal((await client.post('/actuator/refresh')).status, 200);
    assert.deepEqual((await client.get('/dynamic')).json, { profile: 'dev', comment: 'after' });
    await server.process.waitForLine(/recovered|reachable again/i, 5_000);
    recordFault({
      fault: 'git upstream unreachable',
      clients: 1,
      outcome: 'last state served (X-Config-Stale), health STALE, 1 warning; recovered',
      convergeMs: Date.now() - backAt,
    });
  });
});
