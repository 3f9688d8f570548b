/**
 * spring.cloud.config.server.health.repositories.*, as Spring's ConfigServerHealthIndicator (and its tests) read
 * them: the environments asked for, reported as the configServer component, which decides the overall status.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Health {
  status: string;
  components?: Record<string, { status: string; details?: Record<string, unknown> }>;
}

describe('health.repositories', () => {
  let remote: GitRemote;
  let server: TestServer;
  let failing: TestServer;
  let empty: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'myservice.yml': 'a: 1\n', 'myservice-development.yml': 'b: 2\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.health.repositories.myservice.label': 'master',
      'spring.cloud.config.server.health.repositories.myservice-dev.name': 'myservice',
      'spring.cloud.config.server.health.repositories.myservice-dev.profiles': 'development',
    });
    failing = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.health.repositories.broken.label': 'no-such-branch',
      'spring.cloud.config.server.health.down-health-status': 'OUT_OF_SERVICE',
    });
    empty = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.accept-empty': 'false',
      'spring.cloud.config.server.health.repositories.nobody.profiles': 'default',
    });
  });
  after(async () => {
    await server?.stop();
    await failing?.stop();
    await empty?.stop();
    await remote?.remove();
  });

  it('lists each environment asked for with its sources (Spring’s example configuration)', async () => {
    const response = await server.get('/actuator/health');
    assert.equal(response.status, 200, response.body);
    const health = response.json() as Health;
    const component = health.components?.configServer;
    assert.equal(component?.status, 'UP');
    const repositories = component?.details?.repositories as Array<Record<string, unknown>>;
    assert.deepEqual(
      repositories.map((r) => [
        r.name,
        r.label,
        r.profiles,
        (r.sources as string[]).map((s) => s.split('/').pop()),
      ]),
      [
        ['myservice', 'master', ['default'], ['myservice.yml']],
        ['myservice', null, ['development'], ['myservice-development.yml', 'myservice.yml']],
      ],
    );
    const one = await server.get('/actuator/health/configServer');
    assert.equal((one.json() as Health).status, 'UP');
  });

  it('reports down-health-status naming the application and profiles that failed', async () => {
    const response = await failing.get('/actuator/health');
    assert.equal(response.status, 503, response.body);
    const health = response.json() as Health;
    assert.equal(health.status, 'OUT_OF_SERVICE');
    const component = health.components?.configServer;
    assert.equal(component?.status, 'OUT_OF_SERVICE');
    assert.deepEqual(component?.details?.repository, { application: 'broken', profiles: 'default' });
    assert.equal(typeof component?.details?.error, 'string');
  });

  it('with accept-empty=false, reports down when no environment asked for has a source', async () => {
    const response = await empty.get('/actuator/health');
    assert.equal(response.status, 503, response.body);
    const component = (response.json() as Health).components?.configServer;
    assert.equal(component?.status, 'DOWN');
    assert.equal(component?.details?.acceptEmpty, false);
  });
});
