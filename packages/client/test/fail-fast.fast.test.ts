import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient, ConfigClientError } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

describe('fail-fast and retry', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    stub.setEnvironment('app', 'default', {
      version: 'c'.repeat(40),
      propertySources: [{ name: 'repo/app.yml', source: { k: 'remote' } }],
    });
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  // Small intervals: the test asserts on attempts, never on time.
  const retryArgs = [
    '--spring.cloud.config.retry.initial-interval=5',
    '--spring.cloud.config.retry.max-interval=20',
    '--spring.cloud.config.retry.multiplier=2',
    '--spring.application.name=app',
  ];

  it('retries until a server that comes up within the window answers', async () => {
    stub.setFailing(503);
    const logger = new CaptureLogger();
    // The server "comes up" once the client has logged its second failed attempt.
    logger.onLine((line) => {
      if (line.includes('attempt 2/6 failed')) stub.setFailing(null);
    });
    const before = stub.requestCount;
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.cloud.config.fail-fast=true', ...retryArgs],
      env: {},
      cwd: temp.path,
      logger,
    });
    assert.equal(stub.requestCount - before, 3);
    assert.equal(client.getString('k'), 'remote');
    assert.equal(client.status.source, 'server');
    await client.close();
  });

  it('fails with one clear error after max-attempts when the server never comes up', async () => {
    stub.setFailing('close');
    const before = stub.requestCount;
    const logger = new CaptureLogger();
    try {
      await assert.rejects(
        ConfigClient.start({
          args: [
            `--spring.cloud.config.uri=${stub.url}`,
            '--spring.cloud.config.fail-fast=true',
            '--spring.cloud.config.retry.max-attempts=3',
            ...retryArgs,
          ],
          env: {},
          cwd: temp.path,
          logger,
        }),
        (error: unknown) =>
          error instanceof ConfigClientError &&
          error.code === 'CONFBUS_FAIL_FAST' &&
          error.message.startsWith(
            `Could not locate PropertySource and the fail fast property is set, failing: GET ${stub.url}/app/default failed`,
          ),
      );
      // Three attempts: two logged retries. The server may see one request more, when the first attempt went
      // out on a kept-alive socket the stub then dropped and was re-sent once on a fresh connection.
      assert.equal(logger.lines.filter((line) => /attempt \d\/3 failed/.test(line)).length, 2);
      const requests = stub.requestCount - before;
      assert.ok(requests === 3 || requests === 4, `${requests} requests`);
    } finally {
      stub.setFailing(null);
    }
  });

  it("treats spring.config.import=configserver:URL as fail-fast, and 'optional:' as not", async () => {
    stub.setFailing(500);
    try {
      const before = stub.requestCount;
      await assert.rejects(
        ConfigClient.start({
          args: [
            `--spring.config.import=configserver:${stub.url}`,
            '--spring.cloud.config.retry.max-attempts=2',
            ...retryArgs,
          ],
          env: {},
          cwd: temp.path,
          logger: new CaptureLogger(),
        }),
        /fail fast property is set, failing: GET .* answered 500/,
      );
      assert.equal(stub.requestCount - before, 2);
      const viaParams = stub.requestCount;
      await assert.rejects(
        ConfigClient.start({
          args: [
            `--spring.config.import=optional:configserver:${stub.url}?fail-fast=true&max-attempts=3&initial-interval=5`,
            '--spring.application.name=app',
          ],
          env: {},
          cwd: temp.path,
          logger: new CaptureLogger(),
        }),
        /fail fast property is set/,
      );
      assert.equal(stub.requestCount - viaParams, 3);
      const client = await ConfigClient.start({
        args: [`--spring.config.import=optional:configserver:${stub.url}`, ...retryArgs],
        env: {},
        cwd: temp.path,
        logger: new CaptureLogger(),
      });
      assert.equal(client.status.source, 'local');
      await client.close();
    } finally {
      stub.setFailing(null);
    }
  });
});
