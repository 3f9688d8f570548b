/**
 * The settings of a named repository (`repos.<name>.username/password`, `default-label`, `clone-on-start`,
 * `timeout`, `refresh-rate`) and what each inherits from the default repository, as Spring's
 * MultipleJGitEnvironmentRepository does (credentials, timeout and refresh-rate when unset; clone-on-start
 * never), plus confbus's own inheritance of the default label. Real remotes: two authenticating smart-HTTP
 * servers, local repositories, and a git:// port that accepts connections and never answers.
 */
import assert from 'node:assert/strict';
import { type Server, type Socket, createServer } from 'node:net';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type GitHttpServer, startGitHttpServer } from '@confbus/testkit/git-http';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const GIT = 'spring.cloud.config.server.git';
const REPOS = `${GIT}.repos`;

interface Body {
  version: string;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('named repositories: their own settings, and what they inherit', () => {
  let projects: Awaited<ReturnType<typeof makeTempDir>>;
  let base: GitRemote;
  let inherit: GitRemote;
  let own: GitRemote;
  let fresh: GitRemote;
  let eager: GitRemote;
  let aliceHttp: GitHttpServer;
  let bobHttp: GitHttpServer;
  let silent: Server;
  const silentSockets = new Set<Socket>();
  let server: TestServer;

  before(async () => {
    [base, inherit, own, fresh, eager] = (await Promise.all(
      ['base', 'inherit', 'own', 'fresh', 'eager'].map((name) => createGitRemote(name)),
    )) as [GitRemote, GitRemote, GitRemote, GitRemote, GitRemote];
    for (const [remote, name] of [
      [base, 'base'],
      [inherit, 'inherit'],
      [fresh, 'fresh'],
      [eager, 'eager'],
    ] as const) {
      await remote.commit({ 'application.yml': `from: ${name}-master\n` });
      await remote.commit({ 'application.yml': `from: ${name}-release\n` }, { branch: 'release' });
    }
    await fresh.commit({ 'application.yml': 'from: fresh-develop\n' }, { branch: 'develop' });
    await own.commit({ 'application.yml': 'from: own-master\n' });
    // base and inherit behind one server that wants alice's credentials, own behind one that wants bob's.
    projects = await makeTempDir('confbus-named-settings-');
    await symlink(base.path, join(projects.path, 'base.git'));
    await symlink(inherit.path, join(projects.path, 'inherit.git'));
    aliceHttp = await startGitHttpServer(projects.path, {
      auth: { username: 'alice', password: 'alice-pw' },
    });
    bobHttp = await startGitHttpServer(dirname(own.path), { auth: { username: 'bob', password: 'bob-pw' } });
    // Accepts and never answers; its sockets are kept so that `after` can close them.
    silent = createServer((socket) => silentSockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;

    server = await startGitTestServer({
      [`${GIT}.uri`]: aliceHttp.url('base.git'),
      [`${GIT}.username`]: 'alice',
      [`${GIT}.password`]: 'alice-pw',
      [`${GIT}.default-label`]: 'release',
      [`${GIT}.refresh-rate`]: '3600',
      [`${GIT}.timeout`]: '2',
      [`${GIT}.clone-on-start`]: 'true',
      // Inherits credentials, default label, refresh-rate; not clone-on-start.
      [`${REPOS}.inherit.uri`]: aliceHttp.url('inherit.git'),
      [`${REPOS}.inherit.pattern`]: 'inherit-*',
      // Credentials of its own.
      [`${REPOS}.own.uri`]: bobHttp.url('own.git'),
      [`${REPOS}.own.pattern`]: 'own-*',
      [`${REPOS}.own.username`]: 'bob',
      [`${REPOS}.own.password`]: 'bob-pw',
      [`${REPOS}.own.default-label`]: 'master',
      // A label and a refresh-rate of its own.
      [`${REPOS}.fresh.uri`]: fresh.url,
      [`${REPOS}.fresh.pattern`]: 'fresh-*',
      [`${REPOS}.fresh.default-label`]: 'develop',
      [`${REPOS}.fresh.refresh-rate`]: '0',
      // Cloned at start, without a request.
      [`${REPOS}.eager.uri`]: eager.url,
      [`${REPOS}.eager.pattern`]: 'eager-*',
      [`${REPOS}.eager.clone-on-start`]: 'true',
      // Upstreams that never answer: one with its own timeout, one with the default repository's.
      [`${REPOS}.slow.uri`]: `git://127.0.0.1:${silentPort}/slow.git`,
      [`${REPOS}.slow.pattern`]: 'slow-*',
      [`${REPOS}.slow.timeout`]: '1',
      [`${REPOS}.slowinherit.uri`]: `git://127.0.0.1:${silentPort}/other.git`,
      [`${REPOS}.slowinherit.pattern`]: 'slowinherit-*',
    });
  });

  after(async () => {
    await server?.stop();
    await aliceHttp?.stop();
    await bobHttp?.stop();
    for (const socket of silentSockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    await Promise.all([base, inherit, own, fresh, eager].map((remote) => remote?.remove()));
    await projects?.remove();
  });

  const from = async (path: string): Promise<unknown> => {
    const response = await server.get(path);
    assert.equal(response.status, 200, `${path}: ${response.body}`);
    return (response.json() as Body).propertySources[0]?.source.from;
  };
  const health = () => server.server.repositories.health();

  it('clones a clone-on-start repository at start; one that does not set it waits for its first request', async () => {
    await waitFor('the eager repository cloned without a request', () => health().eager?.available);
    assert.equal(health().inherit?.available, false, 'clone-on-start is not inherited, as in Spring');
    assert.equal(await from('/eager-app/default/master'), 'eager-master');
  });

  it('sends the default repository credentials for a repository without a username, its own otherwise', async () => {
    assert.equal(await from('/inherit-app/default'), 'inherit-release');
    assert.equal(await from('/own-app/default'), 'own-master');
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    assert.ok(bobHttp.authorizations.includes(basic('bob', 'bob-pw')));
    assert.ok(!bobHttp.authorizations.includes(basic('alice', 'alice-pw')), 'alice is never sent to bob');
    assert.ok(aliceHttp.authorizations.some((sent) => sent === basic('alice', 'alice-pw')));
  });

  it('serves its own default label, or the default repository one when unset', async () => {
    assert.equal(await from('/fresh-app/default'), 'fresh-develop');
    assert.equal(await from('/inherit-app/default'), 'inherit-release');
    assert.equal(await from('/eager-app/default'), 'eager-release');
  });

  it('checks upstream at its own refresh-rate, or the default repository one when unset', async () => {
    assert.equal(await from('/fresh-app/default/master'), 'fresh-master');
    assert.equal(await from('/inherit-app/default/master'), 'inherit-master');
    await fresh.commit({ 'application.yml': 'from: fresh-master-2\n' });
    await inherit.commit({ 'application.yml': 'from: inherit-master-2\n' });
    assert.equal(await from('/fresh-app/default/master'), 'fresh-master-2', 'refresh-rate 0: checked');
    assert.equal(
      await from('/inherit-app/default/master'),
      'inherit-master',
      'refresh-rate 3600 inherited: not checked again within the hour',
    );
  });

  it('cuts a silent upstream after its own timeout, or the default repository one, naming the setting', async () => {
    // Unreachable named repositories hand the request on to the default repository, as in Spring.
    assert.equal(await from('/slow-app/default'), 'base-release');
    assert.equal(await from('/slowinherit-app/default'), 'base-release');
    assert.match(
      health().slow?.lastError ?? '',
      /no data from the upstream for 1 s \(spring\.cloud\.config\.server\.git\.repos\.slow\.timeout\)/,
    );
    assert.match(
      health().slowinherit?.lastError ?? '',
      /no data from the upstream for 2 s \(spring\.cloud\.config\.server\.git\.timeout\)/,
    );
  });
});

describe('named repositories: a clone-on-start clone that fails stops the start', () => {
  it('names the repository and git reason', async () => {
    const remote = await createGitRemote('present');
    await remote.commit({ 'application.yml': 'a: 1\n' });
    try {
      await assert.rejects(
        startGitTestServer({
          [`${GIT}.uri`]: remote.url,
          [`${REPOS}.missing.uri`]: `${remote.url.replace(/present\.git$/, 'absent.git')}`,
          [`${REPOS}.missing.clone-on-start`]: 'true',
        }),
        /absent\.git/,
      );
    } finally {
      await remote.remove();
    }
  });
});
