import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const mainScript = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('sample client as a child process', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  const publish = (version: string, profile: string, comment: string) =>
    stub.setEnvironment('sample', 'dev', {
      version,
      propertySources: [
        { name: 'repo/sample-dev.yml', source: { 'group.profile': profile } },
        { name: 'repo/sample.yml', source: { 'group.profile': 'base', 'group.comment': comment } },
      ],
    });

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    publish('1'.repeat(40), 'dev', 'first');
  });
  after(async () => {
    await stopAllNodeProcesses();
    await stub.stop();
    await temp.remove();
  });

  it('serves start-up values on /static and refreshed ones on /dynamic after POST /actuator/refresh', async () => {
    const child = startNodeProcess(
      mainScript,
      [
        '--server.port=0',
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=sample',
        '--spring.profiles.active=dev',
      ],
      { MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE: 'refresh,health' },
      { cwd: temp.path },
    );
    const line = await child.waitForLine(/Listening on http:\/\/127\.0\.0\.1:\d+/, 60_000);
    const port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    const url = `http://127.0.0.1:${port}`;
    const getJson = async (path: string) => (await fetch(`${url}${path}`)).json();

    const initial = { profile: 'dev', comment: 'first' };
    assert.deepEqual(await getJson('/static'), initial);
    assert.deepEqual(await getJson('/dynamic'), initial);
    assert.ok(child.lines.some((l) => l.includes(`Fetching config from server at : ${stub.url}`)));

    publish('2'.repeat(40), 'dev2', 'second');
    const refresh = await fetch(`${url}/actuator/refresh`, { method: 'POST' });
    assert.equal(refresh.status, 200);
    assert.deepEqual(((await refresh.json()) as string[]).sort(), [
      'config.client.version',
      'group.comment',
      'group.profile',
    ]);
    assert.deepEqual(await getJson('/static'), initial);
    assert.deepEqual(await getJson('/dynamic'), { profile: 'dev2', comment: 'second' });
    // The server's log format (stdout is a pipe here: JSON, ISO times), and one INFO line for the refresh.
    const refreshLine = await child.waitForLine(/Refresh keys changed: \[/);
    const logged = JSON.parse(refreshLine) as Record<string, unknown>;
    assert.equal(logged.name, 'confbus-client');
    assert.match(String(logged.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(logged.msg, 'Refresh keys changed: [config.client.version, group.comment, group.profile]');
    assert.deepEqual([logged.trigger, logged.version], ['local', '2'.repeat(40)]);
    const startLines = child.lines.findIndex((l) => l.includes('Listening on http://'));
    assert.deepEqual(
      child.lines.slice(startLines + 1).filter((l) => l.startsWith('{') && l.includes('"level":30,')),
      [refreshLine],
      'after start-up, the refresh is the only INFO line',
    );
    assert.equal(((await getJson('/actuator/health')) as { status: string }).status, 'UP');
    assert.equal((await fetch(`${url}/actuator/env`)).status, 404);

    assert.equal(await child.stop(), 0);
  });

  it('exits non-zero with the fail-fast message when the server cannot be reached', async () => {
    const child = startNodeProcess(
      mainScript,
      [
        '--server.port=0',
        '--spring.config.import=configserver:http://127.0.0.1:1',
        '--spring.cloud.config.retry.max-attempts=2',
        '--spring.cloud.config.retry.initial-interval=10',
      ],
      {},
      { cwd: temp.path },
    );
    assert.equal(await child.exited, 1);
    assert.ok(
      child.stderr.some((l) =>
        l.includes('Could not locate PropertySource and the fail fast property is set'),
      ),
      child.lines.join('\n'),
    );
  });
});
