// confbus.console.enabled=false: no page, no API, and /-/ stays reserved (404, not an environment request).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startTestServer } from '../server-harness.js';

describe('console switched off', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'console.yml': 'a: 1\n' });
    server = await startTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.console.enabled': 'false',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('answers 404 under /-/ and still serves an application named console', async () => {
    for (const path of ['/-/console/', '/-/console/api/overview', '/-/console'])
      assert.equal(((await server.get(path)).json() as { code: string }).code, 'CONFBUS_NOT_FOUND', path);
    assert.equal((await server.get('/console/default')).status, 200);
    assert.equal(server.server.console, undefined);
  });
});
