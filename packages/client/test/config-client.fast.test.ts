import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigClient, ConfigClientError } from '@confbus/client';
import { JavaDouble } from '@confbus/core';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { z } from 'zod';
import { CaptureLogger } from './support/capture-logger.js';

describe('ConfigClient start-up and reads', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    stub.setEnvironment('orders', 'dev,eu', {
      version: 'a'.repeat(40),
      state: '',
      propertySources: [
        { name: 'repo/orders-eu.yml', source: { 'group.comment': 'from eu', 'db.url': 'jdbc:${db.host}/x' } },
        {
          name: 'repo/orders.yml',
          source: {
            'group.comment': 'from orders',
            'group.profile': 'remote',
            'db.host': 'db1',
            'db.port': 5432,
            'feature.on': 'yes',
            'feature.off': 'off',
            'feature.bad': 'maybe',
            'http.port': '0x1F90',
            greeting: 'hello ${user.name:anonymous} on ${server.port}',
            'cycle.a': '${cycle.b}',
            'cycle.b': '${cycle.a}',
            'pool.size': '10',
            'pool.hosts[0].name': 'a',
            'pool.hosts[1].name': 'b',
            'pool.tags[0]': 'x',
            'pool.tags[1]': 'y',
            'db.password': 's3cret',
          },
        },
      ],
    });
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const start = (args: string[] = [], env: Record<string, string> = {}, logger = new CaptureLogger()) =>
    ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=orders', ...args],
      env: { SPRING_PROFILES_ACTIVE: 'dev,eu', ...env },
      cwd: temp.path,
      logger,
    });

  it('warns about a mistyped SPRING_ variable on its logger, and logs one start-up line with secrets masked', async () => {
    const logger = new CaptureLogger();
    const client = await start(
      ['--spring.cloud.config.password=pa55word'],
      // LABLE: a near miss of spring.cloud.config.label. DATASOURCE_URL: the application's own, not a typo.
      { SPRING_CLOUD_CONFIG_LABLE: 'main', SPRING_DATASOURCE_URL: 'jdbc:db' },
      logger,
    );
    try {
      const warnings = logger.lines.filter((line) => line.startsWith('warn: Environment variable'));
      assert.deepEqual(warnings, [
        'warn: Environment variable SPRING_CLOUD_CONFIG_LABLE names no confbus setting (ignored). Did you mean SPRING_CLOUD_CONFIG_LABEL (spring.cloud.config.label)?',
      ]);
      const started = logger.lines.filter((line) => line.startsWith('info: Config client started'));
      assert.equal(started.length, 1, logger.lines.join('\n'));
      const line = started[0] as string;
      const message = `info: Config client started for orders (profiles dev,eu) from the config server at version ${'a'.repeat(40)}`;
      assert.ok(line.startsWith(`${message} {`), line);
      const fields = JSON.parse(line.slice(message.length + 1)) as Record<string, unknown>;
      assert.match(fields.version as string, /^\d+\.\d+\.\d+/);
      assert.equal(fields.source, 'server');
      assert.equal(fields.bus, 'disabled');
      assert.deepEqual(fields.uri, [stub.url]);
      assert.deepEqual(fields.settings, {
        'spring.cloud.config.uri': `${stub.url} (argument)`,
        'spring.application.name': 'orders (argument)',
        'spring.cloud.config.password': '****** (argument)',
        'spring.profiles.active': 'dev,eu (environment)',
      });
      assert.ok(!logger.lines.some((l) => l.includes('pa55word')), 'the password is never logged');
    } finally {
      await client.close();
    }
  });

  it('fetches GET /{name}/{profiles}[/{label}] with Spring encoding and logs Spring lines', async () => {
    const logger = new CaptureLogger();
    const before = stub.requestCount;
    const client = await start(['--spring.cloud.config.label=feature/x'], {}, logger);
    const request = stub.requests[before];
    assert.ok(request);
    assert.equal(request.url, '/orders/dev%2Ceu/feature(_)x');
    assert.equal(request.headers.accept, 'application/json');
    assert.ok(logger.lines.includes(`info: Fetching config from server at : ${stub.url}`));
    assert.ok(
      logger.lines.includes(
        `info: Located environment: name=orders, profiles=[dev,eu], label=feature/x, version=${'a'.repeat(40)}, state=`,
      ),
      logger.lines.join('\n'),
    );
    assert.equal(client.get('config.client.version'), 'a'.repeat(40));
    assert.equal(client.get('config.client.state'), '');
    assert.equal(client.status.source, 'server');
    await client.close();
  });

  it('sends every label in one request with spring.cloud.config.send-all-labels', async () => {
    const before = stub.requestCount;
    const client = await start([
      '--spring.cloud.config.label=main,feature/x',
      '--spring.cloud.config.sendAllLabels=true',
    ]);
    assert.equal(stub.requestCount, before + 1);
    assert.equal(stub.requests[before]?.url, '/orders/dev%2Ceu/main%2Cfeature(_)x');
    await client.close();
  });

  it('lets remote sources beat local settings, propertySources[0] beat later ones, and resolves placeholders', async () => {
    const client = await start(['--group.profile=local', '--server.port=9000', '--local.only=here'], {
      USER_NAME: 'ann',
    });
    assert.equal(client.get('group.comment'), 'from eu');
    assert.equal(client.get('group.profile'), 'remote');
    assert.equal(client.get('local.only'), 'here');
    assert.equal(client.get('db.url'), 'jdbc:db1/x');
    // user.name comes from a relaxed environment variable; server.port from an argument.
    assert.equal(client.get('greeting'), 'hello ann on 9000');
    assert.equal(client.get('cycle.a'), '${cycle.a}');
    assert.equal(client.get('missing.key'), undefined);
    await client.close();
  });

  it('coerces Spring-style and names the key in errors', async () => {
    const client = await start();
    assert.equal(client.getNumber('db.port'), 5432);
    assert.equal(client.getNumber('pool.size'), 10);
    assert.equal(client.getNumber('http.port'), 8080);
    assert.equal(client.getNumber('nope', 7), 7);
    assert.equal(client.getNumber('nope'), undefined);
    assert.equal(client.getBoolean('feature.on'), true);
    assert.equal(client.getBoolean('feature.off', true), false);
    assert.equal(client.getString('db.port'), '5432');
    assert.throws(
      () => client.getBoolean('feature.bad'),
      (error: unknown) =>
        error instanceof ConfigClientError &&
        error.code === 'CONFBUS_BAD_VALUE' &&
        error.message.includes("'feature.bad'"),
    );
    assert.throws(() => client.getNumber('db.password'), /'db\.password' = \(hidden\) is not a number/);
    assert.throws(() => client.getOrThrow('no.such.key'), /Configuration key 'no\.such\.key' is not set/);
    await client.close();
  });

  it('reads integers beyond 2^53 to the last digit, and Spring Doubles as numbers', async () => {
    stub.setEnvironment('numbers', 'default', {
      propertySources: [
        {
          name: 'repo/numbers.yml',
          source: { big: 12345678901234567891n, ratio: new JavaDouble(1000), half: new JavaDouble(0.5) },
        },
      ],
    });
    const client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=numbers'],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    assert.equal(client.get('big'), 12345678901234567891n);
    assert.equal(client.getString('big'), '12345678901234567891');
    assert.equal(client.getNumber('big'), Number(12345678901234567891n));
    assert.equal(client.get('ratio'), 1000);
    assert.equal(client.getNumber('half'), 0.5);
    await client.close();
  });

  it('binds a prefix to a nested object and validates it with a zod schema naming the path', async () => {
    // A list comes whole from the highest source that has it: the local third tag is not appended.
    const client = await start(['--pool.tags[2]=z', '--pool.extra=local']);
    assert.deepEqual(client.bind('pool'), {
      size: '10',
      extra: 'local',
      hosts: [{ name: 'a' }, { name: 'b' }],
      tags: ['x', 'y'],
    });
    const Pool = z.object({
      size: z.coerce.number().int(),
      hosts: z.array(z.object({ name: z.string() })),
      tags: z.array(z.string()),
    });
    const pool = client.bind('pool', Pool);
    assert.equal(pool.size, 10);
    // A prefix that is itself a list binds as an array, with or without a schema.
    assert.deepEqual(client.bind('pool.hosts'), [{ name: 'a' }, { name: 'b' }]);
    assert.deepEqual(client.bind('pool.tags', z.array(z.string())), ['x', 'y']);
    assert.equal(pool.hosts[1]?.name, 'b');
    const Db = z.object({ host: z.string(), port: z.number(), timeout: z.number() });
    assert.throws(
      () => client.bind('db', Db),
      (error: unknown) =>
        error instanceof ConfigClientError &&
        error.code === 'CONFBUS_BIND' &&
        /db\.timeout: /.test(error.message),
    );
    // Any Standard Schema validator works too.
    const standard = {
      '~standard': {
        validate: (value: unknown) => {
          const host = (value as { host?: unknown }).host;
          return host === 'db1'
            ? { value: { host } }
            : { issues: [{ message: 'must be db1', path: ['host'] }] };
        },
      },
    };
    assert.deepEqual(client.bind('db', standard), { host: 'db1' });
    assert.throws(
      () => client.bind('group', standard),
      /Invalid configuration under 'group': group\.host: must be db1/,
    );
    await client.close();
  });

  it('sends Basic credentials from percent-decoded URI userinfo, never logging the password', async () => {
    stub.requireBasicAuth({ username: 'svc', password: 'p@ss:w' });
    try {
      const logger = new CaptureLogger();
      const withUserInfo = stub.url.replace('http://', 'http://svc:p%40ss%3Aw@');
      const client = await ConfigClient.start({
        args: [`--spring.cloud.config.uri=${withUserInfo}`, '--spring.application.name=orders'],
        env: { SPRING_PROFILES_ACTIVE: 'dev,eu' },
        cwd: temp.path,
        logger,
      });
      assert.equal(client.status.source, 'server');
      assert.ok(!logger.lines.join('\n').includes('p%40ss'), logger.lines.join('\n'));
      await client.close();

      const viaSettings = await start([], {
        SPRING_CLOUD_CONFIG_USERNAME: 'svc',
        SPRING_CLOUD_CONFIG_PASSWORD: 'p@ss:w',
      });
      assert.equal(viaSettings.status.source, 'server');
      await viaSettings.close();
    } finally {
      stub.requireBasicAuth(null);
    }
  });

  it('reads the YAML settings file, tries a comma list of URIs in order, and understands v2 values', async () => {
    stub.setEnvironment('inventory', 'default', {
      version: 'b'.repeat(40),
      propertySources: [{ name: 'repo/inventory.yml', source: { 'x.y': { value: 42, origin: 'line 1' } } }],
    });
    const file = join(temp.path, 'application.yml');
    await writeFile(
      file,
      `spring:\n  application:\n    name: inventory\n  cloud:\n    config:\n      uri: http://127.0.0.1:1,${stub.url}\n`,
    );
    const client = await ConfigClient.start({ cwd: temp.path, env: {}, logger: new CaptureLogger() });
    assert.equal(client.getNumber('x.y'), 42);
    assert.equal(client.status.version, 'b'.repeat(40));
    await client.close();
  });

  it('starts on local settings with a warning when the server is down and fail-fast is off', async () => {
    const logger = new CaptureLogger();
    const client = await ConfigClient.start({
      args: ['--spring.cloud.config.uri=http://127.0.0.1:1', '--group.profile=local'],
      env: {},
      cwd: temp.path,
      logger,
    });
    assert.equal(client.status.source, 'local');
    assert.equal(client.get('group.profile'), 'local');
    assert.ok(logger.lines.some((line) => line.startsWith('warn: Could not locate PropertySource (')));
    await client.close();
  });
});
