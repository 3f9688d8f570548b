/**
 * Fault: the config server restarts while clients are reading and a push lands. Requests either fail cleanly
 * (and clients retry) or answer one whole commit: never a mix of two commits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { recordFault } from '../support/fault-report.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';

interface EnvironmentJson {
  version: string;
  propertySources: Array<{ source: Record<string, unknown> }>;
}

function files(generation: number): Record<string, string> {
  // Every file carries the generation, so a response mixing two commits is visible.
  return {
    'application.yml': `generation: ${generation}\ngroup:\n  comment: gen-${generation}\n`,
    'sample.yml': `generation: ${generation}\n`,
    'sample-dev.yml': `generation: ${generation}\ngroup:\n  profile: dev\n`,
  };
}

describe('fault: server restart under load', () => {
  let remote: GitRemote;
  let server: RunningServer;
  let clients: RunningClient[];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit(files(1));
    server = await startServer({ 'spring.cloud.config.server.git.uri': remote.url });
    clients = await Promise.all(
      [1, 2].map(() =>
        startClient({ 'spring.profiles.active': 'dev', 'spring.cloud.config.uri': server.base }),
      ),
    );
  });

  after(async () => {
    await stopFleet();
    await remote?.remove();
  });

  it('never answers a mix of two commits, and clients converge after the restart', async () => {
    let running = true;
    let ok = 0;
    let failed = 0;
    /** Whole answers per generation (a mixed answer counts under none). */
    const answered = new Map<string, number>();
    const mixed: string[] = [];
    const load = Array.from({ length: 8 }, async () => {
      while (running) {
        try {
          const response = await fetch(`${server.base}/sample/dev`);
          if (response.status !== 200) {
            failed++;
            continue;
          }
          const env = (await response.json()) as EnvironmentJson;
          const generations = new Set(env.propertySources.map((s) => s.source.generation));
          if (generations.size !== 1) mixed.push(JSON.stringify(env));
          else {
            const [generation] = generations;
            answered.set(String(generation), (answered.get(String(generation)) ?? 0) + 1);
          }
          ok++;
        } catch {
          failed++; // connection refused while the server is down: the client's retry case
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });

    await waitUntil('some load before the restart', () => (answered.get('1') ?? 0) > 20);
    await server.stop();
    await remote.commit(files(2));
    await server.restart();
    const restartedAt = Date.now();
    // The restarted server answers the pushed commit, under the same load.
    await waitUntil('load on the new commit', () => (answered.get('2') ?? 0) > 20);
    running = false;
    await Promise.all(load);
    assert.deepEqual(mixed, [], 'no response mixed two commits');

    for (const client of clients) {
      await waitUntil(
        'client refresh after restart',
        async () => (await client.post('/actuator/refresh')).status === 200,
      );
      assert.deepEqual((await client.get('/dynamic')).json, { profile: 'dev', comment: 'gen-2' });
    }
    recordFault({
      fault: 'server restart under load + push',
      clients: clients.length,
      outcome: `${ok} answers, ${failed} refused while down, 0 mixed; clients converged`,
      convergeMs: Date.now() - restartedAt,
    });
  });
});
