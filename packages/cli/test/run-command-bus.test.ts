/**
 * `confbus run` on the bus, the way a fleet gets a change: a push to the git remote, the Git host's webhook to
 * the server's /monitor, a refresh event over RabbitMQ (a test vhost), and the child restarted with the new
 * value. The client's poll is off, so only the bus can have brought the change.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, type ConfbusProcess, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { RABBIT_HOST, RABBIT_PORT, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { PYTHON_CHILD, logMessages } from './support/follow-children.js';

describe('confbus run on the bus', () => {
  let remote: GitRemote;
  let temp: TempDir;
  let vhost: TestVhost;
  let server: ConfbusProcess;
  let busArgs: string[];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'app.yml': 'greeting: hello\n' });
    temp = await makeTempDir('confbus-run-bus-');
    await writeFile(join(temp.path, 'child.py'), PYTHON_CHILD);
    vhost = await createTestVhost();
    busArgs = [
      '--spring.cloud.bus.enabled=true',
      `--spring.rabbitmq.host=${RABBIT_HOST}`,
      `--spring.rabbitmq.port=${RABBIT_PORT}`,
      `--spring.rabbitmq.virtual-host=${vhost.name}`,
    ];
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: join(temp.path, 'mirror'),
      args: busArgs,
    });
  });

  after(async () => {
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  it('restarts the child after a push webhook to /monitor', async () => {
    const run = startNodeProcess(
      CONFBUS_BIN,
      [
        'run',
        '--spring.application.name=app',
        `--spring.cloud.config.uri=${server.url}`,
        '--confbus.client.poll.interval=0',
        '--debounce=50ms',
        ...busArgs,
        '--',
        'python3',
        join(temp.path, 'child.py'),
      ],
      { CONFBUS_LOGGING_FORMAT: 'json' },
      { cwd: temp.path },
    );
    await run.waitForLine(/^serving GREETING=hello /);
    await remote.commit({ 'app.yml': 'greeting: hello from the bus\n' });
    const response = await fetch(`${server.url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: ['app.yml'] }),
    });
    assert.equal(response.status, 200, await response.text());
    await run.waitForLine(/^serving GREETING=hello from the bus /);
    assert.ok(logMessages(run).includes('Configuration changed: restarting the child'));
    await run.stop();
  });
});
