/** The database backends' logic on fakes: Spring's query plans (JDBC, Redis) and the generation checks. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PropertySource } from '@confbus/core';
import pino from 'pino';
import { DatabaseRepository, type PropertySourceStore } from '../../src/database/database-repository.js';
import { DEFAULT_SQL, DEFAULT_SQL_WITHOUT_PROFILE } from '../../src/jdbc/jdbc-settings.js';
import { planJdbcQueries } from '../../src/jdbc/jdbc-store.js';
import { parseJdbcUrl } from '../../src/jdbc/jdbc-url.js';
import { postgresPlaceholders } from '../../src/jdbc/sql-clients.js';
import { RedisStore, redisKeysOf } from '../../src/redis/redis-store.js';

const defaults = { sql: DEFAULT_SQL, sqlWithoutProfile: DEFAULT_SQL_WITHOUT_PROFILE };
const names = (applications: string[], profiles: string[], queries = defaults) =>
  planJdbcQueries({ applications, profiles, label: 'master' }, queries).map((q) => q.name);

describe('JDBC query plan (JdbcEnvironmentRepository.findOne)', () => {
  it('profiles last first, application after the named one, rows without profile last', () => {
    assert.deepEqual(names(['foo'], ['dev', 'prod']), [
      'foo-prod',
      'application-prod',
      'foo-dev',
      'application-dev',
      'foo',
      'application',
    ]);
  });

  it('does not add application to a name starting with it (Spring tests the raw string)', () => {
    assert.deepEqual(names(['application'], ['default']), ['application-default', 'application']);
    assert.deepEqual(names(['applicationx'], ['dev']), ['applicationx-dev', 'applicationx']);
  });

  it('several applications: the last wins', () => {
    assert.deepEqual(names(['foo', 'bar'], ['dev']), [
      'bar-dev',
      'foo-dev',
      'application-dev',
      'bar',
      'foo',
      'application',
    ]);
  });

  it('only sql customised: default always first, no rows without profile', () => {
    const custom = {
      sql: 'SELECT K, V FROM T WHERE A=? AND P=? AND L=?',
      sqlWithoutProfile: DEFAULT_SQL_WITHOUT_PROFILE,
    };
    assert.deepEqual(names(['foo'], ['dev'], custom), [
      'foo-dev',
      'application-dev',
      'foo-default',
      'application-default',
    ]);
    const both = { ...custom, sqlWithoutProfile: 'SELECT K, V FROM T WHERE A=? AND P IS NULL AND L=?' };
    assert.deepEqual(names(['foo'], ['dev'], both), ['foo-dev', 'application-dev', 'foo', 'application']);
  });

  it('passes application, profile, label in JDBC order', () => {
    const plan = planJdbcQueries({ applications: ['foo'], profiles: ['dev'], label: 'v1' }, defaults);
    assert.deepEqual(plan[0]!.parameters, ['foo', 'dev', 'v1']);
    assert.deepEqual(plan.at(-1)!.parameters, ['application', 'v1']);
  });
});

describe('JDBC URLs and parameters', () => {
  it('reads PostgreSQL, MariaDB and MySQL URLs', () => {
    const pg = parseJdbcUrl('jdbc:postgresql://db.example:6543/config?user=u&password=p&sslmode=require');
    assert.deepEqual(
      { ...pg },
      {
        dialect: 'postgresql',
        host: 'db.example',
        port: 6543,
        database: 'config',
        user: 'u',
        password: 'p',
        ssl: true,
        display: 'jdbc:postgresql://db.example:6543/config',
      },
    );
    assert.equal(parseJdbcUrl('jdbc:mariadb://h/c').port, 3306);
    assert.equal(parseJdbcUrl('jdbc:mysql://h:3307/c', { username: 'root' }).user, 'root');
    assert.equal(parseJdbcUrl('jdbc:mysql://h:3307/c').dialect, 'mysql');
  });

  it('refuses another database, naming the setting', () => {
    assert.throws(
      () => parseJdbcUrl('jdbc:h2:mem:test'),
      /spring\.datasource\.url: jdbc:h2 is not a database/,
    );
    assert.throws(() => parseJdbcUrl('postgres://x/y'), /not a JDBC URL/);
  });

  it('numbers ? for PostgreSQL outside quotes', () => {
    assert.equal(
      postgresPlaceholders(`SELECT "K?", 'a?' FROM T WHERE A=? AND B=?`),
      `SELECT "K?", 'a?' FROM T WHERE A=$1 AND B=$2`,
    );
  });
});

describe('Redis sources (RedisEnvironmentRepository.findOne)', () => {
  it('one hash per application-profile and application, last profile first, each present even when empty', async () => {
    assert.deepEqual(redisKeysOf({ applications: ['foo'], profiles: ['dev', 'prod'] }), [
      'foo-prod',
      'application-prod',
      'foo-dev',
      'application-dev',
      'foo',
      'application',
    ]);
    // `application` itself, and blanks, are not read twice (Spring 5.0.6: trimmed, distinct).
    assert.deepEqual(redisKeysOf({ applications: ['application', ' '], profiles: ['dev'] }), [
      'application-dev',
      'application',
    ]);
    const hashes: Record<string, Record<string, string>> = { 'foo-dev': { a: '1' } };
    const store = new RedisStore(
      {
        hGetAll: async (key) => Object.entries(hashes[key] ?? {}),
        ping: async () => 'PONG',
        close: async () => undefined,
      },
      'redis://fake',
    );
    assert.deepEqual(await store.read({ applications: ['foo'], profiles: ['dev'], label: '' }), [
      { name: 'redis:foo-dev', source: new Map(Object.entries({ a: '1' })) },
      { name: 'redis:application-dev', source: new Map() },
      { name: 'redis:foo', source: new Map() },
      { name: 'redis:application', source: new Map() },
    ]);
  });
});

class FakeStore implements PropertySourceStore {
  readonly description = 'fake';
  value = 'one';
  reads = 0;
  down = false;
  async read(): Promise<PropertySource[]> {
    this.reads++;
    if (this.down) throw new Error('connection refused');
    return [{ name: 'foo', source: new Map(Object.entries({ x: this.value })) }];
  }
  async ping(): Promise<void> {
    if (this.down) throw new Error('connection refused');
  }
  async close(): Promise<void> {}
}

const query = { applications: ['foo'], profiles: ['default'], label: 'master' };
const logger = pino({ level: 'silent' });

describe('database repository: generations', () => {
  it('keeps the revision while what was served is unchanged, and starts a new one when it changed', async () => {
    const store = new FakeStore();
    const repository = new DatabaseRepository({
      store,
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      logger,
    });
    const changes: boolean[] = [];
    repository.onChecked((changed) => changes.push(changed));
    const first = await repository.resolve(null);
    assert.equal(first.label, 'master');
    await repository.read(query, first.commit);
    assert.equal((await repository.resolve(null)).commit, first.commit);
    store.value = 'two';
    const second = await repository.resolve('master');
    assert.notEqual(second.commit, first.commit);
    assert.deepEqual(changes, [false, false, true]);
  });

  it('with a refresh rate answers from memory until a check is due, and refreshNow checks at once', async () => {
    const store = new FakeStore();
    const repository = new DatabaseRepository({
      store,
      defaultLabel: 'master',
      refreshRateSeconds: 3600,
      logger,
    });
    assert.equal(repository.resolveNow(null), undefined, 'the first check is due');
    const first = await repository.resolve(null);
    await repository.read(query, first.commit);
    store.value = 'two';
    assert.equal(repository.resolveNow(null)?.commit, first.commit);
    await repository.refreshNow();
    assert.notEqual(repository.resolveNow(null)?.commit, first.commit);
  });

  it('a database that fails keeps the generation, reports stale and fails reads with 503', async () => {
    const store = new FakeStore();
    const repository = new DatabaseRepository({
      store,
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      logger,
    });
    const first = await repository.resolve(null);
    await repository.read(query, first.commit);
    store.down = true;
    const during = await repository.resolve(null);
    assert.equal(during.commit, first.commit);
    assert.equal(during.stale, true);
    assert.equal(repository.health().lastError, 'connection refused');
    await assert.rejects(
      repository.read(query, during.commit),
      (error: { code?: string }) => error.code === 'CONFBUS_REPOSITORY_UNAVAILABLE',
    );
    store.down = false;
    assert.equal((await repository.resolve(null)).stale, false);
  });
});
