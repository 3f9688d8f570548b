// Served properties keep the order their source gave them (issue #25), keys that are numbers (`2`, `10`, a
// segment `x.2.y`) included, as Spring's answers do: file lines and YAML documents, JDBC rows, Redis fields.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseJsonInOrder } from '@confbus/core';
import { sourceKeysOf } from '@confbus/testkit/environment-keys';
import { JdbcStore } from '../src/jdbc/jdbc-store.js';
import { DEFAULT_SQL, DEFAULT_SQL_WITHOUT_PROFILE } from '../src/jdbc/jdbc-settings.js';
import type { SqlClient } from '../src/jdbc/sql-clients.js';
import { RedisStore } from '../src/redis/redis-store.js';
import { type FakeTestServer, startTestServer } from './server-harness.js';

const V2 = 'application/vnd.spring-cloud.config-server.v2+json';
const IN_ORDER = ['b', '2', 'a', '10', 'x.2.y'];

/** The keys of each property source, in the order the JSON text lists them. */
const sourceKeys = (text: string) => sourceKeysOf(parseJsonInOrder(text));

describe('property order in served environments', () => {
  let server: FakeTestServer;

  before(async () => {
    server = await startTestServer(
      {},
      {
        files: {
          'props.properties': 'b=B\n2=two\na=A\n10=ten\nx.2.y=deep\n',
          'yaml.yml': "b: B\n'2': two\na: A\n'10': ten\nx:\n  '2':\n    y: deep\n",
        },
      },
    );
  });

  after(async () => {
    await server?.stop();
  });

  for (const app of ['props', 'yaml']) {
    it(`serves ${app}'s keys in file order, plain and v2, the cached answer too`, async () => {
      for (const accept of ['application/json', V2, 'application/json']) {
        const response = await server.get(`/${app}/default`, { accept });
        assert.equal(response.status, 200, response.body);
        assert.deepEqual(sourceKeys(response.body), [IN_ORDER], accept);
      }
    });

    it(`renders ${app} in file order as .properties, .yml and .json`, async () => {
      const rendered = async (format: string) => {
        const response = await server.get(`/${app}-default.${format}`);
        assert.equal(response.status, 200, response.body);
        return response.body;
      };
      assert.equal(await rendered('properties'), 'b: B\n2: two\na: A\n10: ten\nx.2.y: deep');
      assert.equal(await rendered('yml'), "b: B\n'2': two\na: A\n'10': ten\nx:\n  '2':\n    y: deep\n");
      assert.equal(await rendered('json'), '{"b":"B","2":"two","a":"A","10":"ten","x":{"2":{"y":"deep"}}}');
    });
  }
});

describe('property order from databases', () => {
  const ROWS: Array<[string, string]> = [
    ['b', 'B'],
    ['2', 'two'],
    ['a', 'A'],
    ['10', 'ten'],
    ['x.2.y', 'deep'],
  ];

  it('keeps JDBC rows in the order the database returns them', async () => {
    const client: SqlClient = {
      pairs: async (_sql, parameters) => (parameters[0] === 'orders' ? ROWS : []),
      ping: async () => undefined,
      close: async () => undefined,
    };
    const store = new JdbcStore(
      client,
      { sql: DEFAULT_SQL, sqlWithoutProfile: DEFAULT_SQL_WITHOUT_PROFILE, failOnError: true },
      'jdbc:fake',
    );
    const sources = await store.read({ applications: ['orders'], profiles: ['dev'], label: 'master' });
    assert.deepEqual(
      sources.map((source) => [source.name, [...source.source.keys()]]),
      [
        ['orders-dev', IN_ORDER],
        ['orders', IN_ORDER],
      ],
    );
  });

  it('keeps Redis fields in the order HGETALL lists them', async () => {
    const store = new RedisStore(
      {
        hGetAll: async (key) => (key === 'orders' ? ROWS : []),
        ping: async () => 'PONG',
        close: async () => undefined,
      },
      'redis://fake',
    );
    const sources = await store.read({ applications: ['orders'], profiles: ['default'], label: '' });
    assert.deepEqual(
      [...(sources.find((source) => source.name === 'redis:orders')?.source.keys() ?? [])],
      IN_ORDER,
    );
  });
});
