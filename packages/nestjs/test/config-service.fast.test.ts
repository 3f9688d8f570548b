// Fast tier: ConfbusModule in a Nest application context (no HTTP), its client fed by the in-process stub config
// server: what ConfigService reads, how it follows refreshes, and what validation refuses.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ConfigClient, ConfigClientError } from '@confbus/client';
import { silentLogger } from '@confbus/core';
import {
  ConfbusConfigService,
  ConfbusModule,
  ConfigService,
  registerAs,
  type ConfigChangeEvent,
  type ConfigHolder,
} from '@confbus/nestjs';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { z } from 'zod';

const sha = (n: number) => String(n).padStart(40, '0');

const schema = z.object({
  db: z.object({ host: z.string(), port: z.coerce.number().int().max(65535) }),
  feature: z.object({ enabled: z.coerce.boolean() }).default({ enabled: false }),
});
type AppConfig = z.infer<typeof schema>;

const dbNamespace = registerAs('database', (config) => ({
  url: `postgres://${config.getString('db.host')}:${config.getNumber('db.port')}`,
}));
const cacheNamespace = registerAs('cache', async (config) => ({ ttl: config.getNumber('cache.ttl', 60) }));

describe('ConfbusModule and ConfigService (stub server)', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };
  let source: Record<string, unknown>;
  let version = 0;
  const contexts: INestApplicationContext[] = [];

  const publish = () => {
    version++;
    stub.setEnvironment('app', 'default', {
      version: sha(version),
      propertySources: [{ name: 'repo/app.yml', source: { ...source } }],
    });
  };
  const start = {
    get args() {
      return [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=app'];
    },
  };
  const startOptions = () => ({ args: start.args, env: {}, cwd: temp.path, logger: silentLogger });
  const boot = async (root: DynamicModule) => {
    const context = await NestFactory.createApplicationContext(root, { logger: false, abortOnError: false });
    contexts.push(context);
    return context;
  };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
  });
  beforeEach(() => {
    source = {
      'db.host': 'db1',
      'db.port': '5432',
      'list[0]': 'a',
      'list[1]': 'b',
      'cache.ttl': 30,
      greeting: 'hi ${db.host}',
    };
    publish();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await stub.stop();
    await temp.remove();
  });

  it('reads keys, nested objects, the validated configuration and namespaces, with defaults', async () => {
    const context = await boot(
      ConfbusModule.forRoot({ start: startOptions(), schema, load: [dbNamespace, cacheNamespace] }),
    );
    const config: ConfbusConfigService<AppConfig, true> = context.get(ConfigService);
    assert.equal(context.get(ConfbusConfigService), config, 'ConfigService is ConfbusConfigService');
    assert.equal(config.get('greeting'), 'hi db1', 'placeholders resolved');
    assert.equal(config.get('db.port', { infer: true }), 5432, "the schema's output: coerced");
    assert.equal(config.get('feature.enabled', { infer: true }), false, "the schema's default");
    assert.deepEqual(config.get('db'), { host: 'db1', port: 5432 });
    assert.deepEqual(config.get('list'), ['a', 'b']);
    assert.equal(config.get('database.url'), 'postgres://db1:5432', 'a namespace');
    assert.deepEqual(config.get('cache'), { ttl: 30 }, 'an async namespace');
    assert.equal(config.get('missing'), undefined);
    assert.equal(config.get('missing', 'fallback'), 'fallback');
    assert.equal(config.get<number>('missing', 7), 7);
    assert.equal(config.getOrThrow('db.host'), 'db1');
    assert.throws(
      () => config.getOrThrow('missing.key'),
      (error) =>
        error instanceof ConfigClientError &&
        error.code === 'CONFBUS_MISSING_KEY' &&
        /missing\.key/.test(error.message),
    );
    const holder = context.get<ConfigHolder<typeof dbNamespace>>(dbNamespace.KEY);
    assert.equal(holder.current.url, 'postgres://db1:5432');
  });

  it('follows refreshes: live reads, rebuilt namespaces, changes$ and refreshes$', async () => {
    const context = await boot(
      ConfbusModule.forRoot({ start: startOptions(), load: [dbNamespace, cacheNamespace] }),
    );
    const config = context.get(ConfigService);
    const changes: ConfigChangeEvent[] = [];
    const refreshes: unknown[] = [];
    config.changes$.subscribe((change) => changes.push(change));
    config.refreshes$.subscribe((event) => refreshes.push(event));
    const db = context.get<ConfigHolder<typeof dbNamespace>>(dbNamespace.KEY);
    const cache = context.get<ConfigHolder<typeof cacheNamespace>>(cacheNamespace.KEY);

    source['db.host'] = 'db2';
    delete source['list[1]'];
    publish();
    assert.deepEqual(await config.refresh(), ['config.client.version', 'db.host', 'list[1]']);
    assert.equal(config.get('db.host'), 'db2');
    assert.equal(config.get('greeting'), 'hi db2');
    assert.deepEqual(config.get('list'), ['a']);
    assert.deepEqual([db.current.url, db.generation], ['postgres://db2:5432', 2]);
    assert.equal(cache.generation, 1, 'a namespace that read no changed key is kept');
    assert.deepEqual(
      changes.filter((change) => change.path !== 'config.client.version'),
      [
        { path: 'db.host', oldValue: 'db1', newValue: 'db2' },
        { path: 'list[1]', oldValue: 'b', newValue: undefined },
      ],
    );
    assert.deepEqual(refreshes, [
      { keys: ['config.client.version', 'db.host', 'list[1]'], version: sha(version) },
    ]);
  });

  it('refuses a refresh the schema rejects (the client stays on the previous configuration)', async () => {
    const context = await boot(ConfbusModule.forRoot({ start: startOptions(), schema }));
    const config = context.get<ConfbusConfigService<AppConfig, true>>(ConfigService);
    source['db.port'] = '70000';
    publish();
    await assert.rejects(config.refresh(), /db\.port: .*65535/);
    assert.equal(config.get('db.port', { infer: true }), 5432);
    assert.equal(context.get(ConfigClient).getString('db.port'), '5432');
  });

  it('does not boot on a configuration the schema rejects, naming the key', async () => {
    source['db.port'] = 'none';
    publish();
    await assert.rejects(
      NestFactory.createApplicationContext(ConfbusModule.forRoot({ start: startOptions(), schema }), {
        logger: false,
        abortOnError: false,
      }),
      (error) =>
        error instanceof ConfigClientError && error.code === 'CONFBUS_BIND' && /db\.port/.test(error.message),
    );
  });

  it('forRootAsync takes its options from injected providers; forFeature adds namespaces elsewhere', async () => {
    const SETTINGS = Symbol('settings');
    class SettingsModule {}
    class FeatureModule {}
    const context = await boot({
      module: class Root {},
      imports: [
        ConfbusModule.forRootAsync({
          isGlobal: true,
          imports: [
            {
              module: SettingsModule,
              providers: [{ provide: SETTINGS, useValue: startOptions() }],
              exports: [SETTINGS],
            },
          ],
          inject: [SETTINGS],
          useFactory: (settings: ReturnType<typeof startOptions>) => ({ start: settings }),
        }),
        { module: FeatureModule, imports: [ConfbusModule.forFeature(dbNamespace)] },
      ],
    });
    assert.equal(context.get(ConfigService).get('database.url'), 'postgres://db1:5432');
  });

  it('closes the client it started when the application closes, not one it was given', async () => {
    const owned = await boot(ConfbusModule.forRoot({ start: startOptions() }));
    const ownedClient = owned.get(ConfigClient);
    const given = await ConfigClient.start(startOptions());
    const borrowing = await boot(ConfbusModule.forRoot({ client: given }));
    assert.equal(borrowing.get(ConfigClient), given);
    await owned.close();
    await borrowing.close();
    await assert.rejects(ownedClient.refresh(), /closed/i);
    assert.deepEqual(await given.refresh(), []);
    await given.close();
  });
});
