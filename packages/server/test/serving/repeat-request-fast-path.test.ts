/** Repeated environment URLs are answered without fastify: same bytes, same headers, same freshness. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('repeat-request fast path', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: one\n' }, { branch: 'master' });
    await remote.commit({ 'foo.yml': 'value: feature\n' }, { branch: 'feature' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      // The failure below is a branch deleted upstream, which only goes with this setting (as in Spring).
      'spring.cloud.config.server.git.delete-untracked-branches': 'true',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  const fastPath = () => {
    const path = server.server.fastPath;
    assert.ok(path, 'the fast path is on without basic auth');
    return path;
  };

  it('answers a repeated URL with the same bytes and headers as the first answer', async () => {
    const first = await server.get('/foo/dev');
    const before = fastPath().served;
    const second = await server.get('/foo/dev');
    assert.equal(fastPath().served, before + 1, 'the repeat was answered by the fast path');
    assert.equal(second.status, 200);
    assert.equal(second.body, first.body);
    for (const header of ['content-type', 'content-length', 'x-config-version']) {
      assert.equal(second.headers.get(header), first.headers.get(header), header);
    }
    const v2 = await server.get('/foo/dev', { accept: 'application/vnd.spring-cloud.config-server.v2+json' });
    assert.equal(v2.headers.get('content-type'), 'application/vnd.spring-cloud.config-server.v2+json');
  });

  it('keeps freshness: a push is seen on the next repeated request', async () => {
    await server.get('/foo/dev');
    const commit = await remote.commit({ 'foo.yml': 'value: two\n' }, { branch: 'master' });
    const before = fastPath().served;
    const response = await server.get('/foo/dev');
    assert.equal(fastPath().served, before + 1);
    assert.equal(response.headers.get('x-config-version'), commit);
    assert.match(response.body, /"value":"two"/);
  });

  it('hands failures to fastify, which answers them properly', async () => {
    assert.equal((await server.get('/foo/dev/feature')).status, 200);
    await remote.git('push', '--quiet', 'origin', '--delete', 'feature');
    const gone = await server.get('/foo/dev/feature');
    assert.equal(gone.status, 404);
    assert.equal((gone.json() as { code: string }).code, 'CONFBUS_NO_SUCH_LABEL');
  });

  it('counts fast-path answers in the request metrics', async () => {
    const served = async () => {
      const text = (await server.get('/actuator/prometheus')).body;
      const match =
        /confbus_http_requests_total\{method="GET",route="\/:name\/:profiles",status="200"\} (\d+)/.exec(
          text,
        );
      return Number(match?.[1] ?? 0);
    };
    await server.get('/foo/dev');
    const before = await served();
    const fastBefore = fastPath().served;
    await server.get('/foo/dev');
    await server.get('/foo/dev');
    assert.equal(fastPath().served, fastBefore + 2, 'both repeats took the fast path');
    assert.equal(await served(), before + 2);
  });
});

describe('repeat-request fast path, cached mode (refresh-rate > 0)', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'value: one\n' }, { branch: 'master' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('writes a cache hit at once, with the same bytes, headers and request metrics', async () => {
    const fastPath = server.server.fastPath;
    assert.ok(fastPath);
    const first = await server.get('/foo/dev');
    const atOnce = fastPath.servedAtOnce;
    const second = await server.get('/foo/dev');
    assert.equal(fastPath.servedAtOnce, atOnce + 1, 'no check due: answered without waiting');
    assert.equal(second.body, first.body);
    for (const header of ['content-type', 'content-length', 'x-config-version'])
      assert.equal(second.headers.get(header), first.headers.get(header), header);
    const metrics = (await server.get('/actuator/prometheus')).body;
    const count = (name: string) =>
      Number(new RegExp(`${name}\\{method="GET",route="/:name/:profiles"[^}]*\\} (\\d+)`).exec(metrics)?.[1]);
    assert.equal(count('confbus_http_requests_total'), 2);
    assert.equal(count('confbus_http_request_duration_seconds_count'), 2);
  });

  it('waits for a check when a version hint is ahead of the head, then sees the push', async () => {
    const fastPath = server.server.fastPath;
    assert.ok(fastPath);
    await server.get('/foo/dev');
    const pushed = await remote.commit({ 'foo.yml': 'value: two\n' }, { branch: 'master' });
    const cached = await server.get('/foo/dev');
    assert.notEqual(cached.headers.get('x-config-version'), pushed, 'refresh-rate 3600: the cached commit');
    const served = fastPath.served;
    const atOnce = fastPath.servedAtOnce;
    const hinted = await server.get('/foo/dev', { 'x-config-min-version': pushed });
    assert.equal(fastPath.served, served + 1);
    assert.equal(fastPath.servedAtOnce, atOnce, 'the hint made it wait for a check');
    assert.equal(hinted.headers.get('x-config-version'), pushed);
    assert.match(hinted.body, /"value":"two"/);
    const again = await server.get('/foo/dev', { 'x-config-min-version': pushed });
    assert.equal(fastPath.servedAtOnce, atOnce + 1, 'the hint is now the head: at once');
    assert.equal(again.body, hinted.body);
  });
});
