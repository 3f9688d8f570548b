// Fast tier: the provider over a real ConfigClient fed by the in-process stub config server, evaluated through
// the OpenFeature SDK's own API (each test in its own SDK domain).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { ConfbusProvider } from '@confbus/openfeature';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { ErrorCode, OpenFeature, ProviderEvents, ProviderStatus } from '@openfeature/server-sdk';
import { quietLogger, recordEvents } from './support/flag-events.js';

const sha = (n: number) => String(n).padStart(40, '0');

describe('ConfbusProvider (stub server)', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };
  let source: Record<string, unknown>;
  let version = 0;
  let domains = 0;

  const publish = () => {
    version++;
    stub.setEnvironment('flags', 'default', {
      version: sha(version),
      propertySources: [{ name: 'repo/flags.yml', source: { ...source } }],
    });
  };
  const startOptions = (extra: string[] = []) => ({
    args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=flags', ...extra],
    env: {},
    cwd: temp.path,
    logger: quietLogger,
  });
  const startClient = (extra: string[] = []) => ConfigClient.start(startOptions(extra));
  /** The provider set in a fresh SDK domain, and that domain's client. */
  const evaluate = async (provider: ConfbusProvider) => {
    const domain = `confbus-${++domains}`;
    await OpenFeature.setProviderAndWait(domain, provider);
    return OpenFeature.getClient(domain);
  };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
  });
  beforeEach(() => {
    source = {
      'features.dark-mode': true,
      'features.beta': 'on',
      'features.greeting': 'hello',
      'features.max-items': '0x10',
      'features.ratio': 0.25,
      'features.banner.text': 'Sale',
      'features.banner.colors[0]': 'red',
      'features.banner.colors[1]': 'blue',
      'features.limits': '{"daily": 5, "tags": ["a"]}',
      'features.broken-json': '{"daily":',
      'features.json-number': '42',
      'features.maybe': 'perhaps',
      'features.alias': '${other.flag}',
      'other.flag': 'first',
      'not-a-flag': true,
    };
    publish();
  });
  after(async () => {
    await OpenFeature.close();
    await stub.stop();
    await temp.remove();
  });

  it('resolves typed flags from keys under features., with reason STATIC and the config version', async () => {
    const client = await startClient();
    const flags = await evaluate(new ConfbusProvider({ client }));
    const dark = await flags.getBooleanDetails('dark-mode', false);
    assert.equal(dark.value, true);
    assert.equal(dark.reason, 'STATIC');
    assert.equal(dark.errorCode, undefined);
    assert.deepEqual(dark.flagMetadata, { configSource: 'server', configVersion: sha(version) });
    assert.equal(await flags.getBooleanValue('beta', false), true, "Spring's coercion: on → true");
    assert.equal(await flags.getStringValue('greeting', 'x'), 'hello');
    assert.equal(await flags.getStringValue('alias', 'x'), 'first', 'placeholders resolve');
    assert.equal(await flags.getNumberValue('max-items', 0), 16);
    assert.equal(await flags.getNumberValue('ratio', 0), 0.25);
    assert.deepEqual(await flags.getObjectValue('banner', {}), { text: 'Sale', colors: ['red', 'blue'] });
    assert.deepEqual(await flags.getObjectValue('limits', {}), { daily: 5, tags: ['a'] });
    assert.deepEqual(await flags.getObjectValue('banner.colors', []), ['red', 'blue']);
    await client.close();
  });

  it('answers the default with FLAG_NOT_FOUND, TYPE_MISMATCH and PARSE_ERROR as the spec names them', async () => {
    const client = await startClient();
    const flags = await evaluate(new ConfbusProvider({ client }));
    const cases = [
      [await flags.getBooleanDetails('missing', false), false, ErrorCode.FLAG_NOT_FOUND, /features\.missing/],
      [await flags.getBooleanDetails('not-a-flag', false), false, ErrorCode.FLAG_NOT_FOUND, /not found/],
      [await flags.getBooleanDetails('maybe', false), false, ErrorCode.TYPE_MISMATCH, /is not a boolean/],
      [await flags.getNumberDetails('greeting', 0), 0, ErrorCode.TYPE_MISMATCH, /is not a number/],
      [await flags.getStringDetails('banner', 'd'), 'd', ErrorCode.TYPE_MISMATCH, /is an object/],
      [await flags.getObjectDetails('broken-json', {}), {}, ErrorCode.PARSE_ERROR, /not valid JSON/],
      [await flags.getObjectDetails('json-number', {}), {}, ErrorCode.TYPE_MISMATCH, /not an object/],
      [await flags.getObjectDetails('dark-mode', {}), {}, ErrorCode.TYPE_MISMATCH, /boolean, not an object/],
    ] as const;
    for (const [details, fallback, code, message] of cases) {
      assert.deepEqual(details.value, fallback, details.flagKey);
      assert.equal(details.reason, 'ERROR', details.flagKey);
      assert.equal(details.errorCode, code, details.flagKey);
      assert.match(details.errorMessage ?? '', message, details.flagKey);
    }
    await client.close();
  });

  it('emits CONFIGURATION_CHANGED naming the changed flags (placeholders and object flags too), none otherwise', async () => {
    const client = await startClient();
    const flags = await evaluate(new ConfbusProvider({ client }));
    const changed = recordEvents(flags, ProviderEvents.ConfigurationChanged);

    source['features.dark-mode'] = false;
    source['features.banner.text'] = 'Sold out';
    source['other.flag'] = 'second';
    delete source['features.greeting'];
    source['features.new-flag'] = 'yes';
    source['unrelated'] = 'x';
    publish();
    const event = changed.next();
    await client.refresh();
    assert.deepEqual((await event).flagsChanged, [
      'alias',
      'banner',
      'banner.text',
      'dark-mode',
      'greeting',
      'new-flag',
    ]);
    assert.equal(await flags.getBooleanValue('dark-mode', true), false);
    assert.equal(await flags.getStringValue('alias', 'x'), 'second');
    assert.equal((await flags.getStringDetails('greeting', 'gone')).errorCode, ErrorCode.FLAG_NOT_FOUND);

    source['unrelated'] = 'y';
    publish();
    assert.deepEqual(await client.refresh(), ['config.client.version', 'unrelated']);
    assert.equal(changed.seen.length, 1, 'a refresh that changed no flag emits nothing');
    await client.close();
  });

  it('goes STALE when a refresh fails (reason STALE), READY again with the next one', async () => {
    const client = await startClient();
    const flags = await evaluate(new ConfbusProvider({ client }));
    const stale = recordEvents(flags, ProviderEvents.Stale);
    const ready = recordEvents(flags, ProviderEvents.Ready);
    stub.setFailing(500);
    try {
      const event = stale.next();
      await assert.rejects(client.refresh());
      assert.match((await event).message ?? '', /Refresh failed, flags are as before: .*500/);
    } finally {
      stub.setFailing(null);
    }
    assert.equal(flags.providerStatus, ProviderStatus.STALE);
    const details = await flags.getBooleanDetails('dark-mode', false);
    assert.deepEqual([details.value, details.reason], [true, 'STALE']);

    const back = ready.next();
    await client.refresh();
    await back;
    assert.equal(flags.providerStatus, ProviderStatus.READY);
    assert.equal((await flags.getBooleanDetails('dark-mode', false)).reason, 'STATIC');
    await client.close();
  });

  it('starts and closes a client of its own with `start`, under another prefix', async () => {
    source['toggles.checkout'] = 'true';
    publish();
    const provider = new ConfbusProvider({ start: startOptions(), prefix: 'toggles.' });
    const flags = await evaluate(provider);
    assert.equal(await flags.getBooleanValue('checkout', false), true);
    assert.equal((await flags.getBooleanDetails('dark-mode', false)).errorCode, ErrorCode.FLAG_NOT_FOUND);
    const owned = provider.client as ConfigClient;
    assert.ok(owned instanceof ConfigClient);
    await OpenFeature.clearProviders();
    await assert.rejects(owned.refresh(), /closed/i, 'onClose closed the client it started');
  });

  it('fails initialization (status ERROR) when its client cannot start, and says why', async () => {
    const provider = new ConfbusProvider({
      start: {
        ...startOptions([
          '--spring.cloud.config.fail-fast=true',
          '--spring.cloud.config.retry.max-attempts=1',
        ]),
      },
    });
    stub.setFailing(503);
    try {
      await assert.rejects(OpenFeature.setProviderAndWait('failing', provider), /503/);
    } finally {
      stub.setFailing(null);
    }
    assert.equal(OpenFeature.getClient('failing').providerStatus, ProviderStatus.ERROR);
  });

  it('answers CACHED while the client runs on its backup file', async () => {
    const backup = ['--confbus.client.backup.file=' + join(temp.path, 'backup.json')];
    await (await startClient(backup)).close();
    stub.setFailing(503);
    try {
      const client = await startClient(backup);
      assert.equal(client.status.source, 'backup');
      const flags = await evaluate(new ConfbusProvider({ client }));
      const details = await flags.getBooleanDetails('dark-mode', false);
      assert.deepEqual([details.value, details.reason], [true, 'CACHED']);
      assert.equal(details.flagMetadata.configSource, 'backup');
      await client.close();
    } finally {
      stub.setFailing(null);
    }
  });

  it('refuses both `client` and `start`', () => {
    assert.throws(
      () => new ConfbusProvider({ start: {}, client: {} as ConfigClient }),
      /either `client` or `start`/,
    );
  });
});
