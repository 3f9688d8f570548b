// POST /monitor on a server without a bus (503 after fetching), and with confbus.monitor.require-signature.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

async function post(
  server: TestServer,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.base}/monitor`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function gitChecks(server: TestServer): Promise<number> {
  const health = (await server.get('/actuator/health')).json() as {
    components: { git: { details: { checks: number } } };
  };
  return health.components.git.details.checks;
}

describe('POST /monitor without a bus', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: 0\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'false',
      // Neither bus nor watch stream: nobody could be told (with the watch stream on, see watch/).
      'confbus.watch.enabled': 'false',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('answers 503 CONFBUS_BUS_DISABLED, naming the services, after fetching the push', async () => {
    const commit = await remote.commit({ 'foo.yml': 'value: 1\n' });
    const result = await post(server, JSON.stringify({ path: 'foo.yml' }), 'application/json');
    assert.equal(result.status, 503, JSON.stringify(result.body));
    assert.equal(result.body.code, 'CONFBUS_BUS_DISABLED');
    assert.match(String(result.body.message), /spring\.cloud\.bus\.enabled=false/);
    assert.match(String(result.body.message), /foo/);
    assert.match(String(result.body.message), new RegExp(commit));
    const env = (await server.get('/foo/default')).json() as { version: string };
    assert.equal(env.version, commit, 'the webhook still made the server fetch');
    assert.equal(server.server.bus, undefined);
  });

  it('still rejects bad requests with 400 before looking at the bus', async () => {
    const malformed = await post(server, '{"commits": [', 'application/json');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'CONFBUS_BAD_WEBHOOK');
  });
});

describe('POST /monitor with confbus.monitor.require-signature', () => {
  const secret = 'required-secret';
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: 0\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'false',
      // Neither bus nor watch stream: nobody could be told (with the watch stream on, see watch/).
      'confbus.watch.enabled': 'false',
      'confbus.monitor.require-signature': 'true',
      'confbus.monitor.github.secret': secret,
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('rejects unsigned form and simple posts, and GitLab pushes without a configured secret, before fetching', async () => {
    const checks = await gitChecks(server);
    const form = await post(server, 'path=foo.yml', 'application/x-www-form-urlencoded');
    assert.equal(form.status, 401, JSON.stringify(form.body));
    assert.equal(form.body.code, 'CONFBUS_BAD_WEBHOOK_SIGNATURE');
    assert.match(String(form.body.message), /require-signature/);
    const simple = await post(server, JSON.stringify({ path: 'foo.yml' }), 'application/json');
    assert.equal(simple.status, 401);
    const gitlab = await post(
      server,
      JSON.stringify({ commits: [{ modified: ['foo.yml'] }] }),
      'application/json',
      { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'anything' },
    );
    assert.equal(gitlab.status, 401);
    assert.equal(await gitChecks(server), checks, 'a rejected webhook does not reach upstream');
  });

  it('accepts a correctly signed GitHub push (then says the bus is off)', async () => {
    const body = JSON.stringify({ commits: [{ modified: ['foo.yml'] }] });
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const result = await post(server, body, 'application/json', {
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': signature,
    });
    assert.equal(result.status, 503, JSON.stringify(result.body));
    assert.equal(result.body.code, 'CONFBUS_BUS_DISABLED');
  });
});

describe('POST /monitor with a secret configured for one host', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: 0\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.monitor.github.secret': 'only-github',
    });
    // The clone started by listen() runs in the background; a request waits for it, so no check started
    // before the test can land inside its count.
    assert.equal((await server.get('/foo/default')).status, 200);
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('refuses unsigned requests unless confbus.monitor.allow-unsigned is set, before fetching', async () => {
    const checks = await gitChecks(server);
    for (const [body, contentType, headers] of [
      ['path=foo.yml', 'application/x-www-form-urlencoded', {}],
      [JSON.stringify({ path: 'foo.yml' }), 'application/json', {}],
      [
        JSON.stringify({ commits: [{ modified: ['foo.yml'] }] }),
        'application/json',
        { 'X-Gitlab-Event': 'Push Hook' },
      ],
    ] as const) {
      const result = await post(server, body, contentType, headers);
      assert.equal(result.status, 401, JSON.stringify(result.body));
      assert.equal(result.body.code, 'CONFBUS_BAD_WEBHOOK_SIGNATURE');
      assert.match(String(result.body.message), /confbus\.monitor\.allow-unsigned/);
    }
    assert.equal(await gitChecks(server), checks, 'a rejected webhook does not reach upstream');
  });
});
