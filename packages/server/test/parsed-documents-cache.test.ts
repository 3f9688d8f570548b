/** After a push, only the files that changed are parsed again; shared files are parsed once per content. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

describe('parsed documents cache', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'shared: 1\n',
      'foo.yml': 'foo: 1\n',
      'foo-dev.yml': 'foo: dev\n',
      'bar.yml': 'bar: 1\n',
    });
    server = await startGitTestServer({ 'spring.cloud.config.server.git.uri': remote.url });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('parses each file content once across applications and commits', async () => {
    const environments = server.server.environments!;
    assert.equal((await server.get('/foo/dev')).status, 200);
    assert.equal(environments.parses, 3, 'foo-dev.yml, foo.yml, application.yml');
    assert.equal((await server.get('/bar/default')).status, 200);
    assert.equal(environments.parses, 4, 'bar.yml only: application.yml is shared');

    await remote.commit({ 'foo-dev.yml': 'foo: dev2\n' });
    const after = (await server.get('/foo/dev')).json() as {
      propertySources: Array<{ source: { foo?: string } }>;
    };
    assert.equal(after.propertySources[0]?.source.foo, 'dev2');
    assert.equal(environments.parses, 5, 'only the changed file is parsed again');
    assert.equal(environments.builds, 3);
  });
});
