// confbus.console.enabled=false: no page, no API, and /-/ stays reserved (404, not an environment request).
// Where the console cannot work (the native backend, a default git uri with {application}), its paths answer 404
// saying why, the start-up log says so too, and the environment endpoints serve as usual.
import assert from 'node:assert/strict';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

describe('console switched off', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'console.yml': 'a: 1\n' });
    server = await startGitTestServer({
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

async function assertUnavailable(server: TestServer, reason: RegExp): Promise<void> {
  for (const path of [
    '/-/console',
    '/-/console/',
    '/-/console/api/overview',
    '/-/console/api/environment?application=a',
  ]) {
    const response = await server.get(path);
    assert.equal(response.status, 404, path);
    const body = response.json() as { code: string; message: string };
    assert.equal(body.code, 'CONFBUS_CONSOLE_UNAVAILABLE', path);
    assert.match(body.message, reason, path);
  }
  assert.equal(((await server.get('/-/other')).json() as { code: string }).code, 'CONFBUS_NOT_FOUND');
  assert.ok(
    server.logs.some(
      (line) => typeof line.msg === 'string' && reason.test(line.msg) && /console is off/.test(line.msg),
    ),
    'the start-up log says why',
  );
  assert.equal(server.server.console, undefined);
}

describe('console where it cannot work', () => {
  it('the native backend: 404 saying it has no history; environments served as usual', async () => {
    const folder = await makeTempDir('confbus-console-native-');
    await writeFile(join(folder.path, 'a.yml'), 'from: native\n');
    const server = await startGitTestServer({
      'spring.profiles.active': 'native',
      'spring.cloud.config.server.native.search-locations': `file:${folder.path}`,
    });
    try {
      await assertUnavailable(server, /native backend .* has no labels or history/);
      assert.match((await server.get('/a/default')).body, /native/);
    } finally {
      await server.stop();
      await folder.remove();
    }
  });

  it('a default uri with {application}: 404 saying there is no default repository; environments served', async () => {
    const parent = await makeTempDir('confbus-console-template-');
    const remote = await createGitRemote('a');
    await remote.commit({ 'application.yml': 'from: template\n' });
    await symlink(remote.path, join(parent.path, 'a.git'));
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': `${pathToFileURL(parent.path).href}/{application}.git`,
    });
    try {
      await assertUnavailable(server, /git\.uri has \{application\}, \{profile\} or \{label\}/);
      assert.match((await server.get('/a/default')).body, /template/);
    } finally {
      await server.stop();
      await remote.remove();
      await parent.remove();
    }
  });
});
