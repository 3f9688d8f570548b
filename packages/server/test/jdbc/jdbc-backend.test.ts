/**
 * The JDBC backend (spring.profiles.active=jdbc) on the real PostgreSQL and MariaDB of this machine, each test
 * run in a database of its own: Spring's own fixture rows (schema-jdbc.sql, data-jdbc.sql of
 * spring-cloud-config-server) and the answers Spring's JdbcEnvironmentRepositoryTests expect, then freshness.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestDatabase, createMariaDbDatabase, createPostgresDatabase } from '@confbus/testkit/databases';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Body {
  name: string;
  profiles: string[];
  label: string | null;
  version: string | null;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

/** Spring's fixture, with the key columns quoted as each database quotes identifiers. */
function springFixture(q: string): string[] {
  const row = (
    table: string,
    key: string,
    value: string,
    app: string,
    profile: string | null,
    label: string,
    k: string,
    v: string,
  ) =>
    `INSERT INTO ${table}(APPLICATION, PROFILE, LABEL, ${key}, ${value}) VALUES ('${app}', ${profile === null ? 'null' : `'${profile}'`}, '${label}', '${k}', '${v}')`;
  const rows: string[] = [];
  for (const [table, key, value] of [
    ['PROPERTIES', `${q}KEY${q}`, `${q}VALUE${q}`],
    ['MY_PROPERTIES', 'MY_KEY', 'MY_VALUE'],
  ] as const) {
    for (const [app, profile] of [
      ['foo', 'bar'],
      ['foo', 'default'],
      ['foo', null],
      ['application', 'bar'],
      ['application', 'default'],
      ['application', null],
    ] as const) {
      rows.push(row(table, key, value, app, profile, 'master', 'a.b.c', `${app}-${profile ?? 'null'}`));
    }
  }
  rows.push(row('PROPERTIES', `${q}KEY${q}`, `${q}VALUE${q}`, 'foo', 'bar', 'main', 'a.b.c', 'foo-bar'));
  rows.push(
    row(
      'PROPERTIES',
      `${q}KEY${q}`,
      `${q}VALUE${q}`,
      'application',
      'bar',
      'main',
      'a.b.c',
      'application-bar',
    ),
  );
  rows.push(
    row(
      'PROPERTIES',
      `${q}KEY${q}`,
      `${q}VALUE${q}`,
      'application',
      'default',
      'main',
      'e.f.g',
      'application-default',
    ),
  );
  return [
    `CREATE TABLE PROPERTIES (${q}KEY${q} VARCHAR(2048), ${q}VALUE${q} VARCHAR(4096), APPLICATION VARCHAR(128), PROFILE VARCHAR(128), LABEL VARCHAR(128))`,
    'CREATE TABLE MY_PROPERTIES (MY_KEY VARCHAR(2048), MY_VALUE VARCHAR(4096), APPLICATION VARCHAR(128), PROFILE VARCHAR(128), LABEL VARCHAR(128))',
    ...rows,
  ];
}

const databases: Array<{
  name: string;
  create: () => Promise<TestDatabase>;
  quote: string;
  username: string;
  /** Spring's default query as this database needs it (MariaDB reads "KEY" as a string unless ANSI_QUOTES). */
  sql?: { sql: string; withoutProfile: string };
}> = [
  { name: 'PostgreSQL', create: createPostgresDatabase, quote: '"', username: 'postgres' },
  {
    name: 'MariaDB',
    create: createMariaDbDatabase,
    quote: '`',
    username: 'root',
    sql: {
      sql: 'SELECT `KEY`, `VALUE` from PROPERTIES where APPLICATION=? and PROFILE=? and LABEL=?',
      withoutProfile:
        'SELECT `KEY`, `VALUE` from PROPERTIES where APPLICATION=? and PROFILE is null and LABEL=?',
    },
  },
];

for (const database of databases) {
  describe(`JDBC backend on ${database.name}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let incomplete: TestServer;
    let told: TestServer;

    before(async () => {
      db = await database.create();
      await db.execute(...springFixture(database.quote));
      const sql: Record<string, string> = database.sql
        ? {
            'spring.cloud.config.server.jdbc.sql': database.sql.sql,
            'spring.cloud.config.server.jdbc.sql-without-profile': database.sql.withoutProfile,
          }
        : {};
      server = await startGitTestServer({
        'spring.profiles.active': 'jdbc',
        'spring.datasource.url': db.url,
        'spring.datasource.username': database.username,
        'encrypt.key': 'jdbc-test-key',
        ...sql,
      });
      told = await startGitTestServer({
        'spring.profiles.active': 'jdbc',
        'spring.datasource.url': db.url,
        'spring.datasource.username': database.username,
        'spring.cloud.config.server.jdbc.refresh-rate': '-1',
        ...sql,
      });
      // Only sql customised: Spring's "config incomplete" mode (JdbcEnvironmentRepositoryTests.customSql).
      incomplete = await startGitTestServer({
        'spring.profiles.active': 'jdbc',
        'spring.datasource.url': db.url,
        'spring.datasource.username': database.username,
        'spring.cloud.config.server.jdbc.sql':
          'SELECT MY_KEY, MY_VALUE from MY_PROPERTIES where APPLICATION=? and PROFILE=? and LABEL=?',
      });
    });

    after(async () => {
      await server?.stop();
      await incomplete?.stop();
      await told?.stop();
      await db?.drop();
    });

    const get = async (target: TestServer, path: string): Promise<Body> => {
      const response = await target.get(path);
      assert.equal(response.status, 200, `${path}: ${response.body}`);
      return response.json() as Body;
    };
    const summary = (body: Body) => body.propertySources.map((s) => [s.name, s.source['a.b.c'] ?? s.source]);

    it('serves Spring’s sources in Spring’s order and names (basicProperties)', async () => {
      const body = await get(server, '/foo/bar');
      assert.equal(body.name, 'foo');
      assert.deepEqual(body.profiles, ['bar']);
      assert.equal(body.label, null);
      assert.deepEqual(summary(body), [
        ['foo-bar', 'foo-bar'],
        ['application-bar', 'application-bar'],
        ['foo', 'foo-null'],
        ['application', 'application-null'],
      ]);
    });

    it('reads another label, and application alone once (defaultProfile, applicationOnly)', async () => {
      assert.deepEqual(summary(await get(server, '/foo/bar/main')), [
        ['foo-bar', 'foo-bar'],
        ['application-bar', 'application-bar'],
      ]);
      assert.deepEqual(summary(await get(server, '/application/default')), [
        ['application-default', 'application-default'],
        ['application', 'application-null'],
      ]);
    });

    it('reads several profiles and labels, the last winning', async () => {
      assert.deepEqual(
        (await get(server, '/foo/default,bar')).propertySources.map((s) => s.name),
        ['foo-bar', 'application-bar', 'foo-default', 'application-default', 'foo', 'application'],
      );
      const names = (await get(server, '/foo/bar/master,main')).propertySources.map((s) => s.name);
      assert.deepEqual(names, [
        'foo-bar',
        'application-bar',
        'foo-bar',
        'application-bar',
        'foo',
        'application',
      ]);
    });

    it('with only sql customised, always includes default and reads no rows without profile (customSql)', async () => {
      assert.deepEqual(summary(await get(incomplete, '/foo/bar')), [
        ['foo-bar', 'foo-bar'],
        ['application-bar', 'application-bar'],
        ['foo-default', 'foo-default'],
        ['application-default', 'application-default'],
      ]);
    });

    it('serves application’s rows to an application with none of its own', async () => {
      const response = await server.get('/nothing-here/dev');
      // application's own rows match any name: only the master rows of application-dev would be missing.
      assert.equal(response.status, 200, response.body);
      const body = response.json() as Body;
      assert.deepEqual(
        body.propertySources.map((s) => s.name),
        ['application'],
      );
    });

    it('renders .properties with placeholders resolved, and decrypts {cipher} values', async () => {
      const encrypted = await fetch(`${server.base}/encrypt`, { method: 'POST', body: 'top secret' });
      assert.equal(encrypted.status, 200);
      const cipher = await encrypted.text();
      const insert = (key: string, value: string) =>
        `INSERT INTO PROPERTIES(APPLICATION, PROFILE, LABEL, ${database.quote}KEY${database.quote}, ${database.quote}VALUE${database.quote}) VALUES ('ph', null, 'master', '${key}', '${value}')`;
      await db.execute(
        insert('greeting', 'hello ${target}'),
        insert('target', 'world'),
        insert('secret', `{cipher}${cipher}`),
      );
      const properties = await server.get('/ph-default.properties');
      assert.equal(properties.status, 200, properties.body);
      assert.match(properties.body, /^greeting: hello world$/m);
      const body = await get(server, '/ph/default');
      assert.equal(body.propertySources.find((s) => s.name === 'ph')?.source.secret, 'top secret');
    });

    it('serves a NULL value as null, as Spring does; a NULL key leaves its row out', async () => {
      const q = database.quote;
      const insert = (key: string, value: string) =>
        `INSERT INTO PROPERTIES(APPLICATION, PROFILE, LABEL, ${q}KEY${q}, ${q}VALUE${q}) VALUES ('nulls', null, 'master', ${key}, ${value})`;
      await db.execute(insert("'set'", "'yes'"), insert("'unset'", 'null'), insert('null', "'keyless'"));
      const body = await get(server, '/nulls/default');
      assert.deepEqual(body.propertySources.find((s) => s.name === 'nulls')?.source, {
        set: 'yes',
        unset: null,
      });
      for (const [format, line] of [
        ['yml', /^unset: null$/m],
        ['properties', /^unset: null$/m],
        ['json', /"unset":null/],
      ] as const) {
        const rendered = await server.get(`/nulls-default.${format}`);
        assert.equal(rendered.status, 200, rendered.body);
        assert.match(rendered.body, line);
      }
    });

    it('serves a table change on the next request (refresh-rate 0) with a new version', async () => {
      const first = await get(server, '/fresh/default');
      await db.execute(
        `INSERT INTO PROPERTIES(APPLICATION, PROFILE, LABEL, ${database.quote}KEY${database.quote}, ${database.quote}VALUE${database.quote}) VALUES ('fresh', 'default', 'master', 'x', 'one')`,
      );
      const second = await get(server, '/fresh/default');
      assert.deepEqual(second.propertySources[0], { name: 'fresh-default', source: { x: 'one' } });
      assert.notEqual(second.version, first.version);
      const third = await get(server, '/fresh/default');
      assert.equal(third.version, second.version, 'unchanged rows keep the version (and the cache)');
    });

    it('with refresh-rate -1 serves the cached rows until POST /monitor names the application', async () => {
      const insert = (value: string) =>
        `INSERT INTO PROPERTIES(APPLICATION, PROFILE, LABEL, ${database.quote}KEY${database.quote}, ${database.quote}VALUE${database.quote}) VALUES ('told', 'default', 'master', 'k${value}', '${value}')`;
      await db.execute(insert('1'));
      const first = await get(told, '/told/default');
      await db.execute(insert('2'));
      assert.equal((await get(told, '/told/default')).version, first.version, 'no check: the cached answer');
      const monitor = await fetch(`${told.base}/monitor`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'path=told',
      });
      assert.equal(monitor.status, 200, await monitor.text());
      const after = await get(told, '/told/default');
      assert.notEqual(after.version, first.version);
      assert.deepEqual(after.propertySources[0]?.source, { k1: '1', k2: '2' });
    });
  });
}

describe('JDBC backend: PostgreSQL LISTEN/NOTIFY', () => {
  let db: TestDatabase;
  let server: TestServer;

  before(async () => {
    db = await createPostgresDatabase();
    await db.execute(
      'CREATE TABLE PROPERTIES ("KEY" VARCHAR(2048), "VALUE" VARCHAR(4096), APPLICATION VARCHAR(128), PROFILE VARCHAR(128), LABEL VARCHAR(128))',
      `CREATE FUNCTION confbus_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('confbus', ''); RETURN NULL; END $$`,
      'CREATE TRIGGER confbus_properties AFTER INSERT OR UPDATE OR DELETE ON properties FOR EACH STATEMENT EXECUTE FUNCTION confbus_notify()',
      `INSERT INTO PROPERTIES VALUES ('k', 'one', 'n', 'default', 'master')`,
    );
    server = await startGitTestServer({
      'spring.profiles.active': 'jdbc',
      'spring.datasource.url': db.url,
      'spring.datasource.username': 'postgres',
      'spring.cloud.config.server.jdbc.refresh-rate': '-1',
      'spring.cloud.config.server.jdbc.notify-channel': 'confbus',
    });
  });

  after(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('checks when the table’s trigger notifies, with no request or refresh-rate asking', async () => {
    const read = async () => (await server.get('/n/default')).json() as Body;
    assert.deepEqual((await read()).propertySources[0]?.source, { k: 'one' });
    await db.execute(`UPDATE PROPERTIES SET "VALUE" = 'two'`);
    // The notification arrives asynchronously: poll the answer (refresh-rate -1, so only NOTIFY can change it).
    const deadline = Date.now() + 10_000;
    let value: unknown;
    while (Date.now() < deadline) {
      value = (await read()).propertySources[0]?.source.k;
      if (value === 'two') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(value, 'two');
  });
});
