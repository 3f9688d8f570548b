/**
 * `confbus server` that cannot start, as a real child process: whatever stops the start (a setting found wrong,
 * no repository configured, a step after the port opened), the command exits non-zero, says why, and leaves no
 * port open behind it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type NodeProcess, startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN, reserveFreePort } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { canConnect } from '@confbus/testkit/git-daemon';
import { makeTempDir } from '@confbus/testkit/temp-dir';

/** The exit code, or 'still running' when the process has not exited well after it should have (a safety net). */
async function exitOf(child: NodeProcess, withinMs = 30_000): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('still running'), withinMs);
  });
  try {
    return await Promise.race([child.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('confbus server: a start that fails', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'greeting: hello\n' });
    temp = await makeTempDir('confbus-start-failure-');
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  const startServer = (port: number, name: string, args: readonly string[]): NodeProcess =>
    startNodeProcess(CONFBUS_BIN, [
      'server',
      `--server.port=${port}`,
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${remote.url}`,
      `--spring.cloud.config.server.git.basedir=${join(temp.path, name)}`,
      ...args,
    ]);

  for (const [what, args, message] of [
    [
      'a broker address that is no host:port',
      ['--spring.rabbitmq.addresses=host:notaport'],
      /confbus: spring\.rabbitmq\.addresses: 'host:notaport' is neither host\[:port\]/,
    ],
    [
      'a blank bus destination',
      ['--spring.cloud.bus.destination= '],
      /confbus: spring\.cloud\.bus\.destination must not be blank/,
    ],
    [
      'two brokers and no choice between them',
      ['--spring.rabbitmq.host=localhost', '--spring.kafka.bootstrap-servers=localhost:9092'],
      /Both spring\.rabbitmq\.host and spring\.kafka\.bootstrap-servers are set/,
    ],
  ] as const) {
    it(`refuses ${what} before the port opens, and exits 1`, async () => {
      const port = await reserveFreePort();
      const child = startServer(port, `bus-${port}`, ['--spring.cloud.bus.enabled=true', ...args]);
      assert.equal(await exitOf(child), 1, child.lines.join('\n'));
      assert.match(child.stderr.join('\n'), message);
      assert.ok(!child.lines.some((line) => /[Ll]istening (at|on)/.test(line)), child.lines.join('\n'));
      assert.equal(await canConnect(port), false, 'nothing listens on the port');
    });
  }

  it('a step that fails after the port opened (a clone-on-start clone) closes the port and exits 1', async () => {
    const port = await reserveFreePort();
    const child = startNodeProcess(CONFBUS_BIN, [
      'server',
      `--server.port=${port}`,
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${join(temp.path, 'no-such-repo.git')}`,
      `--spring.cloud.config.server.git.basedir=${join(temp.path, 'missing-mirror')}`,
      '--spring.cloud.config.server.git.clone-on-start=true',
    ]);
    assert.equal(await exitOf(child), 1, child.lines.join('\n'));
    assert.ok(
      child.lines.some((line) => line.includes('Server listening at')),
      'the port had opened',
    );
    assert.equal(await canConnect(port), false, 'nothing listens on the port');
  });

  it('no repository configured: refuses to start naming the settings, and serves no sample', async () => {
    const cwd = await makeTempDir('confbus-no-repository-');
    try {
      const port = await reserveFreePort();
      // The typo the sample once hid: a variable that nearly names the uri.
      const child = startNodeProcess(
        CONFBUS_BIN,
        ['server', `--server.port=${port}`, '--server.address=127.0.0.1'],
        { SPRING_CLOUD_CONFIG_SERVER_GIT_URL: remote.url },
        { cwd: cwd.path },
      );
      assert.equal(await exitOf(child), 1, child.lines.join('\n'));
      const stderr = child.stderr.join('\n');
      assert.match(
        stderr,
        /confbus: No configuration repository: set spring\.cloud\.config\.server\.git\.uri/,
      );
      assert.match(stderr, /spring\.profiles\.active=native/);
      assert.match(stderr, /confbus\.server\.sample-repository=true/);
      assert.match(
        stderr,
        /Environment variable SPRING_CLOUD_CONFIG_SERVER_GIT_URL names no confbus setting \(ignored\)\. Did you mean SPRING_CLOUD_CONFIG_SERVER_GIT_URI/,
      );
      assert.equal(existsSync(join(cwd.path, '.confbus')), false, 'no sample repository was created');
      assert.equal(await canConnect(port), false, 'nothing listens on the port');
    } finally {
      await cwd.remove();
    }
  });

  it('the sample and a repository of its own are two sources: refused, naming both', async () => {
    const child = startServer(0, 'sample-and-uri', ['--confbus.server.sample-repository=true']);
    assert.equal(await exitOf(child), 1, child.lines.join('\n'));
    assert.match(
      child.stderr.join('\n'),
      /confbus\.server\.sample-repository=true serves the embedded sample repository, and spring\.cloud\.config\.server\.git\.uri names another source/,
    );
  });
});
