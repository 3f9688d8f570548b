// A server shutting down ends its watchers at once: a waiting long poll is answered 304 with
// `Connection: close` (the client asks again, of another server or of this one restarted) instead of holding
// the close for its wait until the shutdown's grace runs out and its connection is cut. Real Git mirror, no bus.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('watch connections at shutdown', () => {
  let remote: GitRemote;
  let server: TestServer | undefined;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'greeting: hello\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'spring.cloud.bus.enabled': 'false',
      'confbus.watch.upstream-check-interval': '0',
    });
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('answers every waiting long poll (304, Connection: close) and closes without cutting connections', async () => {
    const running = server!;
    const { version } = (await running.get('/foo/default')).json() as { version: string };
    const polls = [1, 2].map(() => fetch(`${running.base}/-/watch/foo/default?version=${version}&wait=60s`));
    await waitFor('two waiting long polls', () => running.server.watch?.longPolls.waiting === 2);
    server = undefined;
    const stopped = running.stop();
    for (const answer of await Promise.all(polls)) {
      assert.equal(answer.status, 304);
      assert.equal(answer.headers.get('connection'), 'close');
    }
    await stopped;
    assert.equal(running.server.watch?.longPolls.waiting, 0);
    assert.ok(
      !running.logs.some((line) => String(line.msg).startsWith('Requests still running at shutdown')),
      'no request held the close until its connection was cut',
    );
  });
});
