/**
 * Several repositories (spring.cloud.config.server.git.repos.*) against real Git remotes: pattern routing,
 * fallback to the default repository, per-repository search paths, health, uri templates with
 * `{application}` bounded against hostile names, with `{profile}` and `{label}`, and plain-text and
 * multi-label requests through named repositories.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Body {
  name: string;
  version: string;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

const REPOS = 'spring.cloud.config.server.git.repos';

describe('several repositories', () => {
  let fallback: GitRemote;
  let team: GitRemote;
  let bar: GitRemote;
  let qa: GitRemote;
  let server: TestServer;

  before(async () => {
    [fallback, team, bar, qa] = await Promise.all([
      createGitRemote('default'),
      createGitRemote('team'),
      createGitRemote('bar'),
      createGitRemote('qa'),
    ]);
    await fallback.commit({ 'application.yml': 'from: default\n', 'foo.yml': 'foo.from: default\n' });
    await fallback.commit({ 'foo.yml': 'foo.from: default-release\n' }, { branch: 'release' });
    await team.commit({ 'foo.yml': 'foo.from: team\n', 'foo-dev.yml': 'foo.dev: team\n' });
    await bar.commit({ 'config/bar/bar.yml': 'bar.from: bar-subdir\n', 'bar.yml': 'bar.from: bar-root\n' });
    await qa.commit({ 'application-qa.yml': 'from: qa\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': fallback.url,
      [`${REPOS}.team.uri`]: team.url,
      [`${REPOS}.team.pattern`]: 'foo*,other/prod',
      [`${REPOS}.bar.uri`]: bar.url,
      [`${REPOS}.bar.search-paths`]: 'config/{application}',
      [`${REPOS}.qa.uri`]: qa.url,
      [`${REPOS}.qa.pattern`]: '*/qa',
    });
  });

  after(async () => {
    await server?.stop();
    await Promise.all([fallback, team, bar, qa].map((remote) => remote?.remove()));
  });

  const get = async (path: string): Promise<Body> => {
    const response = await server.get(path);
    assert.equal(response.status, 200, `${path}: ${response.body}`);
    return response.json() as Body;
  };
  const sourceNames = (body: Body) => body.propertySources.map((source) => source.name);

  it('routes by pattern, wildcard included, to the first matching repository', async () => {
    const body = await get('/foo/dev');
    assert.deepEqual(sourceNames(body), [`${team.url}/foo-dev.yml`, `${team.url}/foo.yml`]);
    assert.deepEqual(sourceNames(await get('/foobar/default')), []);
    assert.deepEqual(sourceNames(await get('/other/prod')), [], 'other/prod is the team repository');
  });

  it('a repository without a pattern serves its own name, with its own search paths', async () => {
    const body = await get('/bar/default');
    assert.deepEqual(sourceNames(body), [`${bar.url}/config/bar/bar.yml`, `${bar.url}/bar.yml`]);
    assert.equal(body.propertySources[0]?.source['bar.from'], 'bar-subdir');
  });

  it('a profile pattern routes by profile; everything else goes to the default repository', async () => {
    assert.deepEqual(sourceNames(await get('/anything/qa')), [`${qa.url}/application-qa.yml`]);
    assert.deepEqual(sourceNames(await get('/anything/dev')), [`${fallback.url}/application.yml`]);
    assert.deepEqual(sourceNames(await get('/other/dev')), [`${fallback.url}/application.yml`]);
  });

  it('a label the matched repository lacks is looked up in the default repository, as Spring does', async () => {
    const body = await get('/foo/dev/release');
    assert.equal(body.propertySources[0]?.source['foo.from'], 'default-release');
    const missing = await server.get('/foo/dev/nowhere');
    assert.equal(missing.status, 404);
  });

  it('health lists each repository in use with its own state', async () => {
    const health = (await server.get('/actuator/health')).json() as {
      components: { git: { details: { repositories: Record<string, { status: string; uri: string }> } } };
    };
    const repositories = health.components.git.details.repositories;
    assert.deepEqual(Object.keys(repositories).sort(), ['bar', 'default', 'qa', 'team']);
    assert.equal(repositories.team?.status, 'UP');
    assert.equal(repositories.team?.uri, team.url);
  });

  it('each repository checks upstream on its own: a push to one is served at once', async () => {
    await team.commit({ 'foo.yml': 'foo.from: team-2\n' });
    const body = await get('/foo/default');
    assert.equal(body.propertySources[0]?.source['foo.from'], 'team-2');
  });
});

describe('one repository per application ({application} in the uri)', () => {
  let parent: TempDir;
  let basedir: TempDir;
  const remotes: GitRemote[] = [];
  let server: TestServer;

  before(async () => {
    parent = await makeTempDir('confbus-repos-parent-');
    basedir = await makeTempDir('confbus-repos-basedir-');
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) {
      const remote = await createGitRemote(name);
      await remote.commit({ 'application.yml': `owner: ${name}\n` });
      await symlink(remote.path, join(parent.path, `${name}.git`));
      remotes.push(remote);
    }
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': `${pathToFileURL(parent.path).href}/{application}.git`,
      'spring.cloud.config.server.git.basedir': join(basedir.path, 'mirror'),
      'confbus.server.git.max-placeholder-repositories': '3',
    });
  });

  after(async () => {
    await server?.stop();
    await Promise.all(remotes.map((remote) => remote.remove()));
    await parent?.remove();
    await basedir?.remove();
  });

  const owner = async (application: string): Promise<unknown> => {
    const response = await server.get(`/${application}/default`);
    assert.equal(response.status, 200, response.body);
    return (response.json() as Body).propertySources[0]?.source.owner;
  };
  const activeMirrors = () => Object.keys(server.server.repositories.health());

  it('serves each application from its own repository', async () => {
    assert.equal(await owner('alpha'), 'alpha');
    assert.equal(await owner('beta'), 'beta');
  });

  it('an application without a repository is 404, and keeps no mirror', async () => {
    const before = activeMirrors().length;
    const response = await server.get('/nosuchapp/default');
    assert.equal(response.status, 404, response.body);
    assert.equal(activeMirrors().length, before);
  });

  it('repeating a request whose repository cannot be cloned answers 404 every time, leaving no folder', async () => {
    // Issue 23: the failed attempt's folder was removed in the background, and the next request's mirror found it
    // half removed (500 CONFBUS_GIT_BASEDIR, 20 of 30 tries). Now it is gone before the 404 is sent.
    const folders = async () => (await readdir(join(basedir.path, 'mirror.repos')).catch(() => [])).length;
    const live = await folders();
    for (let attempt = 1; attempt <= 30; attempt++) {
      const response = await server.get('/nosuchrepo/default');
      assert.equal(response.status, 404, `attempt ${attempt}: ${response.body}`);
      assert.equal(await folders(), live, `attempt ${attempt}: the failed clone's folder is still there`);
    }
  });

  it('refuses names that are not plain names before any clone', async () => {
    for (const path of [
      '/..%2Fetc/default',
      '/-upload-pack=x/default',
      '/.hidden/default',
      '/a(_)b/default',
    ]) {
      const response = await server.get(path);
      assert.ok([400, 404].includes(response.status), `${path}: ${response.status}`);
    }
    const comma = await server.get('/alpha,beta/default');
    assert.equal(comma.status, 400, 'two applications cannot name one repository');
    assert.match(comma.body, /cannot name a repository/);
  });

  it('keeps at most max-placeholder-repositories mirrors, whatever the names requested', async () => {
    assert.equal(await owner('gamma'), 'gamma');
    assert.equal(await owner('delta'), 'delta');
    assert.ok(activeMirrors().length <= 3);
    const hostile = Array.from({ length: 60 }, (_, i) => `/hostile-${i}-${'x'.repeat(i + 1)}/default`);
    for (let i = 0; i < hostile.length; i += 10) {
      const statuses = await Promise.all(
        hostile.slice(i, i + 10).map(async (p) => (await server.get(p)).status),
      );
      assert.ok(
        // 404: no such repository; 503: every slot busy with another clone at that moment.
        statuses.every((status) => status === 404 || status === 503),
        statuses.join(),
      );
    }
    assert.ok(activeMirrors().length <= 3, activeMirrors().join(', '));
    const dirs = await readdir(join(basedir.path, 'mirror.repos')).catch(() => []);
    assert.ok(dirs.length <= 3, `mirror directories on disk: ${dirs.length}`);
    assert.equal(await owner('alpha'), 'alpha', 'an evicted repository is cloned again when asked for');
  });
});

describe('uri templates with {profile} and {label}; plain text and label lists through named repositories', () => {
  let byProfile: TempDir;
  let byLabel: TempDir;
  const remotes: GitRemote[] = [];
  let team: GitRemote;
  let teamMaster: string;
  let teamHotfix: string;
  let server: TestServer;

  /** A remote whose bare repository is linked into `parent` as `<name>.git`. */
  const linked = async (parent: TempDir, name: string, files: Record<string, string>, branch?: string) => {
    const remote = await createGitRemote(name);
    await remote.commit(files, branch === undefined ? {} : { branch });
    await symlink(remote.path, join(parent.path, `${name}.git`));
    remotes.push(remote);
  };

  before(async () => {
    byProfile = await makeTempDir('confbus-repos-by-profile-');
    byLabel = await makeTempDir('confbus-repos-by-label-');
    await linked(byProfile, 'dev', { 'application.yml': 'repo: dev\n', 'banner.txt': '${repo} banner\n' });
    await linked(byProfile, 'prod', { 'application.yml': 'repo: prod\n' });
    // {label} picks the repository and, as in Spring, is the label served from it too.
    await linked(byLabel, 'main', { 'application.yml': 'repo: main-repository\n' });
    await linked(byLabel, 'v2', { 'application.yml': 'repo: v2-repository\n' }, 'v2');
    team = await createGitRemote('team');
    remotes.push(team);
    teamMaster = await team.commit({
      'team-app.yml': 'where: master\nupstream: team.internal\n',
      'nginx.conf': 'proxy_pass http://${upstream};\n',
    });
    teamHotfix = await team.commit({ 'team-app.yml': 'where: hotfix\n' }, { branch: 'hotfix' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': `${pathToFileURL(byLabel.path).href}/{label}.git`,
      [`${REPOS}.envs.uri`]: `${pathToFileURL(byProfile.path).href}/{profile}.git`,
      [`${REPOS}.envs.pattern`]: 'envs-*',
      [`${REPOS}.team.uri`]: team.url,
      [`${REPOS}.team.pattern`]: 'team-*',
    });
  });

  after(async () => {
    await server?.stop();
    await Promise.all(remotes.map((remote) => remote.remove()));
    await byProfile?.remove();
    await byLabel?.remove();
  });

  const repo = async (path: string): Promise<unknown> => {
    const response = await server.get(path);
    assert.equal(response.status, 200, `${path}: ${response.body}`);
    return (response.json() as Body).propertySources[0]?.source.repo;
  };

  it('{profile}: one repository per profile; with several, the last that exists, last first', async () => {
    assert.equal(await repo('/envs-app/dev'), 'dev');
    assert.equal(await repo('/envs-app/prod'), 'prod');
    assert.equal(await repo('/envs-app/dev,prod'), 'prod');
    assert.equal(await repo('/envs-app/dev,qa'), 'dev', 'no qa repository: the next profile is tried');
  });

  it('{label}: the label picks the repository, the default label when the request names none', async () => {
    assert.equal(await repo('/anything/default'), 'main-repository', "the default label 'main' (its master)");
    assert.equal(await repo('/anything/default/v2'), 'v2-repository');
    assert.equal((await server.get('/anything/default/v3')).status, 404);
  });

  it('serves plain text from a named repository and from a {profile} template', async () => {
    const team = await server.get('/team-app/default/master/nginx.conf');
    assert.equal(team.status, 200, team.body);
    assert.equal(team.body, 'proxy_pass http://team.internal;\n', 'resolved from the named repository');
    assert.equal((await server.get('/envs-app/dev/master/banner.txt')).body, 'dev banner\n');
  });

  it('serves a label list from a named repository, the last label first', async () => {
    const response = await server.get('/team-app/default/master,hotfix');
    assert.equal(response.status, 200, response.body);
    const body = response.json() as Body;
    assert.equal(body.version, `${teamMaster},${teamHotfix}`);
    assert.deepEqual(
      body.propertySources.map((source) => [source.name, source.source.where]),
      [
        [`${team.url}/team-app.yml`, 'hotfix'],
        [`${team.url}/team-app.yml`, 'master'],
      ],
    );
  });
});

describe('twenty configured repositories, one in use', () => {
  let fallback: GitRemote;
  let server: TestServer;
  const catFileProcesses = (): number =>
    execFileSync('ps', ['-eo', 'ppid=,args='])
      .toString()
      .split('\n')
      .filter((line) => line.trim().startsWith(`${process.pid} `) && line.includes('cat-file')).length;

  before(async () => {
    fallback = await createGitRemote('fallback');
    await fallback.commit({ 'application.yml': 'from: default\n' });
    const repos: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      repos[`${REPOS}.team-${i}.uri`] = `${fallback.url.replace(/fallback\.git$/, `team-${i}.git`)}`;
      repos[`${REPOS}.team-${i}.pattern`] = `team-${i}-*`;
    }
    server = await startGitTestServer({ 'spring.cloud.config.server.git.uri': fallback.url, ...repos });
  });

  after(async () => {
    await server?.stop();
    await fallback?.remove();
  });

  it('runs git for the repositories in use only: one cat-file each', async () => {
    const before = catFileProcesses();
    for (const app of ['foo', 'bar', 'baz']) assert.equal((await server.get(`/${app}/default`)).status, 200);
    const used = Object.entries(server.server.repositories.health()).filter(
      ([, health]) => health.lastCheckAt !== undefined,
    );
    assert.deepEqual(
      used.map(([name]) => name),
      ['default'],
      'health lists all 21; only the default one was ever checked',
    );
    assert.ok(catFileProcesses() <= Math.max(before, 1), `${catFileProcesses()} cat-file processes`);
  });
});

describe('several repositories: cached answers at once', () => {
  let fallback: GitRemote;
  let team: GitRemote;
  let server: TestServer;

  before(async () => {
    [fallback, team] = await Promise.all([createGitRemote('default'), createGitRemote('team')]);
    await fallback.commit({ 'baz.yml': 'from: default\n' });
    await team.commit({ 'foo.yml': 'from: team\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': fallback.url,
      'spring.cloud.config.server.git.refresh-rate': '3600',
      [`${REPOS}.team.uri`]: team.url,
      [`${REPOS}.team.pattern`]: 'foo*',
      [`${REPOS}.team.refresh-rate`]: '3600',
    });
  });

  after(async () => {
    await server?.stop();
    await Promise.all([fallback, team].map((remote) => remote?.remove()));
  });

  it('answers a repeated request from the cache at once, from a named repository and past it', async () => {
    const fastPath = server.server.fastPath;
    assert.ok(fastPath);
    for (const [path, from] of [
      ['/foo/default', 'team'],
      ['/baz/default', 'default'],
    ] as const) {
      const first = await server.get(path);
      const atOnce: number = fastPath.servedAtOnce;
      const again = await server.get(path);
      assert.equal(fastPath.servedAtOnce, atOnce + 1, `${path}: answered without a turn of the event loop`);
      assert.equal(again.body, first.body);
      assert.match(again.body, new RegExp(`"from":"${from}"`));
    }
  });
});
