/**
 * `confbus run` as users run it: a real config server on a real git remote, confbus run as a child process,
 * and a Python child that prints what its environment holds. Changes arrive by the client's safety-net poll
 * here (a fast one); the bus path (webhook → /monitor → RabbitMQ) is run-command-bus.test.ts.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type NodeProcess, startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, type ConfbusProcess, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { PYTHON_CHILD, logMessages } from './support/follow-children.js';

describe('confbus run', () => {
  let remote: GitRemote;
  let temp: TempDir;
  let server: ConfbusProcess;
  let child: string;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'app.yml':
        'greeting: hello\ngroup:\n  comment: first\nfeatures: [search, export]\nserver:\n  port: 8080\n',
    });
    temp = await makeTempDir('confbus-run-');
    child = join(temp.path, 'child.py');
    await writeFile(child, PYTHON_CHILD);
    server = await startConfbusServer({ gitUri: remote.url, basedir: join(temp.path, 'mirror') });
  });

  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  function confbusRun(options: readonly string[], env: Record<string, string> = {}): NodeProcess {
    return startNodeProcess(
      CONFBUS_BIN,
      [
        'run',
        '--spring.application.name=app',
        `--spring.cloud.config.uri=${server.url}`,
        '--confbus.client.poll.interval=200',
        '--debounce=50ms',
        ...options,
        '--',
        'python3',
        child,
      ],
      { CONFBUS_LOGGING_FORMAT: 'json', ...env },
      { cwd: temp.path },
    );
  }

  it("starts the child with the configuration as Spring-named variables; the child's own win", async () => {
    const run = confbusRun([], { SERVER_PORT: '9000', TRAP_TERM: '1' });
    const line = await run.waitForLine(/^serving /);
    assert.match(line, /GREETING=hello /);
    assert.match(line, /GROUP_COMMENT=first /);
    assert.match(line, /FEATURES_0=search FEATURES_1=export /);
    assert.match(line, /SERVER_PORT=9000 /, 'the inherited variable wins');
    assert.match(line, /CONFIG_CLIENT_VERSION=None /, 'the client metadata is no configuration');
    assert.equal(await run.stop(), 0);
  });

  it('applies --env-prefix, --env-include and --env-override', async () => {
    const run = confbusRun(['--env-prefix=APP_', '--env-include=group,server', '--env-override'], {
      APP_SERVER_PORT: '9000',
    });
    const line = await run.waitForLine(/^serving /);
    assert.match(line, /APP_GROUP_COMMENT=first /);
    assert.match(line, /APP_SERVER_PORT=8080 /, '--env-override: the configuration wins');
    assert.match(line, /GREETING=None /, 'not on the allow-list');
    await run.stop();
  });

  it('passes signals on and exits with the child status, 128 + n for a death by signal', async () => {
    const trapping = confbusRun([], { TRAP_TERM: '1', EXIT_ON_TERM: '7' });
    await trapping.waitForLine(/^serving /);
    process.kill(trapping.pid, 'SIGHUP');
    await trapping.waitForLine(/^HUP received/);
    process.kill(trapping.pid, 'SIGTERM');
    await trapping.waitForLine(/^TERM received/);
    assert.equal(await trapping.exited, 7);

    const plain = confbusRun([]);
    await plain.waitForLine(/^serving /);
    process.kill(plain.pid, 'SIGTERM');
    assert.equal(await plain.exited, 143);
  });

  it('restarts the child on a change, and never into a configuration that failed', async () => {
    const run = confbusRun([]);
    await run.waitForLine(/^serving GREETING=hello /);
    await remote.commit({ 'app.yml': 'greeting: hello again\ngroup:\n  comment: [unclosed\n' });
    // The poll's fetch is answered 500 (the file does not parse): nothing is applied.
    await waitFor('the failed check', () =>
      logMessages(run).some((msg) => msg.startsWith('Safety-net check of the config server failed')),
    );
    await remote.commit({ 'app.yml': 'greeting: hello again\ngroup:\n  comment: second\n' });
    const restarted = await run.waitForLine(/^serving GREETING=hello again /);
    assert.match(restarted, /GROUP_COMMENT=second /);
    const served = run.stdout.filter((line) => line.startsWith('serving '));
    assert.equal(served.length, 2, `one start, one restart:\n${served.join('\n')}`);
    assert.ok(logMessages(run).includes('Child stopped for the restart (signal SIGTERM)'));
    await run.stop();
  });

  it('sends the signal of --on-change=signal:HUP instead of restarting; nothing when the child sees no change', async () => {
    const run = confbusRun(['--on-change=signal:HUP']);
    await run.waitForLine(/^serving /);
    await remote.commit({ 'app.yml': 'greeting: hello once more\n' });
    await run.waitForLine(/^HUP received/);
    // Another application's file: the version moves, the child's environment does not.
    await remote.commit({ 'other.yml': 'greeting: not for app\n' });
    await waitFor('the second change', () =>
      logMessages(run).includes('Configuration changed, but nothing the child sees: left as it is'),
    );
    assert.equal(run.stdout.filter((line) => line === 'HUP received').length, 1);
    assert.equal(run.stdout.filter((line) => line.startsWith('serving ')).length, 1);
    await run.stop();
  });

  it('refuses to start the child without a configuration, and names a bad option (exit 2)', async () => {
    const unreachable = startNodeProcess(CONFBUS_BIN, [
      'run',
      '--spring.cloud.config.uri=http://127.0.0.1:1',
      '--',
      'python3',
      child,
    ]);
    assert.equal(await unreachable.exited, 1);
    assert.match(unreachable.stderr.join('\n'), /No configuration for python3: .*not starting/);
    assert.ok(!unreachable.stdout.some((line) => line.startsWith('serving ')));

    const typo = startNodeProcess(CONFBUS_BIN, ['run', '--on-chnage=none', '--', 'true']);
    assert.equal(await typo.exited, 2);
    assert.match(typo.stderr.join('\n'), /unknown option '--on-chnage'.*Did you mean '--on-change'/);
    const noCommand = startNodeProcess(CONFBUS_BIN, ['run', '--spring.application.name=app']);
    assert.equal(await noCommand.exited, 2);
    assert.match(noCommand.stderr.join('\n'), /needs the command after '--'/);
  });
});
