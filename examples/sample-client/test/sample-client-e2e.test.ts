// End to end, with nothing stubbed: a git remote, `confbus server` and two `confbus sample-client`
// processes (profiles dev and real), all real child processes talking HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  getJson,
  postJson,
  reserveFreePort,
  spawnSampleClient,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
  type ConfbusProcess,
} from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const clientArgs = (serverUrl: string, profile: string) => [
  '--server.port=0',
  '--spring.application.name=sample',
  `--spring.profiles.active=${profile}`,
  `--spring.cloud.config.uri=${serverUrl}`,
  '--management.endpoints.web.exposure.include=refresh,health',
  // These tests refresh by hand; the watch stream (on without a bus) would apply a push first.
  '--confbus.client.watch.enabled=false',
];

describe('sample client against the real config server', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  let dev: ConfbusProcess;
  let real: ConfbusProcess;

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({
      'sample.yml': 'group:\n  profile: base\n  comment: first\n',
      'sample-dev.yml': 'group:\n  profile: dev\n',
      'sample-real.yml': 'group:\n  profile: real\n',
    });
    server = await startConfbusServer({ gitUri: remote.url, basedir: `${temp.path}/mirror`, cwd: temp.path });
    [dev, real] = await Promise.all([
      startSampleClientProcess(clientArgs(server.url, 'dev'), {}, { cwd: temp.path }),
      startSampleClientProcess(clientArgs(server.url, 'real'), {}, { cwd: temp.path }),
    ]);
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  const groups = async (client: ConfbusProcess) => ({
    static: (await getJson(`${client.url}/static`)).body,
    dynamic: (await getJson(`${client.url}/dynamic`)).body,
  });

  it('serves /static and /dynamic; after a push and POST /actuator/refresh only /dynamic changes', async () => {
    assert.deepEqual(await groups(dev), {
      static: { profile: 'dev', comment: 'first' },
      dynamic: { profile: 'dev', comment: 'first' },
    });
    assert.deepEqual(await groups(real), {
      static: { profile: 'real', comment: 'first' },
      dynamic: { profile: 'real', comment: 'first' },
    });

    const sha = await remote.commit({
      'sample.yml': 'group:\n  profile: base\n  comment: second\n',
      'sample-dev.yml': 'group:\n  profile: dev2\n',
    });
    const devRefresh = await postJson(`${dev.url}/actuator/refresh`);
    assert.equal(devRefresh.status, 200);
    assert.deepEqual((devRefresh.body as string[]).sort(), [
      'config.client.version',
      'group.comment',
      'group.profile',
    ]);
    const realRefresh = await postJson(`${real.url}/actuator/refresh`);
    assert.equal(realRefresh.status, 200);
    assert.deepEqual((realRefresh.body as string[]).sort(), ['config.client.version', 'group.comment']);

    assert.deepEqual(await groups(dev), {
      static: { profile: 'dev', comment: 'first' },
      dynamic: { profile: 'dev2', comment: 'second' },
    });
    assert.deepEqual(await groups(real), {
      static: { profile: 'real', comment: 'first' },
      dynamic: { profile: 'real', comment: 'second' },
    });
    const health = (await getJson(`${dev.url}/actuator/health`)).body as {
      status: string;
      details: { version: string };
    };
    assert.equal(health.status, 'UP');
    assert.equal(health.details.version, sha);
  });

  it('keeps the last good values when a push breaks the YAML, and the refresh answers 5xx saying why', async () => {
    const before = { dev: await groups(dev), real: await groups(real) };
    await remote.commit({ 'sample.yml': 'group:\n  profile: base\n  comment: [unclosed\n' });

    for (const client of [dev, real]) {
      const refresh = await postJson(`${client.url}/actuator/refresh`);
      assert.ok(refresh.status >= 500, `status ${refresh.status}`);
      const message = (refresh.body as { message: string }).message;
      assert.match(message, /^Refresh failed, keeping the current configuration \(version [0-9a-f]{40}\)/);
      assert.match(message, /sample\.yml/, message);
      const health = (await getJson(`${client.url}/actuator/health`)).body as {
        details: { lastRefreshError?: string };
      };
      assert.equal(health.details.lastRefreshError, message);
    }
    assert.deepEqual({ dev: await groups(dev), real: await groups(real) }, before);

    // Fixing the file makes refresh work again.
    await remote.commit({ 'sample.yml': 'group:\n  profile: base\n  comment: third\n' });
    const fixed = await postJson(`${dev.url}/actuator/refresh`);
    assert.equal(fixed.status, 200);
    assert.deepEqual((await groups(dev)).dynamic, { profile: 'dev2', comment: 'third' });
  });
});

describe('sample client fail-fast against a server that is down', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({ 'sample.yml': 'group:\n  profile: base\n  comment: late\n' });
  });
  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  it('gets its configuration when the server comes up within the retry window', async () => {
    const port = await reserveFreePort();
    const child = spawnSampleClient(
      [
        '--server.port=0',
        '--spring.application.name=sample',
        `--spring.config.import=configserver:http://127.0.0.1:${port}`,
        // A window wide enough for a server start on a loaded machine; the test waits on log lines.
        '--spring.cloud.config.retry.max-attempts=120',
        '--spring.cloud.config.retry.initial-interval=250',
        '--spring.cloud.config.retry.max-interval=500',
      ],
      {},
      temp.path,
    );
    await child.waitForLine(/Config server attempt 1\/120 failed/, 60_000);
    await startConfbusServer({ gitUri: remote.url, basedir: `${temp.path}/mirror`, port, cwd: temp.path });
    const line = await child.waitForLine(/Listening on http:\/\/127\.0\.0\.1:\d+/, 90_000);
    const url = `http://127.0.0.1:${/Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1]}`;
    const dynamic = await waitFor('the sample client to answer /dynamic', async () => {
      const response = await getJson(`${url}/dynamic`);
      return response.status === 200 ? response.body : undefined;
    });
    assert.deepEqual(dynamic, { profile: 'base', comment: 'late' });
  });

  it('exits non-zero with one clear message when the server never comes up', async () => {
    const port = await reserveFreePort();
    const child = spawnSampleClient(
      [
        '--server.port=0',
        `--spring.config.import=configserver:http://127.0.0.1:${port}`,
        '--spring.cloud.config.retry.max-attempts=3',
        '--spring.cloud.config.retry.initial-interval=10',
      ],
      {},
      temp.path,
    );
    const code = await child.exited;
    assert.notEqual(code, 0);
    const failures = child.stderr.filter((line) =>
      line.includes('Could not locate PropertySource and the fail fast property is set'),
    );
    assert.equal(failures.length, 1, child.lines.join('\n'));
    assert.match(failures[0]!, new RegExp(`127\\.0\\.0\\.1:${port}`));
    // No stack trace: one message, not a dump.
    assert.ok(!child.stderr.some((line) => /^\s+at /.test(line)), child.stderr.join('\n'));
  });
});
