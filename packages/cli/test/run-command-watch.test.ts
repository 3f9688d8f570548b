/**
 * `confbus run` with no broker anywhere: the client behind it follows the server's watch stream (ClientConfigFeed
 * starts a ConfigClient, which watches when its bus is off), so a push announced to /monitor restarts the child
 * with the new value. The client's poll is off and the server neither polls upstream nor re-checks on requests,
 * so only the watch stream can have brought the change.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, type ConfbusProcess, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { PYTHON_CHILD, logMessages } from './support/follow-children.js';

describe('confbus run on the watch stream, no broker', () => {
  let remote: GitRemote;
  let temp: TempDir;
  let server: ConfbusProcess;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'app.yml': 'greeting: hello\n' });
    temp = await makeTempDir('confbus-run-watch-');
    await writeFile(join(temp.path, 'child.py'), PYTHON_CHILD);
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: join(temp.path, 'mirror'),
      args: [
        '--spring.cloud.bus.enabled=false',
        '--spring.cloud.config.server.git.refresh-rate=3600',
        '--confbus.watch.upstream-check-interval=0',
      ],
    });
  });

  after(async () => {
    await stopAllNodeProcesses();
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
        '--',
        'python3',
        join(temp.path, 'child.py'),
      ],
      { CONFBUS_LOGGING_FORMAT: 'json' },
      { cwd: temp.path },
    );
    await run.waitForLine(/^serving GREETING=hello /);
    await waitFor('the watch stream open', () => logMessages(run).some((msg) => msg.startsWith('Watching ')));
    await remote.commit({ 'app.yml': 'greeting: hello from the watch stream\n' });
    const response = await fetch(`${server.url}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: ['app.yml'] }),
    });
    assert.equal(response.status, 200, await response.text());
    await run.waitForLine(/^serving GREETING=hello from the watch stream /);
    assert.ok(logMessages(run).includes('Configuration changed: restarting the child'));
    await run.stop();
  });
});
