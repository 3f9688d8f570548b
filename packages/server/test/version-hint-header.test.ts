/**
 * The version-hint header on the environment endpoints: `X-Config-Min-Version: <commit>` makes a cached-mode
 * server fetch the announced commit (once) before answering, through fastify and through the repeat-request
 * fast path alike; a malformed hint is a 400 naming the header; requests without it (Spring clients) are served
 * as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

describe('X-Config-Min-Version (version hint)', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': 'v: 1\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  const checks = () => server.server.mirror!.health().checks;

  it('without the header a cached server answers from its mirror; with it, from the announced commit', async () => {
    const first = await server.get('/sample/dev');
    assert.equal(first.status, 200);
    const pushed = await remote.commit({ 'sample-dev.yml': 'v: 2\n' });
    const stale = await server.get('/sample/dev');
    assert.notEqual(stale.headers.get('x-config-version'), pushed, 'no hint: the cached state (as Spring)');
    const before = checks();
    const [a, b] = await Promise.all([
      server.get('/sample/dev', { 'x-config-min-version': pushed }),
      server.get('/sample-dev.yml', { 'x-config-min-version': pushed.toUpperCase() }),
    ]);
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('x-config-version'), pushed);
    assert.match(b.body, /v: 2/);
    assert.equal(checks(), before + 1, 'one upstream check for both hinted requests');
    assert.ok((server.server.fastPath?.served ?? 0) > 0, 'the repeated URL went through the fast path');
  });

  it('a hint the label already points at is answered without a check', async () => {
    const head = (await server.get('/sample/dev')).headers.get('x-config-version')!;
    const before = checks();
    const answer = await server.get('/sample/dev', { 'x-config-min-version': head });
    assert.equal(answer.headers.get('x-config-version'), head);
    assert.equal(checks(), before);
  });

  it('a malformed hint is a 400 that names the header', async () => {
    for (const path of ['/sample/dev', '/sample/dev/master', '/sample-dev.properties']) {
      const answer = await server.get(path, { 'x-config-min-version': 'abc123' });
      assert.equal(answer.status, 400, path);
      const body = answer.json() as { code: string; message: string };
      assert.equal(body.code, 'CONFBUS_BAD_VERSION_HINT');
      assert.match(body.message, /x-config-min-version/);
    }
  });
});
