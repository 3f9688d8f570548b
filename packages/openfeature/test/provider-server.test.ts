// Real tier: flags kept in a git repository, served by `confbus server` (a child process) to a ConfigClient,
// evaluated through the OpenFeature SDK; a push and a refresh change them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { ConfbusProvider } from '@confbus/openfeature';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { startConfbusServer, type ConfbusProcess } from '@confbus/testkit/confbus-processes';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { ErrorCode, OpenFeature, ProviderEvents } from '@openfeature/server-sdk';
import { quietLogger, recordEvents } from './support/flag-events.js';

describe('ConfbusProvider against confbus server and a git remote', () => {
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;

  before(async () => {
    remote = await createGitRemote();
    temp = await makeTempDir();
    await remote.commit({
      'shop.yml': [
        'features:',
        '  new-checkout: false',
        '  banner:',
        '    text: Welcome',
        '    colors: [red, blue]',
        '  max-cart-items: 20',
        '  theme: light',
        'server:',
        '  port: 8080',
      ].join('\n'),
      'shop-dev.yml': 'features:\n  theme: dark\n',
    });
    server = await startConfbusServer({ gitUri: remote.url, basedir: `${temp.path}/mirror`, cwd: temp.path });
  });
  after(async () => {
    await OpenFeature.close();
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  it('evaluates flags from the repository by profile, and follows a push after a refresh', async () => {
    const client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${server.url}`,
        '--spring.application.name=shop',
        '--spring.profiles.active=dev',
      ],
      env: {},
      cwd: temp.path,
      logger: quietLogger,
    });
    await OpenFeature.setProviderAndWait('shop', new ConfbusProvider({ client }));
    const flags = OpenFeature.getClient('shop');
    const checkout = await flags.getBooleanDetails('new-checkout', true);
    assert.deepEqual([checkout.value, checkout.reason], [false, 'STATIC']);
    assert.equal(checkout.flagMetadata.configVersion, client.status.version);
    assert.equal(await flags.getStringValue('theme', 'none'), 'dark', 'the dev profile wins');
    assert.equal(await flags.getNumberValue('max-cart-items', 0), 20);
    assert.deepEqual(await flags.getObjectValue('banner', {}), { text: 'Welcome', colors: ['red', 'blue'] });
    assert.equal((await flags.getBooleanDetails('theme', false)).errorCode, ErrorCode.TYPE_MISMATCH);
    assert.equal((await flags.getBooleanDetails('port', false)).errorCode, ErrorCode.FLAG_NOT_FOUND);

    const changed = recordEvents(flags, ProviderEvents.ConfigurationChanged);
    const sha = await remote.commit({
      'shop.yml': [
        'features:',
        '  new-checkout: true',
        '  banner:',
        '    text: Welcome',
        '    colors: [red, green]',
        '  max-cart-items: 20',
        '  theme: light',
        'server:',
        '  port: 9090',
      ].join('\n'),
    });
    const event = changed.next();
    await client.refresh();
    assert.deepEqual((await event).flagsChanged, [
      'banner',
      'banner.colors',
      'banner.colors[1]',
      'new-checkout',
    ]);
    const after = await flags.getBooleanDetails('new-checkout', false);
    assert.deepEqual([after.value, after.flagMetadata.configVersion], [true, sha]);
    assert.deepEqual(await flags.getObjectValue('banner', {}), { text: 'Welcome', colors: ['red', 'green'] });
    await client.close();
  });
});
