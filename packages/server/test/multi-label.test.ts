/** Multi-label requests (Spring 4.2+): /{name}/{profile}/{label1},{label2} against a real repository. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

interface Body {
  label: string;
  version: string;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('multi-label requests', () => {
  let remote: GitRemote;
  let strict: TestServer;
  let lenient: TestServer;
  let master: string;
  let release: string;

  before(async () => {
    remote = await createGitRemote();
    master = await remote.commit({ 'app.yml': 'where: master\nonly.master: yes\n' });
    release = await remote.commit({ 'app.yml': 'where: release\n' }, { branch: 'release' });
    strict = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.overrides.forced': 'x',
    });
    lenient = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.continue-on-multiple-label-failure': 'true',
    });
  });

  after(async () => {
    await strict?.stop();
    await lenient?.stop();
    await remote?.remove();
  });

  it('serves every label, the last one first, versions in request order, overrides once', async () => {
    const response = await strict.get('/app/default/master,release');
    assert.equal(response.status, 200, response.body);
    const body = response.json() as Body;
    assert.equal(body.label, 'master,release');
    assert.equal(body.version, `${master},${release}`);
    assert.deepEqual(
      body.propertySources.map((source) => [source.name, source.source.where]),
      [
        ['overrides', undefined],
        [`${remote.url}/app.yml`, 'release'],
        [`${remote.url}/app.yml`, 'master'],
      ],
    );
    const yml = await strict.get('/master,release/app-default.yml');
    assert.match(yml.body, /^where: release$/m);
    assert.match(yml.body, /^ {2}master: true$/m);
  });

  it('fails on a missing label unless continue-on-multiple-label-failure', async () => {
    assert.equal((await strict.get('/app/default/master,nope')).status, 404);
    const body = (await lenient.get('/app/default/master,nope')).json() as Body;
    assert.equal(body.version, master);
    assert.deepEqual(
      body.propertySources.map((source) => source.source.where),
      ['master'],
    );
  });
});
