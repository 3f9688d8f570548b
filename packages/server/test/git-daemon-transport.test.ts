/** The server follows a repository served over a real network transport (git://, git daemon on loopback). */
import assert from 'node:assert/strict';
import { basename, dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type GitDaemon, startGitDaemon } from '@confbus/testkit/git-daemon';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

describe('config server over git://', () => {
  let remote: GitRemote;
  let daemon: GitDaemon;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'app.yml': 'value: one\n' });
    daemon = await startGitDaemon(dirname(remote.path));
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': daemon.url(basename(remote.path)),
      'spring.cloud.config.server.git.clone-on-start': 'true',
    });
  });

  after(async () => {
    await server?.stop();
    await daemon?.stop();
    await remote?.remove();
  });

  it('serves the current commit and follows pushes', async () => {
    const one = (await server.get('/app/default')).json() as {
      propertySources: Array<{ name: string; source: Record<string, unknown> }>;
    };
    assert.equal(one.propertySources[0]?.source.value, 'one');
    assert.match(one.propertySources[0]?.name ?? '', /^git:\/\/127\.0\.0\.1:\d+\/.+\/app\.yml$/);
    const commit = await remote.commit({ 'app.yml': 'value: two\n' });
    const two = (await server.get('/app/default')).json() as {
      version: string;
      propertySources: Array<{ source: Record<string, unknown> }>;
    };
    assert.equal(two.version, commit);
    assert.equal(two.propertySources[0]?.source.value, 'two');
  });

  it('keeps serving the last state when the daemon goes away, and says so in health', async () => {
    await daemon.stop();
    const response = await server.get('/app/default');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-config-stale'), 'true');
    const again = await server.get('/app/default');
    assert.equal(again.status, 200);
    const health = (await server.get('/actuator/health')).json() as {
      components: { git: { status: string; details: { stale: boolean } } };
    };
    assert.equal(health.components.git.status, 'STALE');
    const warnings = server.logs.filter((line) => line.level === 40 && line.component === 'git');
    assert.equal(warnings.length, 1, `one warning per outage, got ${JSON.stringify(warnings)}`);
  });
});
