// POST /monitor end to end: a real git remote, a real server with the bus on its own RabbitMQ vhost, and a raw
// amqplib consumer that sees exactly what the server put on the wire.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type RawBusTap, openRawBusTap } from '@confbus/testkit/raw-bus-tap';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const GITHUB_SECRET = 'gh-webhook-secret';
const GITLAB_TOKEN = 'gl-webhook-token';

interface PostResult {
  status: number;
  body: unknown;
}

describe('POST /monitor over a real bus', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: TestServer;
  let tap: RawBusTap;
  let busId: string;
  let counter = 0;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'shared: 0\n',
      'foo.yml': 'value: 0\n',
      'foo-dev.yml': 'value: dev-0\n',
      'bar.yml': 'value: 0\n',
      'baz.properties': 'value=0\n',
    });
    vhost = await createTestVhost();
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      // Only the webhook may make the server look upstream again.
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'true',
      'spring.rabbitmq.host': '127.0.0.1',
      'spring.rabbitmq.virtual-host': vhost.name,
      'confbus.monitor.github.secret': GITHUB_SECRET,
      'confbus.monitor.gitlab.secret': GITLAB_TOKEN,
      // Unsigned hosts (Bitbucket, Gitea, form posts...) are exercised here alongside the signed ones.
      'confbus.monitor.allow-unsigned': 'true',
    });
    const bus = server.server.bus;
    assert.ok(bus?.connected, 'the server joined the bus');
    busId = bus.busId;
    tap = await openRawBusTap(vhost.amqpUrl);
  });

  after(async () => {
    await tap?.close();
    await server?.stop();
    await vhost?.remove();
    await remote?.remove();
  });

  /** Pushes a new value to each file; returns the new commit. */
  async function push(...files: string[]): Promise<string> {
    counter++;
    return remote.commit(
      Object.fromEntries(
        files.map((f) => [f, f.endsWith('.properties') ? `value=${counter}\n` : `value: ${counter}\n`]),
      ),
    );
  }

  async function post(
    body: string | undefined,
    headers: Record<string, string> = {},
    contentType: string | null = 'application/json',
  ): Promise<PostResult> {
    const response = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  /** Sends a webhook and returns its answer plus every refresh event it caused on the wire. */
  async function webhook(
    body: string | undefined,
    headers: Record<string, string> = {},
    contentType?: string | null,
  ): Promise<PostResult & { destinations: string[]; versions: unknown[] }> {
    const mark = tap.messages.length;
    const result = await post(body, headers, contentType);
    const events = (await tap.drain(mark)).filter((m) => m.body.type === 'RefreshRemoteApplicationEvent');
    for (const e of events) {
      assert.equal(e.body.originService, busId, 'the server is the origin');
      assert.equal(e.routingKey, 'springCloudBus');
      assert.equal(e.contentType, 'application/json');
    }
    return {
      ...result,
      destinations: events.map((e) => String(e.body.destinationService)),
      versions: events.map((e) => e.body.configVersion),
    };
  }

  function github(
    files: { added?: string[]; modified?: string[]; removed?: string[] },
    secret = GITHUB_SECRET,
  ) {
    const body = JSON.stringify({ ref: 'refs/heads/master', commits: [{ id: 'x', ...files }] });
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    return { body, headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': signature } };
  }

  function commitsBody(files: string[]): string {
    return JSON.stringify({ ref: 'refs/heads/master', commits: [{ id: 'x', modified: files }] });
  }

  async function servedVersion(app: string): Promise<string> {
    const response = await server.get(`/${app}/default`);
    assert.equal(response.status, 200, response.body);
    return (response.json() as { version: string }).version;
  }

  async function gitHealth(): Promise<{ checks: number; fetches: number }> {
    const response = await server.get('/actuator/health');
    return (response.json() as { components: { git: { details: { checks: number; fetches: number } } } })
      .components.git.details;
  }

  it('GitHub (signed): fetches before publishing, then one event per guessed service', async () => {
    const commit = await push('foo-dev.yml', 'application.yml');
    const { body, headers } = github({ modified: ['foo-dev.yml'], added: ['application.yml'] });
    const result = await webhook(body, headers);
    assert.equal(result.status, 200, JSON.stringify(result.body));
    // Spring's order: a commit's added files, then removed, then modified.
    assert.deepEqual(result.body, ['*', 'foo-dev', 'foo']);
    assert.deepEqual(result.destinations, ['*:**', 'foo-dev:**', 'foo:**']);
    // refresh-rate is an hour: only the webhook can have made the server see the new commit.
    assert.equal(await servedVersion('foo'), commit);
  });

  it("announces the pushed commit (the host's `after`), else the default label's head", async () => {
    const onBranch = await remote.commit({ 'bar.yml': 'value: branch\n' }, { branch: 'release' });
    const head = await push('bar.yml');
    const withAfter = JSON.stringify({ ref: 'refs/heads/release', after: onBranch, path: ['bar.yml'] });
    assert.deepEqual((await webhook(withAfter)).versions, [onBranch], 'the commit the host says was pushed');
    const without = await webhook(JSON.stringify({ path: ['bar.yml'] }));
    assert.deepEqual(without.versions, [head], "no commit in the payload: the default label's head");
    const next = await push('bar.yml');
    const unknown = JSON.stringify({ after: 'f'.repeat(40), path: ['bar.yml'] });
    assert.deepEqual(
      (await webhook(unknown)).versions,
      [next],
      'a commit the fetch did not bring is not announced',
    );
  });

  it('GitLab with the configured token', async () => {
    const commit = await push('foo.yml');
    const result = await webhook(commitsBody(['foo.yml']), {
      'X-Gitlab-Event': 'Push Hook',
      'X-Gitlab-Token': GITLAB_TOKEN,
    });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(result.body, ['foo']);
    assert.deepEqual(result.destinations, ['foo:**']);
    assert.equal(await servedVersion('foo'), commit);
  });

  it('Bitbucket Cloud and Bitbucket Server broadcast to every service', async () => {
    const cloudCommit = await push('bar.yml');
    const cloud = await webhook(JSON.stringify({ push: { changes: [{ new: { name: 'master' } }] } }), {
      'X-Event-Key': 'repo:push',
      'X-Hook-UUID': '4a1e5c53-8e44-4d6a-b8c7-3c4f5c0e6f7a',
    });
    assert.equal(cloud.status, 200, JSON.stringify(cloud.body));
    assert.deepEqual(cloud.body, ['*']);
    assert.deepEqual(cloud.destinations, ['*:**']);
    assert.equal(await servedVersion('bar'), cloudCommit);

    const serverCommit = await push('bar.yml');
    const bbs = await webhook(JSON.stringify({ changes: [{ ref: { id: 'refs/heads/master' } }] }), {
      'X-Event-Key': 'repo:refs_changed',
      'X-Request-Id': 'c7a2e1d0-0000-4000-8000-000000000001',
    });
    assert.equal(bbs.status, 200, JSON.stringify(bbs.body));
    assert.deepEqual(bbs.body, ['*']);
    assert.deepEqual(bbs.destinations, ['*:**']);
    assert.equal(await servedVersion('bar'), serverCommit);
  });

  it('Gitea broadcasts; Gogs and Gitee name the files', async () => {
    const giteaCommit = await push('bar.yml');
    const gitea = await webhook(commitsBody(['bar.yml']), { 'X-Gitea-Event': 'push' });
    assert.equal(gitea.status, 200, JSON.stringify(gitea.body));
    assert.deepEqual(gitea.body, ['*']);
    assert.deepEqual(gitea.destinations, ['*:**']);
    assert.equal(await servedVersion('bar'), giteaCommit);

    const gogsCommit = await push('bar.yml');
    const gogs = await webhook(commitsBody(['bar.yml']), { 'X-Gogs-Event': 'push' });
    assert.equal(gogs.status, 200, JSON.stringify(gogs.body));
    assert.deepEqual(gogs.body, ['bar']);
    assert.deepEqual(gogs.destinations, ['bar:**']);
    assert.equal(await servedVersion('bar'), gogsCommit);

    const giteeCommit = await push('foo.yml');
    const gitee = await webhook(commitsBody(['foo.yml']), { 'x-git-oschina-event': 'Push Hook' });
    assert.equal(gitee.status, 200, JSON.stringify(gitee.body));
    assert.deepEqual(gitee.body, ['foo']);
    assert.deepEqual(gitee.destinations, ['foo:**']);
    assert.equal(await servedVersion('foo'), giteeCommit);
  });

  it('a form post (path=) and a simple {"path": ...} body', async () => {
    const formCommit = await push('baz.properties');
    const form = await webhook('path=baz.properties', {}, 'application/x-www-form-urlencoded');
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.deepEqual(form.body, ['baz']);
    assert.deepEqual(form.destinations, ['baz:**']);
    assert.equal(await servedVersion('baz'), formCommit);

    const simpleCommit = await push('bar.yml', 'baz.properties');
    const simple = await webhook(JSON.stringify({ path: ['bar.yml', 'baz.properties'] }));
    assert.equal(simple.status, 200, JSON.stringify(simple.body));
    assert.deepEqual(simple.body, ['bar', 'baz']);
    assert.deepEqual(simple.destinations, ['bar:**', 'baz:**']);
    assert.equal(await servedVersion('baz'), simpleCommit);
  });

  it('a push naming more than confbus.monitor.max-files files refreshes everyone with one event', async () => {
    const files = Array.from({ length: 150 }, (_, i) => `svc${i}-dev.yml`);
    await push('foo.yml');
    const many = await webhook(JSON.stringify({ path: files }));
    assert.equal(many.status, 200, JSON.stringify(many.body));
    assert.deepEqual(many.body, ['*']);
    assert.deepEqual(many.destinations, ['*:**']);
    // 60 files, but 120 guessed services: also one broadcast.
    await push('bar.yml');
    const services = await webhook(JSON.stringify({ path: files.slice(0, 60) }));
    assert.deepEqual(services.destinations, ['*:**']);
  });

  it('a redelivered webhook for a commit already announced publishes nothing new', async () => {
    await push('foo.yml');
    const { body, headers } = github({ modified: ['foo.yml'] });
    const first = await webhook(body, headers);
    assert.deepEqual(first.destinations, ['foo:**']);
    const again = await webhook(body, headers);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, ['foo']);
    assert.deepEqual(again.destinations, []);
  });

  it('a wrong or missing signature is 401 and publishes nothing', async () => {
    await push('foo.yml');
    const signed = github({ modified: ['foo.yml'] }, 'not-the-secret');
    const wrong = await webhook(signed.body, signed.headers);
    assert.equal(wrong.status, 401);
    assert.equal((wrong.body as { code?: string }).code, 'CONFBUS_BAD_WEBHOOK_SIGNATURE');
    assert.deepEqual(wrong.destinations, []);

    const missing = await webhook(signed.body, { 'X-GitHub-Event': 'push' });
    assert.equal(missing.status, 401);
    assert.match(JSON.stringify(missing.body), /X-Hub-Signature-256/);
    assert.deepEqual(missing.destinations, []);

    const badToken = await webhook(commitsBody(['foo.yml']), {
      'X-Gitlab-Event': 'Push Hook',
      'X-Gitlab-Token': 'guess',
    });
    assert.equal(badToken.status, 401);
    assert.deepEqual(badToken.destinations, []);
    // GitHub's headers decide the check even when the body is shaped for the simple extractor (issue #15).
    const disguised = await webhook(JSON.stringify({ commits: [{ id: 'x' }], path: 'foo.yml' }), {
      'X-GitHub-Event': 'push',
    });
    assert.equal(disguised.status, 401, JSON.stringify(disguised.body));
    assert.deepEqual(disguised.destinations, []);
    // The secret itself is never echoed or logged.
    const logged = JSON.stringify(server.logs);
    assert.ok(!logged.includes(GITHUB_SECRET) && !logged.includes(GITLAB_TOKEN), 'no secret in the logs');
  });

  it('a push with a file that does not parse: 422 naming file and line, the good file is still refreshed', async () => {
    counter++;
    const commit = await remote.commit({
      'bar.yml': 'value: 1\nlist: [1, 2\nother: 3\n',
      'foo.yml': `value: ${counter}\n`,
    });
    const { body, headers } = github({ modified: ['bar.yml', 'foo.yml'] });
    const result = await webhook(body, headers);
    assert.equal(result.status, 422, JSON.stringify(result.body));
    const answer = result.body as {
      code: string;
      message: string;
      rejected: Array<{ file: string; message: string }>;
      refreshed: string[];
    };
    assert.equal(answer.code, 'CONFBUS_CONFIG_PARSE');
    assert.match(answer.message, /bar\.yml.*line 3/);
    assert.deepEqual(
      answer.rejected.map((r) => r.file),
      ['bar.yml'],
    );
    assert.deepEqual(answer.refreshed, ['foo']);
    assert.deepEqual(result.destinations, ['foo:**']);
    assert.equal(await servedVersion('foo'), commit);
    // Repair it, so later pushes of bar.yml are not rejected.
    await push('bar.yml');
  });

  it('no body, an empty body and malformed JSON are 400; nothing is published', async () => {
    const none = await webhook(undefined, {}, null);
    assert.equal(none.status, 400, JSON.stringify(none.body));
    const empty = await webhook('', {}, 'application/json');
    assert.equal(empty.status, 400, JSON.stringify(empty.body));
    const malformed = await webhook('{"path": ', {}, 'application/json');
    assert.equal(malformed.status, 400, JSON.stringify(malformed.body));
    assert.equal((malformed.body as { code?: string }).code, 'CONFBUS_BAD_WEBHOOK');
    const form = await webhook('other=1', {}, 'application/x-www-form-urlencoded');
    assert.equal(form.status, 400, JSON.stringify(form.body));
    assert.deepEqual(
      [none, empty, malformed, form].flatMap((r) => r.destinations),
      [],
    );
  });

  it('a burst of 50 webhooks for one push: at most 2 fetches, one event per service', async () => {
    const commit = await push('foo.yml', 'bar.yml');
    const before = await gitHealth();
    const mark = tap.messages.length;
    const { body, headers } = github({ modified: ['foo.yml', 'bar.yml'] });
    const results = await Promise.all(Array.from({ length: 50 }, () => post(body, headers)));
    for (const r of results) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, ['foo', 'bar']);
    }
    const after = await gitHealth();
    const fetches = after.fetches - before.fetches;
    assert.ok(fetches >= 1 && fetches <= 2, `upstream fetches for the burst: ${fetches}`);
    const events = (await tap.drain(mark)).filter((m) => m.body.type === 'RefreshRemoteApplicationEvent');
    assert.deepEqual(events.map((e) => e.body.destinationService).sort(), ['bar:**', 'foo:**']);
    assert.equal(await servedVersion('foo'), commit);
  });
});
