/**
 * `confbus rollout …` as an operator runs it: real `confbus` child processes against a real `confbus server` on
 * a real git remote; outputs and exit statuses asserted (0 done, 1 the server refused or is unreachable, 2 usage).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  type ConfbusProcess,
  getJson,
  reserveFreePort,
  runConfbusCommand as runConfbus,
  startConfbusServer,
  waitFor,
} from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

describe('confbus rollout', { timeout: 300_000 }, () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  let commitA: string;
  let commitB: string;

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    commitA = await remote.commit({
      'orders.yml': 'orders:\n  limit: 1\n',
      'billing.yml': 'currency: EUR\n',
    });
    commitB = await remote.commit({ 'orders.yml': 'orders:\n  limit: 2\n' });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/mirror`,
      cwd: temp.path,
      // The judge stays out of this test (a canary's few errors, a slow step under load): the CLI is steering.
      args: [
        '--confbus.server.rollouts.min-error-rate=1000000000',
        '--confbus.server.rollouts.silence-ms=600000',
      ],
    });
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  const rollout = (...args: string[]) => runConfbus(['rollout', ...args]);

  it('starts a rollout, shows it with its instances and their health, lists it, and steers it', async () => {
    const started = await rollout(
      'start',
      '--server',
      server.url,
      '--application',
      'orders',
      '--from',
      commitA,
      '--waves',
      '1,50%,100%',
      '--bake',
      '5m',
      '--reason',
      'limit 2',
    );
    assert.equal(started.code, 0, started.stderr);
    const id = /^rollout (\S+): running, wave 1 of 3 since /m.exec(started.stdout)?.[1];
    assert.ok(id, started.stdout);
    assert.match(started.stdout, /^applications {2}orders \(label default\)$/m);
    assert.match(started.stdout, new RegExp(`^from \\(A\\) {6}${commitA}$`, 'm'));
    // --to left out: the label's head as the server sees it.
    assert.match(started.stdout, new RegExp(`^to \\(B\\) {8}${commitB}$`, 'm'));
    assert.match(started.stdout, /^waves {9}\[1\] → 50% → 100%, bake 300 s each$/m);
    assert.match(started.stdout, /^instances: 0 \(0 on B, 0 on A\)$/m);
    assert.match(started.stdout, /^ {2}\S+Z {2}start {2}operator {2}limit 2 \(waves 3\)$/m);

    // An instance fetches, is picked into the count wave at the engine's next tick, fetches B and reports.
    const asInstance = { 'x-confbus-instance-id': 'orders-1' };
    assert.equal((await fetch(`${server.url}/orders/default`, { headers: asInstance })).status, 200);
    await waitFor('orders-1 picked into the first wave', async () => {
      const { body } = await getJson(`${server.url}/-/rollouts/${id}`);
      return (body as { instances: Array<{ side: string }> }).instances[0]?.side === 'to';
    });
    assert.equal((await fetch(`${server.url}/orders/default`, { headers: asInstance })).status, 200);
    for (const errors of [1, 4]) {
      const report = await fetch(`${server.url}/-/rollouts/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...asInstance },
        body: JSON.stringify({ application: 'orders', version: commitB, status: 'UP', errors }),
      });
      assert.equal(report.status, 200, await report.text());
    }
    const shown = await rollout('show', id, '--server', server.url);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^instances: 1 \(1 on B, 0 on A\)$/m);
    assert.match(shown.stdout, /^ {2}ID +ON +SERVES +HEALTH +ERRORS$/m);
    assert.match(
      shown.stdout,
      new RegExp(`^ {2}orders-1 {2}B {3}${commitB.slice(0, 10)} {2}UP {6}3 in [\\d.]+ s$`, 'm'),
    );

    const json = await rollout('show', id, '--server', server.url, '--json');
    assert.equal(json.code, 0, json.stderr);
    const view = JSON.parse(json.stdout) as { id: string; plan: { to: string }; instances: unknown[] };
    assert.equal(view.id, id);
    assert.equal(view.plan.to, commitB);
    assert.equal(view.instances.length, 1);

    const listed = await rollout('list', '--server', server.url);
    assert.equal(listed.code, 0, listed.stderr);
    const [header, row] = listed.stdout.trim().split('\n');
    assert.match(header ?? '', /^ID +STATUS +WAVE +APPLICATIONS +FROM +TO +STARTED$/);
    assert.match(
      row ?? '',
      new RegExp(`^${id} +running +1/3 +orders +${commitA.slice(0, 10)} +${commitB.slice(0, 10)} +\\S+Z$`),
    );

    const paused = await rollout('pause', id, '--server', server.url, '--reason', 'looking at the graphs');
    assert.equal(paused.code, 0, paused.stderr);
    assert.match(paused.stdout, new RegExp(`^rollout ${id}: paused,`, 'm'));
    assert.match(paused.stdout, /^ {2}\S+Z {2}pause +operator {2}looking at the graphs\b/m);

    // The server refuses: its code, status and message on standard error, exit 1.
    const again = await rollout('pause', id, '--server', server.url);
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.match(again.stderr, /^confbus rollout: CONFBUS_ROLLOUT_CONFLICT \(409\): .+/);

    const conflicting = await rollout(
      'start',
      '--server',
      server.url,
      '--application',
      'orders',
      '--from',
      commitA,
    );
    assert.equal(conflicting.code, 1);
    assert.match(conflicting.stderr, /CONFBUS_ROLLOUT_CONFLICT \(409\)/);

    const rolledBack = await rollout('rollback', id, '--server', server.url, '--reason', 'limit too high');
    assert.equal(rolledBack.code, 0, rolledBack.stderr);
    assert.match(rolledBack.stdout, new RegExp(`^rollout ${id}: rolled-back,`, 'm'));
    assert.match(rolledBack.stdout, /^instances: 1 \(0 on B, 1 on A\)$/m);
    assert.match(rolledBack.stdout, /rollback +operator {2}limit too high\b/m);
  });

  it("prints the server's error code and message for what it refuses (exit 1)", async () => {
    const unknown = await rollout('show', 'no-such-rollout', '--server', server.url);
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.stderr,
      /^confbus rollout: CONFBUS_ROLLOUT_NOT_FOUND \(404\): No rollout 'no-such-rollout'/,
    );

    const unknownJson = await rollout('show', 'no-such-rollout', '--server', server.url, '--json');
    assert.equal(unknownJson.code, 1);
    assert.equal((JSON.parse(unknownJson.stdout) as { code: string }).code, 'CONFBUS_ROLLOUT_NOT_FOUND');

    const badWaves = await rollout(
      'start',
      '--server',
      server.url,
      '--application',
      'billing',
      '--from',
      commitA,
      '--waves',
      '1,lots',
    );
    assert.equal(badWaves.code, 1);
    assert.match(badWaves.stderr, /CONFBUS_ROLLOUT_BAD_REQUEST \(400\): 'waves'\[1\]: "lots" is neither/);

    const shortCommit = await rollout(
      'start',
      '--server',
      server.url,
      '--application',
      'billing',
      '--from',
      'abc123',
    );
    assert.equal(shortCommit.code, 1);
    assert.match(shortCommit.stderr, /CONFBUS_ROLLOUT_BAD_REQUEST \(400\): 'from' must be a full commit id/);
  });

  it('says which server it could not reach, its credentials kept out (exit 1)', async () => {
    const port = await reserveFreePort();
    const run = await rollout('list', '--server', `http://ops:s3cret@127.0.0.1:${port}`);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`GET http://127\\.0\\.0\\.1:${port}/-/rollouts: ECONNREFUSED`));
    assert.doesNotMatch(run.stderr + run.stdout, /s3cret/);
  });

  it('refuses a malformed command line before sending anything (exit 2), and has help', async () => {
    const usage = [
      ['list'],
      ['frobnicate', '--server', server.url],
      ['show', '--server', server.url],
      ['list', 'extra', '--server', server.url],
      ['start', '--server', server.url, '--from', commitA],
      ['start', '--server', server.url, '--application', 'orders'],
      ['start', '--server', server.url, '--application', 'orders', '--from', commitA, '--bake', 'soon'],
      ['pause', 'x', '--server', server.url, '--waves', '1'],
      ['list', '--server', 'ftp://host'],
      ['list', '--server', server.url, '--colour'],
    ];
    for (const args of usage) {
      const run = await rollout(...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /^confbus: .+/, args.join(' '));
    }
    const help = await rollout('--help');
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: confbus rollout start --server URL --application A/);
    const overview = await runConfbus(['--help']);
    assert.match(overview.stdout, /^ {2}rollout start\|list\|show\|pause\|resume\|promote\|abort\|rollback/m);
  });
});
