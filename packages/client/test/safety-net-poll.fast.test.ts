// The safety-net poll (issue #15): a client that missed a change — no bus event came — converges anyway, and
// one that started while the server was down picks the configuration up once the server answers again.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { ConfigClient, type RefreshEvent } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

describe('safety-net poll', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  const environment = (version: string, comment: string) => ({
    version: version.repeat(40),
    propertySources: [{ name: 'repo/app.yml', source: { 'group.comment': comment } }],
  });

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const logged = (logger: CaptureLogger, pattern: RegExp) =>
    new Promise<void>((resolve) => {
      if (logger.lines.some((line) => pattern.test(line))) resolve();
      logger.onLine((line) => {
        if (pattern.test(line)) resolve();
      });
    });

  // Short intervals so the test runs quickly; it waits for events, never for time.
  const start = (logger: CaptureLogger, extra: string[] = []) =>
    ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=app',
        '--confbus.client.poll.interval=150',
        '--confbus.client.poll.retry-interval=100',
        ...extra,
      ],
      env: {},
      cwd: temp.path,
      logger,
    });

  it('refreshes a change that no event announced', async () => {
    stub.setEnvironment('app', 'default', environment('a', 'first'));
    const logger = new CaptureLogger();
    const client = await start(logger);
    try {
      assert.equal(client.getString('group.comment'), 'first');
      const refreshed = once(client, 'refresh') as Promise<[RefreshEvent]>;
      stub.setEnvironment('app', 'default', environment('b', 'second'));
      const [event] = await refreshed;
      assert.deepEqual(event.keys, ['config.client.version', 'group.comment']);
      assert.equal(client.getString('group.comment'), 'second');
      await logged(logger, /without a refresh event reaching this client/);
    } finally {
      await client.close();
    }
  });

  it('catches up once a server that was down at start answers again', async () => {
    stub.setEnvironment('app', 'default', environment('c', 'while-down'));
    stub.setFailing('close');
    const logger = new CaptureLogger();
    const client = await start(logger);
    try {
      assert.equal(client.status.source, 'local');
      const refreshed = once(client, 'refresh');
      stub.setFailing(null);
      await refreshed;
      assert.equal(client.status.source, 'server');
      assert.equal(client.getString('group.comment'), 'while-down');
      await logged(logger, /Config server reachable again/);
    } finally {
      await client.close();
    }
  });

  it('does not poll with confbus.client.poll.interval=0', async () => {
    stub.setEnvironment('app', 'default', environment('d', 'fixed'));
    const client = await start(new CaptureLogger(), ['--confbus.client.poll.interval=0']);
    try {
      const before = stub.requestCount;
      // A refresh of our own is the only request: nothing else fetched meanwhile.
      await client.refresh();
      assert.equal(stub.requestCount, before + 1);
    } finally {
      await client.close();
    }
  });
});
