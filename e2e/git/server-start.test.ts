/**
 * How the real `confbus server` starts with its Git repository. With clone-on-start the HTTP port opens at
 * once, even while the first clone is still waiting for the upstream, and health says the repository is not
 * available yet; once the clone lands the configuration is served. A clone that fails still fails the start,
 * with git's own reason. A basedir that holds something else stops the start, naming the setting.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, getJson, startConfbusServer, waitFor } from '@confbus/testkit/confbus-processes';
import { startGitDaemon, type GitDaemon } from '@confbus/testkit/git-daemon';
import { commitBulkFiles, createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { startTcpProxy, type TcpProxy } from '@confbus/testkit/tcp-proxy';
import { makeTempDir } from '@confbus/testkit/temp-dir';

interface Health {
  components: { git: { details: { available: boolean } } };
}

describe('confbus server: start with a Git repository', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let daemon: GitDaemon;
  let proxy: TcpProxy;

  before(async () => {
    remote = await createGitRemote();
    await commitBulkFiles(remote, 50, 16 * 1024);
    temp = await makeTempDir();
    daemon = await startGitDaemon(dirname(remote.path));
    proxy = await startTcpProxy(daemon.port);
  });
  after(async () => {
    await stopAllNodeProcesses();
    await proxy?.stop();
    await daemon?.stop();
    await remote?.remove();
    await temp?.remove();
  });

  it('opens the port while the first clone waits, and serves once it has landed', async () => {
    proxy.hold(true); // the upstream accepts but does not answer yet: the clone cannot finish meanwhile
    const server = await startConfbusServer({
      gitUri: `git://127.0.0.1:${proxy.port}/config-repo.git`,
      basedir: join(temp.path, 'mirror'),
      args: [
        '--spring.cloud.config.server.git.clone-on-start=true',
        '--spring.cloud.config.server.git.timeout=300',
      ],
    });
    const during = await getJson(`${server.url}/actuator/health`);
    assert.equal((during.body as Health).components.git.details.available, false);

    proxy.hold(false);
    await waitFor('the first clone', async () => {
      const health = await getJson(`${server.url}/actuator/health`);
      return (health.body as Health).components.git.details.available;
    });
    const config = await getJson(`${server.url}/application/default`);
    assert.equal(config.status, 200);
    assert.match(JSON.stringify(config.body), /"bulk":50/);
    assert.ok(server.process.lines.some((l) => l.includes('Cloned the configuration repository')));
    await server.process.stop();
  });

  it('a clone that fails fails the start, with git’s reason', async () => {
    const missing = join(temp.path, 'no-such-repo.git');
    const child = startNodeProcess(CONFBUS_BIN, [
      'server',
      '--server.port=0',
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${missing}`,
      `--spring.cloud.config.server.git.basedir=${join(temp.path, 'missing-mirror')}`,
      '--spring.cloud.config.server.git.clone-on-start=true',
    ]);
    assert.equal(await child.exited, 1);
    assert.ok(
      child.lines.some((l) => l.includes(`fatal: '${missing}' does not appear to be a git repository`)),
      child.lines.join('\n'),
    );
  });

  it('a basedir holding other files stops the start (without clone-on-start too), naming the setting', async () => {
    const basedir = join(temp.path, 'busy');
    await mkdir(basedir);
    await writeFile(join(basedir, 'notes.txt'), 'mine\n');
    const child = startNodeProcess(CONFBUS_BIN, [
      'server',
      '--server.port=0',
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${remote.url}`,
      `--spring.cloud.config.server.git.basedir=${basedir}`,
    ]);
    assert.equal(await child.exited, 1);
    const output = child.lines.join('\n');
    assert.match(
      output,
      /confbus: spring\.cloud\.config\.server\.git\.basedir \(.*busy\) is not empty and is not a Git repository/,
    );
    assert.doesNotMatch(output, /listening on/);
  });
});
