import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

/** The repository's answer: server.port and greeting, plus the override flags it grants. */
function remote(flags: Record<string, string | boolean>) {
  return {
    version: 'b'.repeat(40),
    state: '',
    propertySources: [
      { name: 'repo/orders.yml', source: { 'server.port': 9000, 'shop.name': 'remote', ...flags } },
    ],
  };
}

describe('ConfigClient: local values against the remote (allow-override, override-none, defaults, enabled)', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    // The settings file sets both keys too: it wins only under override-none.
    await writeFile(join(temp.path, 'application.yml'), 'shop:\n  name: file\nserver:\n  port: 7000\n');
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const start = async (
    app: string,
    flags: Record<string, string | boolean>,
    options: { args?: string[]; env?: Record<string, string>; logger?: CaptureLogger } = {},
  ) => {
    stub.setEnvironment(app, 'default', remote(flags));
    return ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        `--spring.application.name=${app}`,
        ...(options.args ?? []),
      ],
      env: options.env ?? {},
      cwd: temp.path,
      logger: options.logger ?? new CaptureLogger(),
    });
  };

  it('by default the remote beats arguments, environment variables and the settings file (Spring)', async () => {
    const client = await start('p1', {}, { args: ['--server.port=8100'], env: { SHOP_NAME: 'env' } });
    try {
      assert.equal(client.getNumber('server.port'), 9000);
      assert.equal(client.getString('shop.name'), 'remote');
    } finally {
      await client.close();
    }
  });

  it('override-system-properties=false granted by the remote: arguments and environment win, the file does not', async () => {
    const flags = {
      'spring.cloud.config.allow-override': true,
      'spring.cloud.config.override-system-properties': 'false',
    };
    const client = await start('p2', flags, { args: ['--server.port=8100'], env: { SHOP_NAME: 'env' } });
    try {
      assert.equal(client.getNumber('server.port'), 8100);
      assert.equal(client.getString('shop.name'), 'env');
      assert.equal(client.propertySources()[1]?.name, 'localSettings');
    } finally {
      await client.close();
    }
    // Without an argument or variable, the remote still beats the settings file.
    const plain = await start('p2', flags);
    try {
      assert.equal(plain.getNumber('server.port'), 9000);
    } finally {
      await plain.close();
    }
  });

  it('override-none granted by the remote (camelCase spelling): every local source wins, the file too', async () => {
    const client = await start('p3', {
      'spring.cloud.config.allowOverride': 'true',
      'spring.cloud.config.overrideNone': 'true',
    });
    try {
      assert.equal(client.getNumber('server.port'), 7000);
      assert.equal(client.getString('shop.name'), 'file');
    } finally {
      await client.close();
    }
  });

  it('allow-override=false keeps the remote first whatever the other flags say', async () => {
    const client = await start(
      'p4',
      { 'spring.cloud.config.allow-override': false, 'spring.cloud.config.override-none': true },
      { args: ['--server.port=8100'] },
    );
    try {
      assert.equal(client.getNumber('server.port'), 9000);
    } finally {
      await client.close();
    }
  });

  it('a flag set locally has no effect, and the client says so', async () => {
    const logger = new CaptureLogger();
    const client = await start(
      'p5',
      {},
      { args: ['--server.port=8100', '--spring.cloud.config.override-none=true'], logger },
    );
    try {
      assert.equal(client.getNumber('server.port'), 9000);
      assert.ok(
        logger.lines.some((line) =>
          line.startsWith(
            'warn: spring.cloud.config.override-none is set locally (argument) and has no effect',
          ),
        ),
        logger.lines.join('\n'),
      );
    } finally {
      await client.close();
    }
  });

  it('uses the defaults given to the client for keys nobody else sets, below the remote', async () => {
    stub.setEnvironment('p6', 'default', remote({}));
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=p6'],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
      defaults: { 'shop.currency': 'EUR', 'shop.tags': ['a', 'b'], 'server.port': 1, 'shop.name': 'default' },
    });
    try {
      assert.equal(client.getString('shop.currency'), 'EUR');
      assert.equal(client.getString('shop.tags'), 'a,b');
      assert.equal(client.getNumber('server.port'), 9000);
      assert.equal(client.getString('shop.name'), 'remote');
      assert.equal(client.propertySources().at(-1)?.name, 'localSettings:defaults');
    } finally {
      await client.close();
    }
  });

  it('spring.cloud.config.enabled=false fetches nothing and serves local settings and defaults', async () => {
    const logger = new CaptureLogger();
    const before = stub.requestCount;
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=p7', '--shop.name=arg'],
      env: { SPRING_CLOUD_CONFIG_ENABLED: 'false' },
      cwd: temp.path,
      logger,
      defaults: { 'shop.currency': 'EUR' },
    });
    try {
      assert.equal(client.getString('shop.name'), 'arg');
      assert.equal(client.getNumber('server.port'), 7000);
      assert.equal(client.getString('shop.currency'), 'EUR');
      assert.equal(client.status.source, 'local');
      assert.deepEqual(await client.refresh(), []);
      assert.equal(await client.refreshIfVersionChanged(), null);
      assert.equal(stub.requestCount, before, 'no request reached the server');
      assert.ok(logger.lines.some((line) => line.startsWith('info: spring.cloud.config.enabled=false')));
      assert.ok(!logger.lines.some((line) => line.startsWith('warn:')), logger.lines.join('\n'));
    } finally {
      await client.close();
    }
  });
});
