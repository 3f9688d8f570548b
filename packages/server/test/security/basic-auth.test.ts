// Basic auth over a real server: what is open, what is closed, the 401 shape, and that neither the password
// nor the Authorization header reaches the log.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { parseBasicAuthorization } from '../../src/security/basic-credentials.js';
import { StoredSecret } from '../../src/security/stored-secret.js';
import { type PreparedServer, startPreparedServer } from './prepared-server.js';

const cloudConfigClient = createRequire(import.meta.url)('cloud-config-client') as {
  load(options: {
    endpoint: string;
    name: string;
    profiles: string[];
    auth?: { user: string; pass: string };
  }): Promise<{ get(key: string): unknown }>;
};

const PASSWORD = 'Op3n:Sesame-4711';
async function get(
  server: PreparedServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: () => unknown }> {
  const response = await fetch(`${server.base}${path}`, { headers });
  const body = await response.text();
  return { status: response.status, headers: response.headers, json: () => JSON.parse(body) };
}

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('basic credentials', () => {
  it('parses the Basic scheme case-insensitively and splits at the first colon', () => {
    assert.deepEqual(parseBasicAuthorization(basic('ops', 'a:b:c')), { username: 'ops', password: 'a:b:c' });
    assert.deepEqual(parseBasicAuthorization(`basic ${Buffer.from('u:').toString('base64')}`), {
      username: 'u',
      password: '',
    });
    for (const bad of [undefined, '', 'Bearer abc', 'Basic', 'Basic !!!', `Basic ${btoa('nocolon')}`]) {
      assert.equal(parseBasicAuthorization(bad), undefined, String(bad));
    }
  });

  it('verifies a password in constant time and never serialises it', async () => {
    const parsed = StoredSecret.parse(PASSWORD, ['noop']);
    assert.ok('secret' in parsed);
    assert.equal(await parsed.secret.matches(PASSWORD), true);
    assert.equal(await parsed.secret.matches(`${PASSWORD}x`), false);
    assert.equal(await parsed.secret.matches(''), false);
    assert.ok(!JSON.stringify({ secret: parsed.secret }).includes(PASSWORD));
  });
});

describe('basic auth on the config server', () => {
  let remote: GitRemote;
  let server: PreparedServer;
  let closedHealth: PreparedServer;
  let open: PreparedServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'a: 1\n' });
    const uri = remote.url;
    [server, closedHealth, open] = await Promise.all([
      startPreparedServer({
        'spring.cloud.config.server.git.uri': uri,
        'spring.security.user.name': 'ops',
        'spring.security.user.password': PASSWORD,
      }),
      startPreparedServer({
        'spring.cloud.config.server.git.uri': uri,
        'spring.security.user.password': PASSWORD,
        'confbus.security.health-open': 'false',
        'confbus.security.monitor-open': 'false',
      }),
      startPreparedServer({ 'spring.cloud.config.server.git.uri': uri }),
    ]);
  });

  after(async () => {
    await Promise.all([server?.stop(), closedHealth?.stop(), open?.stop()]);
    await remote?.remove();
  });

  it('answers 401 with a Basic challenge and a Spring error body without credentials', async () => {
    const response = await get(server, '/foo/default?token=abc');
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="confbus"');
    const body = response.json() as Record<string, unknown>;
    assert.equal(body.status, 401);
    assert.equal(body.error, 'Unauthorized');
    assert.equal(body.code, 'CONFBUS_UNAUTHORIZED');
    assert.equal(body.path, '/foo/default');
    assert.equal(typeof body.timestamp, 'string');
  });

  it('rejects a wrong password, a wrong user and other schemes; accepts the right pair', async () => {
    for (const authorization of [basic('ops', 'wrong'), basic('user', PASSWORD), `Bearer ${PASSWORD}`]) {
      assert.equal((await get(server, '/foo/default', { authorization })).status, 401, authorization);
    }
    const ok = await get(server, '/foo/default', { authorization: basic('ops', PASSWORD) });
    assert.equal(ok.status, 200);
    assert.equal((ok.json() as { name: string }).name, 'foo');
  });

  it('guards file endpoints, unknown paths and the metrics endpoint alike', async () => {
    for (const path of [
      '/foo-default.yml',
      '/master/foo-default.properties',
      '/nothing/here/at/all',
      '/actuator/prometheus',
    ]) {
      assert.equal((await get(server, path)).status, 401, path);
    }
    const metrics = await get(server, '/actuator/prometheus', { authorization: basic('ops', PASSWORD) });
    assert.equal(metrics.status, 200);
  });

  it('leaves health (GET and HEAD) and POST /monitor open by default, and only those routes', async () => {
    const anonymous = await get(server, '/actuator/health');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.json(), { status: 'UP' }, 'no repository details for anonymous callers');
    const authorized = await get(server, '/actuator/health', { authorization: basic('ops', PASSWORD) });
    assert.ok(
      (authorized.json() as { components?: { git?: unknown } }).components?.git,
      'details when authorized',
    );
    const head = await fetch(`${server.base}/actuator/health`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    const monitor = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    // The monitor answers for itself (503: these servers have no bus); the point is that it is not 401.
    assert.notEqual(monitor.status, 401);
    // Openness belongs to the route, not to a URL prefix.
    for (const path of ['/actuator/health/extra', '/actuator/health2', '/actuator/health/../foo/default']) {
      assert.equal((await get(server, path)).status, 401, path);
    }
    const postHealth = await fetch(`${server.base}/actuator/health`, { method: 'POST' });
    assert.equal(postHealth.status, 401);
  });

  it('closes health and /monitor when configured', async () => {
    assert.equal((await get(closedHealth, '/actuator/health')).status, 401);
    const monitor = await fetch(`${closedHealth.base}/monitor`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(monitor.status, 401);
    const ok = await get(closedHealth, '/actuator/health', { authorization: basic('user', PASSWORD) });
    assert.equal(ok.status, 200);
  });

  it('lets a Spring-style client in with spring.cloud.config.username/password (cloud-config-client auth)', async () => {
    const config = await cloudConfigClient.load({
      endpoint: server.base,
      name: 'foo',
      profiles: ['default'],
      auth: { user: 'ops', pass: PASSWORD },
    });
    assert.equal(config.get('a'), 1);
    await assert.rejects(
      cloudConfigClient.load({
        endpoint: server.base,
        name: 'foo',
        profiles: ['default'],
        auth: { user: 'ops', pass: 'x' },
      }),
    );
  });

  it('is off when no password is set', async () => {
    assert.equal((await get(open, '/foo/default')).status, 200);
    assert.equal((await get(open, '/actuator/prometheus')).status, 200);
  });

  it('never logs the password or the Authorization header', async () => {
    await get(server, '/foo/default', { authorization: basic('ops', `${PASSWORD}-wrong`) });
    await get(server, '/foo/default', { authorization: basic(PASSWORD, PASSWORD) });
    await get(server, '/nope/default/missing-label', { authorization: basic('ops', PASSWORD) });
    const text = server.logs.join('\n');
    assert.ok(!text.includes(PASSWORD), 'password in the log');
    assert.ok(!text.includes(Buffer.from(`ops:${PASSWORD}`).toString('base64')), 'header in the log');
  });
});
