// The client reads its settings file with the same reader as the `confbus` command (core's readSettingsFile):
// Spring's `optional:` and `file:` prefixes work, and an unreadable file is a settings error naming the path.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

describe('client settings file (spring.config.location)', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir('confbus-client-settings-file-');
    stub.setEnvironment('orders', 'default', {
      label: 'main',
      version: 'v1',
      state: '',
      propertySources: [{ name: 'repo/orders.yml', source: { 'from.server': 'yes' } }],
    });
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const start = (location: string) =>
    ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=orders',
        `--spring.config.location=${location}`,
      ],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });

  it("starts without the file when the location is 'optional:' and the file is missing", async () => {
    const client = await start('optional:missing.yml');
    assert.equal(client.get('from.server'), 'yes');
    assert.equal(client.localSettings.optionalString('local.key'), undefined);
    await client.close();
  });

  it("reads the file behind 'optional:' and 'file:' when it is there", async () => {
    await writeFile(join(temp.path, 'present.yml'), 'local:\n  key: from-file\n');
    for (const location of ['optional:present.yml', 'file:present.yml', 'optional:file:present.yml']) {
      const client = await start(location);
      assert.equal(client.get('local.key'), 'from-file', location);
      await client.close();
    }
  });

  it('fails with a settings error naming the path when a required file is missing', async () => {
    await assert.rejects(start('missing.yml'), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'CONFBUS_BAD_SETTING');
      assert.match(error.message, /^Cannot read settings file .*\/missing\.yml: /);
      assert.doesNotMatch(error.message, /optional:/);
      return true;
    });
  });

  it('resolves ${...} in its settings against environment variables and other settings, as Spring Boot does', async () => {
    await writeFile(
      join(temp.path, 'placeholders.yml'),
      [
        'spring.application.name: ${APP:orders}',
        'spring.cloud.config.uri: ${CONFIG_SERVER_URL}',
        'spring.cloud.config.name: ${spring.application.name}',
        'local.greeting: hello ${server.name}',
        '',
      ].join('\n'),
    );
    const client = await ConfigClient.start({
      args: [`--spring.config.location=placeholders.yml`],
      env: { CONFIG_SERVER_URL: stub.url },
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    try {
      assert.equal(client.get('from.server'), 'yes', 'fetched from the uri the placeholder named');
      assert.equal(client.localSettings.get('spring.cloud.config.name'), 'orders');
      // The application's own properties stay as written: each read resolves them across every source.
      assert.equal(client.localSettings.get('local.greeting'), 'hello ${server.name}');
    } finally {
      await client.close();
    }
  });

  it('logs a SPRING_ variable that nearly names one of its settings, as docs/settings.md promises', async () => {
    const logger = new CaptureLogger();
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=orders'],
      env: { SPRING_CLOUD_CONFIG_LABLE: 'main' },
      cwd: temp.path,
      logger,
    });
    await client.close();
    assert.ok(
      logger.lines.some((line) =>
        /^warn: .*SPRING_CLOUD_CONFIG_LABLE names no confbus setting .*SPRING_CLOUD_CONFIG_LABEL/.test(line),
      ),
      JSON.stringify(logger.lines),
    );
  });
});
