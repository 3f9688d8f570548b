import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

describe('client.logger', () => {
  it("takes pino's forms: a message alone, or fields and a message, on the client's logger and its children", async () => {
    const temp = await makeTempDir();
    const capture = new CaptureLogger();
    const client = await ConfigClient.start({
      args: ['--spring.cloud.config.enabled=false'],
      env: {},
      cwd: temp.path,
      logger: capture,
    });
    try {
      client.logger.info('service started');
      client.logger.warn({ order: 7 }, 'slow order');
      client.logger.child({ component: 'db' }).error('connection lost');
      assert.deepEqual(capture.lines.slice(-3), [
        'info: service started',
        'warn: slow order {"order":7}',
        'error: connection lost',
      ]);
    } finally {
      await client.close();
      await temp.remove();
    }
  });
});
