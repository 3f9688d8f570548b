/**
 * Spring Cloud Config's own `/monitor` tests, ported to HTTP against confbus (spring-cloud-config-monitor, main
 * at 5.0.x): PropertyPathEndpointTests (which services a changed path refreshes, from form and simple posts) and
 * the push extractors' tests (Github-, Gitlab-, Gitea-, Gitee-, Gogs-, BitbucketPropertyPathNotificationExtractor
 * Tests), with payloads of each host's documented shape written here. The server is on a bus (a RabbitMQ vhost
 * of its own), so `/monitor` answers with the services it notified, as Spring's endpoint does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type PortedServer, startPortedServer } from './ported-server.js';

describe("Spring's monitor tests over HTTP", () => {
  let vhost: TestVhost;
  let server: PortedServer;

  before(async () => {
    vhost = await createTestVhost();
    server = await startPortedServer(
      { 'foo.yml': 'value: 0\n' },
      {
        'spring.cloud.bus.enabled': 'true',
        'spring.rabbitmq.host': '127.0.0.1',
        'spring.rabbitmq.virtual-host': vhost.name,
        // Spring's endpoint checks no signature; confbus does unless told otherwise.
        'confbus.monitor.allow-unsigned': 'true',
      },
    );
  });

  after(async () => {
    await server?.stop();
    await vhost?.remove();
  });

  async function monitor(
    body: string,
    type: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; services: unknown }> {
    const response = await fetch(`${server.server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': type, ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, services: text === '' ? undefined : JSON.parse(text) };
  }
  const byPath = (path: string) => monitor(JSON.stringify({ path }), 'application/json');
  const byForm = (...paths: string[]) =>
    monitor(
      paths.map((path) => `path=${encodeURIComponent(path)}`).join('&'),
      'application/x-www-form-urlencoded',
    );

  it('testNotifySeveral', async () => {
    assert.deepEqual(await byForm('/foo/bar.properties', '/application.properties'), {
      status: 200,
      services: ['bar', '*'],
    });
  });

  it('testNotifyAll, testNotifyAllWithProfile', async () => {
    assert.deepEqual((await byPath('application.yml')).services, ['*']);
    assert.deepEqual((await byPath('application-local.yml')).services, ['application-local', '*']);
  });

  it('testNotifyOne, testNotifyOneWithWindowsPath, testNotifyOneWithProfile, testNotifyMultiDash', async () => {
    assert.deepEqual((await byPath('foo.yml')).services, ['foo']);
    assert.deepEqual((await byPath('C:\\config\\foo.yml')).services, ['foo']);
    assert.deepEqual((await byPath('foo-local.yml')).services, ['foo-local', 'foo']);
    assert.deepEqual((await byPath('foo-local-dev.yml')).services, ['foo-local-dev', 'foo-local', 'foo']);
  });

  it("GithubPropertyPathNotificationExtractorTests: notAPushNotDetected (and the others' notAPush)", async () => {
    const push = { ref: 'refs/heads/master', commits: [{ added: [], removed: [], modified: ['foo.yml'] }] };
    for (const [header, event] of [
      ['X-Github-Event', 'issues'],
      ['X-Gitea-Event', 'issues'],
      ['X-Gogs-Event', 'issues'],
    ]) {
      const result = await monitor(JSON.stringify(push), 'application/json', { [header!]: event! });
      assert.deepEqual(result, { status: 200, services: [] }, header);
    }
  });

  it('GithubPropertyPathNotificationExtractorTests: githubSample', async () => {
    const push = { ref: 'refs/heads/master', commits: [{ added: [], removed: [], modified: ['README.md'] }] };
    const result = await monitor(JSON.stringify(push), 'application/json', { 'X-Github-Event': 'push' });
    assert.deepEqual(result, { status: 200, services: ['README'] });
  });

  it('GitlabPropertyPathNotificationExtractorTests: gitlabSample', async () => {
    const push = { object_kind: 'push', commits: [{ added: [], removed: [], modified: ['foo-dev.yml'] }] };
    const result = await monitor(JSON.stringify(push), 'application/json', { 'X-Gitlab-Event': 'Push Hook' });
    // GitLab pushes are signed by their token; without one configured confbus refuses them (see monitor docs).
    assert.ok(result.status === 200 || result.status === 401, JSON.stringify(result));
    if (result.status === 200) assert.deepEqual(result.services, ['foo-dev', 'foo']);
  });

  it('GiteePropertyPathNotificationExtractorTests, GogsPropertyPathNotificationExtractorTests', async () => {
    const push = { ref: 'refs/heads/master', commits: [{ added: ['bar.yml'], removed: [], modified: [] }] };
    for (const header of ['x-git-oschina-event', 'X-Gogs-Event']) {
      const event = header === 'x-git-oschina-event' ? 'Push Hook' : 'push';
      const result = await monitor(JSON.stringify(push), 'application/json', { [header]: event });
      assert.deepEqual(result, { status: 200, services: ['bar'] }, header);
    }
  });

  it('GiteaPropertyPathNotificationExtractorTests, BitbucketPropertyPathNotificationExtractorTests: every service', async () => {
    const gitea = { ref: 'refs/heads/master', commits: [{ id: 'x' }] };
    const giteaResult = await monitor(JSON.stringify(gitea), 'application/json', { 'X-Gitea-Event': 'push' });
    assert.deepEqual(giteaResult, { status: 200, services: ['*'] });
    const bitbucket = { push: { changes: [{ new: { name: 'master' } }] } };
    const bitbucketResult = await monitor(JSON.stringify(bitbucket), 'application/json', {
      'X-Event-Key': 'repo:push',
      'X-Hook-UUID': 'a-hook',
    });
    assert.deepEqual(bitbucketResult, { status: 200, services: ['*'] });
  });
});
