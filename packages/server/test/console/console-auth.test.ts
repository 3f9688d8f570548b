// With basic auth on, the console page, its API and its event stream need credentials like every other
// endpoint; an action needs credentials and the CSRF token both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const PASSWORD = 'console-password-1';

describe('console with basic auth', () => {
  let remote: GitRemote;
  let server: TestServer;
  const authorization = `Basic ${Buffer.from(`ops:${PASSWORD}`).toString('base64')}`;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample.yml': 'a: 1\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.security.user.name': 'ops',
      'spring.security.user.password': PASSWORD,
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('asks for credentials on the page, the API and the event stream', async () => {
    for (const path of [
      '/-/console/',
      '/-/console/api/overview',
      '/-/console/api/session',
      '/-/console/api/events',
    ]) {
      const anonymous = await server.get(path);
      assert.equal(anonymous.status, 401, path);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Basic realm="confbus"');
      assert.equal((anonymous.json() as { code: string }).code, 'CONFBUS_UNAUTHORIZED');
    }
    assert.equal((await server.get('/-/console/', { authorization })).status, 200);
    const session = await server.get('/-/console/api/session', { authorization });
    assert.equal((session.json() as { authEnabled: boolean }).authEnabled, true);
  });

  it('lets only an authenticated user with the CSRF token act', async () => {
    const session = (await server.get('/-/console/api/session', { authorization })).json() as {
      csrfToken: string;
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${server.base}/-/console/api/bus-refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ target: 'application', application: 'sample' }),
      });
    assert.equal(
      (await post({ 'x-confbus-csrf': session.csrfToken })).status,
      401,
      'token without credentials',
    );
    assert.equal((await post({ authorization })).status, 403, 'credentials without token');
    const both = await post({ authorization, 'x-confbus-csrf': session.csrfToken });
    // Past both checks; this server has no bus.
    assert.equal(both.status, 503);
    assert.equal(((await both.json()) as { code: string }).code, 'CONFBUS_CONSOLE_BUS_DISABLED');
  });
});
