/**
 * Fault: `file://` upstreams whose `packed-refs` is a FIFO, as a hung mount blocks on open (issue 23, item 3).
 * An open() like that never returns and cannot be cancelled; done in the server process it would hold one of
 * libuv's four file-system threads for good, so four such repositories would freeze every file read of the
 * server. Every read of an upstream is a git child process under the `git.timeout` deadline instead: once it
 * passes, requests for the stuck repositories fall through to the default one (as Spring's do), health shows
 * them DOWN naming the setting, a healthy repository and the console answer
 * meanwhile, the server recovers when the FIFO goes, and SIGTERM still stops it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { recordFault } from '../support/fault-report.js';
import { type RunningServer, startServer, stopFleet, waitUntil } from '../support/fleet.js';

const STUCK = ['stuck0', 'stuck1', 'stuck2', 'stuck3', 'stuck4'];
/** Long enough that the stuck requests are still waiting while the healthy ones are answered. */
const TIMEOUT_SECONDS = 6;
/** A hang is a failure, not a wait: far above any answer this test expects. */
const HANG = 60_000;

interface Pending {
  name: string;
  settled: boolean;
  response: Promise<{ status: number; body: string }>;
}

function request(url: string, name: string): Pending {
  const pending: Pending = { name, settled: false, response: Promise.resolve({ status: 0, body: '' }) };
  pending.response = fetch(url, { signal: AbortSignal.timeout(HANG) }).then(async (response) => {
    const body = await response.text();
    pending.settled = true;
    return { status: response.status, body };
  });
  // A hang fails the assertion awaiting it; a request nobody awaits (after a failure) must not fail the run.
  pending.response.catch(() => undefined);
  return pending;
}

describe('fault: a hung file:// upstream (FIFO packed-refs)', () => {
  let healthy: GitRemote;
  const stuck: GitRemote[] = [];
  let server: RunningServer;

  before(async () => {
    healthy = await createGitRemote('healthy');
    await healthy.commit({ 'application.yml': 'from: healthy\n' });
    for (const name of STUCK) {
      const remote = await createGitRemote(name);
      await remote.commit({ 'application.yml': `from: ${name}\n` });
      await promisify(execFile)('mkfifo', [join(remote.path, 'packed-refs')]);
      stuck.push(remote);
    }
    const repos: Record<string, string | number> = {};
    STUCK.forEach((name, i) => {
      repos[`spring.cloud.config.server.git.repos.${name}.uri`] = (stuck[i] as GitRemote).url;
      repos[`spring.cloud.config.server.git.repos.${name}.pattern`] = name;
    });
    server = await startServer({
      'spring.cloud.config.server.git.uri': healthy.url,
      'spring.cloud.config.server.git.timeout': TIMEOUT_SECONDS,
      ...repos,
    });
  });

  after(async () => {
    await stopFleet();
    await healthy?.remove();
    for (const remote of stuck) await remote.remove();
  });

  it('keeps the healthy repository, health and the console answering, shows DOWN, recovers', async () => {
    const pending = STUCK.flatMap((name) =>
      [0, 1].map(() => request(`${server.base}/${name}/default`, name)),
    );
    // Every stuck repository's first check has started (and hangs) before the healthy ones are asked.
    await waitUntil('every stuck repository to be checking its upstream', async () => {
      const repositories = (await server.health()).components.git?.details?.repositories as
        Record<string, { lastCheckAt?: string }> | undefined;
      return STUCK.every((name) => repositories?.[name]?.lastCheckAt !== undefined);
    });
    for (let i = 0; i < 3; i++) {
      const answer = await request(`${server.base}/app/default`, 'healthy').response;
      assert.equal(answer.status, 200, answer.body);
      assert.match(answer.body, /from":"healthy/);
      assert.equal((await request(`${server.base}/actuator/health`, 'health').response).status, 200);
      assert.equal((await request(`${server.base}/-/console/api/overview`, 'console').response).status, 200);
    }
    assert.deepEqual(
      pending.filter((p) => p.settled).map((p) => p.name),
      [],
      'the stuck repositories were still waiting for their deadline while the others answered',
    );

    // Past the deadline a request falls through to the default repository, as Spring's does when a matching one
    // fails.
    for (const answer of await Promise.all(pending.map((p) => p.response))) {
      assert.equal(answer.status, 200, answer.body);
      assert.match(answer.body, /from":"healthy/);
    }
    const health = await server.health();
    assert.equal(health.status, 'UP', 'the default repository decides the overall status');
    const repositories = health.components.git?.details?.repositories as Record<string, { status: string }>;
    for (const name of STUCK) assert.equal(repositories[name]?.status, 'DOWN', name);
    const details = health.components.git?.details?.repositories as Record<string, { lastError?: string }>;
    assert.match(details.stuck0?.lastError ?? '', /timed out.*git\.timeout/);

    const freedAt = Date.now();
    await rm(join((stuck[0] as GitRemote).path, 'packed-refs'));
    const recovered = await request(`${server.base}/stuck0/default`, 'stuck0').response;
    assert.equal(recovered.status, 200, recovered.body);
    assert.match(recovered.body, /from":"stuck0/);
    const after = (await server.health()).components.git?.details?.repositories as Record<
      string,
      { status: string }
    >;
    assert.equal(after.stuck0?.status, 'UP');

    // SIGTERM while requests wait on hung upstreams: the documented bound (about 4 s) holds.
    const waiting = request(`${server.base}/stuck1/default`, 'stuck1');
    await waitUntil('the stuck repository to be checking again', async () => {
      const repos = (await server.health()).components.git?.details?.repositories as Record<
        string,
        { checks?: number }
      >;
      return (repos.stuck1?.checks ?? 0) >= 2;
    });
    const exit = await server.process.stop(8_000);
    assert.equal(exit, 0, 'SIGTERM stopped the server (SIGKILL was not needed)');
    // The waiting request gets the documented 1.5 s and its connection is closed; git is killed within the rest.
    const late = server.process.lines.filter((line) => line.includes('did not finish in time'));
    assert.deepEqual(late, [], 'shutdown ended the hung git processes within its 4 s');
    await waiting.response.catch(() => undefined);
    recordFault({
      fault: 'hung file:// upstream (FIFO packed-refs) x5',
      clients: 0,
      outcome: 'healthy repo, health, console answered; stuck 503 after git.timeout, DOWN; recovered',
      convergeMs: Date.now() - freedAt,
    });
  });
});
