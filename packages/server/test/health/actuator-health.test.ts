/** Health, probes, /actuator and /actuator/info as Spring Boot's actuator shapes them, over real git. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rename } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Health {
  status: string;
  components?: Record<string, { status: string; details?: Record<string, unknown> }>;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('actuator health with a repository that was never reachable', () => {
  let server: TestServer;
  let missing: { path: string; remove: () => Promise<void> };

  before(async () => {
    missing = await makeTempDir('confbus-no-repo-');
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': `file://${missing.path}/none.git`,
    });
  });
  after(async () => {
    await server?.stop();
    await missing?.remove();
  });

  it('says DOWN with 503 overall and on readiness, while liveness is UP', async () => {
    // The port is open but nothing can be served: await a first attempt's failure.
    await server.server.mirror?.start().then(
      () => assert.fail('the repository does not exist'),
      () => undefined,
    );
    const overall = await server.get('/actuator/health');
    assert.equal(overall.status, 503);
    const body = overall.json() as Health;
    assert.equal(body.status, 'DOWN');
    assert.equal(body.components?.git?.status, 'DOWN');
    assert.equal(body.components?.git?.details?.available, false);
    assert.equal(body.components?.readinessState?.status, 'OUT_OF_SERVICE');
    const readiness = await server.get('/actuator/health/readiness');
    assert.equal(readiness.status, 503);
    assert.equal((readiness.json() as Health).status, 'DOWN');
    const liveness = await server.get('/actuator/health/liveness');
    assert.equal(liveness.status, 200);
    assert.deepEqual(liveness.json(), { status: 'UP', components: { livenessState: { status: 'UP' } } });
    const git = await server.get('/actuator/health/git');
    assert.equal(git.status, 503);
    assert.equal((git.json() as Health).status, 'DOWN');
  });
});

describe('health.down-health-status and health.enabled, as Spring names them', () => {
  let missing: { path: string; remove: () => Promise<void> };
  const servers: TestServer[] = [];

  before(async () => {
    missing = await makeTempDir('confbus-no-repo-');
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await missing?.remove();
  });

  const startBroken = async (settings: Record<string, string>): Promise<TestServer> => {
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': `file://${missing.path}/none.git`,
      ...settings,
    });
    servers.push(server);
    await server.server.mirror?.start().catch(() => undefined);
    return server;
  };

  it('reports the configured status, with Boot’s HTTP mapping, while readiness stays 503', async () => {
    const custom = await startBroken({ 'spring.cloud.config.server.health.downHealthStatus': 'CRITICAL' });
    const overall = await custom.get('/actuator/health');
    // Boot maps only DOWN and OUT_OF_SERVICE to 503; an operator's own status sorts first and answers 200.
    assert.equal(overall.status, 200);
    assert.equal((overall.json() as Health).status, 'CRITICAL');
    assert.equal((overall.json() as Health).components?.git?.status, 'CRITICAL');
    const readiness = await custom.get('/actuator/health/readiness');
    assert.equal(readiness.status, 503);
    assert.equal((readiness.json() as Health).status, 'OUT_OF_SERVICE');

    const outOfService = await startBroken({
      'spring.cloud.config.server.health.down-health-status': 'OUT_OF_SERVICE',
    });
    const body = await outOfService.get('/actuator/health');
    assert.equal(body.status, 503);
    assert.equal((body.json() as Health).status, 'OUT_OF_SERVICE');
  });

  it('leaves the overall status to the other indicators with health.enabled=false', async () => {
    const disabled = await startBroken({ 'spring.cloud.config.server.health.enabled': 'false' });
    const overall = await disabled.get('/actuator/health');
    assert.equal(overall.status, 200);
    assert.equal((overall.json() as Health).status, 'UP');
    assert.equal((overall.json() as Health).components?.git?.status, 'DOWN');
    assert.equal((await disabled.get('/actuator/health/readiness')).status, 503);
  });
});

describe('actuator health, index and info with a reachable repository', () => {
  let remote: GitRemote;
  let server: TestServer;
  let secured: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'a: 1\n' });
    server = await startGitTestServer({ 'spring.cloud.config.server.git.uri': remote.url });
    secured = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.security.user.password': 'pw',
    });
    await server.get('/app/default');
    await secured.get('/app/default', { authorization: basic('user', 'pw') });
  });
  after(async () => {
    await server?.stop();
    await secured?.stop();
    await remote?.remove();
  });

  it('says UP with the components, groups and per-component paths', async () => {
    const overall = await server.get('/actuator/health');
    assert.equal(overall.status, 200);
    const body = overall.json() as Health;
    assert.equal(body.status, 'UP');
    // contracts: the contract gate's component (on by default), UP while it holds no application back.
    assert.deepEqual(Object.keys(body.components ?? {}).sort(), [
      'contracts',
      'git',
      'livenessState',
      'readinessState',
    ]);
    assert.equal(body.components?.git?.status, 'UP');
    assert.equal(body.components?.contracts?.status, 'UP');
    const readiness = await server.get('/actuator/health/readiness');
    assert.equal(readiness.status, 200);
    assert.deepEqual(Object.keys((readiness.json() as Health).components ?? {}), ['readinessState', 'git']);
    assert.equal((await server.get('/actuator/health/git')).status, 200);
    const unknown = await server.get('/actuator/health/nothing');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.json() as { code: string }).code, 'CONFBUS_NO_SUCH_HEALTH_COMPONENT');
  });

  it('opens the probes to anonymous callers with statuses only when auth is on', async () => {
    for (const path of ['/actuator/health', '/actuator/health/liveness', '/actuator/health/readiness']) {
      const anonymous = await secured.get(path);
      assert.equal(anonymous.status, 200, path);
      assert.deepEqual(anonymous.json(), { status: 'UP' }, path);
    }
    assert.equal((await secured.get('/actuator/health/git')).status, 401);
  });

  it('lists the endpoints at /actuator and tells version and commit at /actuator/info', async () => {
    const index = (await server.get('/actuator')).json() as {
      _links: Record<string, { href: string; templated: boolean }>;
    };
    assert.equal(index._links.self?.href, `${server.base}/actuator`);
    assert.equal(index._links.health?.href, `${server.base}/actuator/health`);
    assert.equal(index._links['health-path']?.templated, true);
    assert.ok(index._links.info && index._links.prometheus);
    const info = (await server.get('/actuator/info')).json() as {
      build: { name: string; version: string };
      git?: { commit: { full: string } };
    };
    assert.equal(info.build.name, '@confbus/server');
    assert.match(info.build.version, /^\d+\.\d+\.\d+/);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    assert.equal(info.git?.commit.full, head, 'run from the clone: the commit of the clone');
  });

  it('never lets an /actuator path fall through to the configuration routes', async () => {
    for (const path of ['/actuator/env', '/actuator/metrics', '/actuator/env/default', '/actuator/a/b/c']) {
      const response = await server.get(path);
      assert.equal(response.status, 404, path);
      const body = response.json() as { code: string; message: string; path: string };
      assert.equal(body.code, 'CONFBUS_NO_SUCH_ENDPOINT', path);
      assert.equal(body.path, path);
    }
  });

  it('stays UP with the git component STALE when upstream goes away', async () => {
    await rename(remote.path, `${remote.path}.gone`);
    try {
      assert.equal((await server.get('/app/default')).status, 200, 'the last state is served');
      const health = await server.get('/actuator/health');
      assert.equal(health.status, 200);
      const body = health.json() as Health;
      assert.equal(body.status, 'UP');
      assert.equal(body.components?.git?.status, 'STALE');
      assert.equal(body.components?.git?.details?.stale, true);
      assert.equal((await server.get('/actuator/health/readiness')).status, 200);
    } finally {
      await rename(`${remote.path}.gone`, remote.path);
    }
  });
});
