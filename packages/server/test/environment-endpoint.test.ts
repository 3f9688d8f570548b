import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

interface EnvironmentJson {
  name: string;
  profiles: string[];
  label: string | null;
  version: string;
  state: string | null;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('environment endpoint over file://', () => {
  let remote: GitRemote;
  let server: TestServer;
  let first: string;

  before(async () => {
    remote = await createGitRemote();
    first = await remote.commit({
      'application.yml':
        'group:\n  profile: default\n  comment: shared\nshared: from-application\nlist: [a, b]\n',
      'application-dev.yml': 'shared: from-application-dev\n',
      'foo.yml': 'foo:\n  value: base\nflag: on\noctal: 012\nwhen: 2001-12-14\nnothing:\n',
      'foo-dev.yml': 'foo:\n  value: dev\n',
      'foo-db.properties': 'foo.db=true\n',
      'bar.yml':
        'greeting: plain\n---\nspring:\n  config:\n    activate:\n      on-profile: dev\ngreeting: dev\n',
    });
    server = await startGitTestServer({ 'spring.cloud.config.server.git.uri': remote.url });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  it('answers Spring environment JSON in Spring precedence order', async () => {
    const response = await server.get('/foo/dev,db');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const env = response.json() as EnvironmentJson;
    assert.deepEqual(Object.keys(env), ['name', 'profiles', 'label', 'version', 'state', 'propertySources']);
    assert.equal(env.name, 'foo');
    assert.deepEqual(env.profiles, ['dev,db']);
    assert.equal(env.label, null);
    assert.equal(env.version, first);
    const uri = remote.url.replace(/\/+$/, '');
    assert.deepEqual(
      env.propertySources.map((s) => s.name),
      [
        `${uri}/foo-db.properties`,
        `${uri}/foo-dev.yml`,
        `${uri}/application-dev.yml`,
        `${uri}/foo.yml`,
        `${uri}/application.yml`,
      ],
    );
    const foo = env.propertySources[3]?.source;
    assert.deepEqual(foo, { 'foo.value': 'base', flag: true, octal: 10, when: '2001-12-14', nothing: '' });
    assert.deepEqual(env.propertySources[4]?.source['list[1]'], 'b');
    assert.equal(env.propertySources[0]?.source['foo.db'], 'true');
  });

  it('names multi-document sources and filters them by profile', async () => {
    const uri = remote.url.replace(/\/+$/, '');
    const dev = (await server.get('/bar/dev')).json() as EnvironmentJson;
    assert.deepEqual(
      dev.propertySources.filter((s) => s.name.includes('bar.yml')).map((s) => [s.name, s.source.greeting]),
      [
        [`${uri}/bar.yml (document #1)`, 'dev'],
        [`${uri}/bar.yml (document #0)`, 'plain'],
      ],
    );
    const prod = (await server.get('/bar/prod')).json() as EnvironmentJson;
    assert.deepEqual(
      prod.propertySources.filter((s) => s.name.includes('bar.yml')).map((s) => s.source.greeting),
      ['plain'],
    );
  });

  it('sees a push on the next request (refresh-rate 0) and reports the commit', async () => {
    const second = await remote.commit({ 'foo-dev.yml': 'foo:\n  value: pushed\n' });
    const env = (await server.get('/foo/dev')).json() as EnvironmentJson;
    assert.equal(env.version, second);
    assert.equal(env.propertySources[0]?.source['foo.value'], 'pushed');
  });

  it('serves branches, tags, commit ids and labels with slashes', async () => {
    const featureCommit = await remote.commit(
      { 'foo.yml': 'foo:\n  value: feature\n' },
      { branch: 'feature/x' },
    );
    const tagged = await remote.commit(
      { 'foo.yml': 'foo:\n  value: tagged\n' },
      { branch: 'release', tag: 'v1.0' },
    );
    for (const label of ['feature(_)x', 'feature%2Fx']) {
      const env = (await server.get(`/foo/default/${label}`)).json() as EnvironmentJson;
      assert.equal(env.label, 'feature/x');
      assert.equal(env.version, featureCommit);
      assert.equal(env.propertySources[0]?.source['foo.value'], 'feature');
    }
    const byTag = (await server.get('/foo/default/v1.0')).json() as EnvironmentJson;
    assert.equal(byTag.version, tagged);
    const byCommit = (
      await server.get(`/foo/default/${featureCommit.slice(0, 10)}`)
    ).json() as EnvironmentJson;
    assert.equal(byCommit.version, featureCommit);
  });

  it('renders merged .yml, .properties and .json, with and without a label', async () => {
    const yml = await server.get('/foo-dev.yml');
    assert.equal(yml.status, 200);
    assert.match(yml.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(yml.body, /^foo:\n {2}value: pushed\n/m);
    const properties = await server.get('/foo-dev.properties');
    assert.match(properties.body, /^foo\.value: pushed$/m);
    assert.ok(!properties.body.endsWith('\n'));
    const json = (await server.get('/foo-dev.json')).json() as { foo: { value: string }; list: string[] };
    assert.equal(json.foo.value, 'pushed');
    assert.deepEqual(json.list, ['a', 'b']);
    const labelled = await server.get('/feature(_)x/foo-default.yml');
    assert.match(labelled.body, /value: feature/);
  });

  it('writes numbers as Spring does, for files parsed inline and in a worker thread alike', async () => {
    const numbers = 'ratio: 1e3\nbig: 12345678901234567891\ninf: .inf\nflag: ${enabled}\nenabled: false\n';
    // Past ConfigFileParser's INLINE_BYTES, a file is parsed in a worker and its values cross a thread.
    await remote.commit({ 'small.yml': numbers, 'large.yml': `${'# padding\n'.repeat(150)}${numbers}` });
    for (const app of ['small', 'large']) {
      const json = (await server.get(`/${app}/default`)).body;
      assert.match(json, /"ratio":1000\.0,"big":12345678901234567891,"inf":"Infinity"/, app);
      const properties = (await server.get(`/${app}-default.properties`)).body;
      assert.match(
        properties,
        /^ratio: 1000\.0\nbig: 12345678901234567891\ninf: Infinity\nflag: false$/m,
        app,
      );
      const yml = (await server.get(`/${app}-default.yml`)).body;
      // A resolved .yml value is a string (Spring 5.0.4+ resolves values before SnakeYAML writes them).
      assert.match(yml, /^ratio: 1000\.0\nbig: 12345678901234567891\ninf: \.inf\nflag: 'false'\n/m, app);
      assert.match(
        (await server.get(`/${app}-default.json`)).body,
        /"ratio":1000\.0,"big":12345678901234567891,/,
        app,
      );
    }
  });

  it('answers JSON to the v2 media type Spring clients send', async () => {
    const response = await server.get('/foo/dev', {
      accept: 'application/vnd.spring-cloud.config-server.v2+json',
    });
    assert.equal(response.status, 200);
    assert.equal((response.json() as EnvironmentJson).name, 'foo');
  });

  it('gives Spring-style errors naming what was wrong', async () => {
    const unknown = await server.get('/foo/dev/no-such-branch');
    assert.equal(unknown.status, 404);
    const body = unknown.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).slice(0, 5), ['timestamp', 'status', 'error', 'message', 'path']);
    assert.equal(body.status, 404);
    assert.match(String(body.message), /no-such-branch/);
    const badProfile = await server.get('/foo/-dev');
    assert.equal(badProfile.status, 400);
    assert.match(String((badProfile.json() as Record<string, unknown>).message), /profile/i);
  });

  it('rejects hostile paths and labels with 4xx and touches nothing', async () => {
    const hostile = [
      '/foo/dev/--upload-pack=touch%20%2Ftmp%2Fconfbus-pwned',
      '/foo/dev/-x',
      '/foo/dev/..%2F..%2Fetc',
      '/foo/dev/a%2F..%2Fb',
      '/..%2F..%2Fetc%2Fpasswd/dev',
      '/foo/..',
      '/foo/dev/HEAD@%7B1%7D',
      '/foo/dev/%00',
      `/foo/${Array.from({ length: 40 }, (_, i) => `p${i}`).join(',')}`,
    ];
    for (const path of hostile) {
      const response = await server.get(path);
      assert.ok(response.status >= 400 && response.status < 500, `${path} answered ${response.status}`);
    }
    await assert.rejects(import('node:fs/promises').then((fs) => fs.access('/tmp/confbus-pwned')));
  });

  it('names file, document and line of a file that does not parse, for that application only', async () => {
    await remote.commit({ 'broken.yml': 'ok: 1\n---\na: [1\nb: 2\n' });
    const broken = await server.get('/broken/default');
    assert.equal(broken.status, 500);
    const message = String((broken.json() as Record<string, unknown>).message);
    assert.match(message, /broken\.yml/);
    assert.match(message, /document 2/);
    assert.match(message, /line \d+/);
    assert.equal((await server.get('/foo/default')).status, 200);
  });

  it('reports upstream freshness in health', async () => {
    const health = (await server.get('/actuator/health')).json() as {
      status: string;
      components: { git: { status: string; details: { stale: boolean; lastSuccessAt?: string } } };
    };
    assert.equal(health.status, 'UP');
    assert.equal(health.components.git.status, 'UP');
    assert.equal(health.components.git.details.stale, false);
    assert.ok(health.components.git.details.lastSuccessAt);
  });
});
