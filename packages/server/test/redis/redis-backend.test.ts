/**
 * The Redis backend (spring.profiles.active=redis) on this machine's Redis, the test's applications under a
 * name prefix of its own: Spring's RedisEnvironmentRepositoryIntegrationTests' hashes and answers, then
 * freshness.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseJsonInOrder } from '@confbus/core';
import { type TestRedis, createRedisPrefix } from '@confbus/testkit/databases';
import { sourceKeysOf } from '@confbus/testkit/environment-keys';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Body {
  name: string;
  profiles: string[];
  label: string | null;
  version: string | null;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('Redis backend', () => {
  let redis: TestRedis;
  let server: TestServer;
  let app: string;

  before(async () => {
    redis = await createRedisPrefix();
    app = `${redis.prefix}foo`;
    await redis.hset(`${app}-bar`, { name: 'foo', tag: 'myTag' });
    await redis.hset(app, { name: 'base', only: 'app' });
    server = await startGitTestServer({
      'spring.profiles.active': 'redis',
      'spring.data.redis.host': '127.0.0.1',
      'spring.data.redis.port': '6379',
    });
  });

  after(async () => {
    await server?.stop();
    await redis?.drop();
  });

  const get = async (path: string): Promise<Body> => {
    const response = await server.get(path);
    assert.equal(response.status, 200, `${path}: ${response.body}`);
    return response.json() as Body;
  };

  // The `application` hashes are shared by every application (and test) on this Redis: only their names are
  // asserted.
  it('serves one hash per application-profile and application, named redis:<key>', async () => {
    const body = await get(`/${app}/bar`);
    assert.equal(body.name, app);
    assert.deepEqual(body.profiles, ['bar']);
    assert.deepEqual(
      body.propertySources.map((s) => s.name),
      [`redis:${app}-bar`, 'redis:application-bar', `redis:${app}`, 'redis:application'],
    );
    assert.deepEqual(body.propertySources[0]?.source, { name: 'foo', tag: 'myTag' });
    assert.deepEqual(body.propertySources[2]?.source, { name: 'base', only: 'app' });
  });

  it('lists a missing hash as an empty source, as Spring does', async () => {
    const body = await get(`/${app}/dev,bar`);
    assert.deepEqual(
      body.propertySources
        .filter((s) => s.name.startsWith(`redis:${app}`))
        .map((s) => [s.name, Object.keys(s.source).length]),
      [
        [`redis:${app}-bar`, 2],
        [`redis:${app}-dev`, 0],
        [`redis:${app}`, 2],
      ],
    );
  });

  it('keeps the fields in the order HGETALL lists them, fields that are numbers included', async () => {
    // One field per HSET: the order Redis keeps (a small hash lists its fields as they were added).
    const fields: Array<[string, string]> = [
      ['b', 'B'],
      ['2', 'two'],
      ['a', 'A'],
      ['10', 'ten'],
    ];
    for (const [field, value] of fields) await redis.hset(`${app}-order`, { [field]: value });
    const response = await server.get(`/${app}/order`);
    assert.equal(response.status, 200, response.body);
    assert.deepEqual(sourceKeysOf(parseJsonInOrder(response.body))[0], ['b', '2', 'a', '10']);
    // The shared `application` hashes may hold lines of other tests: only this hash's lines are compared.
    const rendered = (await server.get(`/${app}-order.properties`)).body.split('\n');
    assert.deepEqual(
      rendered.filter((line) => /^(b|2|a|10): /.test(line)),
      ['b: B', '2: two', 'a: A', '10: ten'],
    );
  });

  it('serves a changed hash on the next request with a new version', async () => {
    const first = await get(`/${app}/bar`);
    await redis.hset(`${app}-bar`, { tag: 'changed' });
    const second = await get(`/${app}/bar`);
    assert.equal(second.propertySources[0]?.source.tag, 'changed');
    assert.notEqual(second.version, first.version);
    const yml = await server.get(`/${app}-bar.yml`);
    assert.match(yml.body, /^tag: changed$/m);
  });
});
