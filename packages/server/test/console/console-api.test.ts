// The console's JSON API against a real Git remote and an in-process server: every read endpoint, secrets masked
// in every answer, the reserved /-/ prefix next to an application named `console`, input errors with Spring's
// body, the push log behind "the diff a push introduced", and the page's caching headers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const SECRETS = ['tok-SECRET-1', 'pw-SECRET-2', 'pw-SECRET-3'];

const FILES = {
  'application.yml': 'info:\n  served-by: confbus\nshared:\n  token: tok-SECRET-1\n',
  'sample.yml': [
    'greeting: hello',
    'db:',
    '  password: pw-SECRET-2',
    '  url: jdbc:postgresql://app:pw-SECRET-3@db.example/orders',
    '---',
    'spring.config.activate.on-profile: eu',
    'greeting: hello eu',
    '',
  ].join('\n'),
  'sample-dev.yml': 'greeting: hello dev\nfeature:\n  flag: true\n',
  'console.yml': 'name: an application called console\n',
  'services/orders/application.yml': 'orders:\n  limit: 10\n',
};

interface SpringError {
  status: number;
  error: string;
  message: string;
  path: string;
  code: string;
  timestamp: string;
}

describe('console JSON API', () => {
  let remote: GitRemote;
  let server: TestServer;
  const commits: string[] = [];

  before(async () => {
    remote = await createGitRemote();
    commits.push(await remote.commit(FILES, { message: 'initial configuration', tag: 'v1' }));
    commits.push(
      await remote.commit({ 'sample-dev.yml': 'greeting: hello dev 2\nfeature:\n  flag: true\n' }),
    );
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.search-paths': 'services/{application}',
      'spring.cloud.config.server.git.clone-on-start': 'true',
      'confbus.console.max-event-streams': '1',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  async function api<T>(path: string, expected = 200): Promise<T> {
    const response = await server.get(`/-/console/api/${path}`);
    assert.equal(response.status, expected, response.body);
    for (const secret of SECRETS) assert.ok(!response.body.includes(secret), `${path} leaked ${secret}`);
    return response.json() as T;
  }

  it('keeps its paths apart from environment URLs: an application named console is still served', async () => {
    const env = await server.get('/console/default');
    assert.equal(env.status, 200, env.body);
    assert.equal((env.json() as { name: string }).name, 'console');
    assert.match((await server.get('/console-default.yml')).body, /an application called console/);
    assert.equal((await server.get('/-/console/api/overview')).status, 200);
    // `-` starts no application name and no label: `/-/…` is never an environment URL, and is reserved.
    assert.equal(((await server.get('/-/default')).json() as SpringError).code, 'CONFBUS_NOT_FOUND');
    assert.equal(
      ((await server.get('/-/console/nothing/here.yml')).json() as SpringError).code,
      'CONFBUS_NOT_FOUND',
    );
  });

  it('overview: repository without credentials, commit with author and time, state, counts', async () => {
    const overview = await api<{
      repositories: Array<{
        name: string;
        uri: string;
        patterns: string[];
        label: string;
        commit: { commit: string; message: string; author: string };
        state: string;
      }>;
      bus: { enabled: boolean };
      counts: { applications: number; instances: number };
    }>('overview');
    assert.equal(overview.repositories.length, 1);
    const [repository] = overview.repositories;
    assert.deepEqual([repository?.name, repository?.patterns], ['default', []]);
    assert.equal(repository?.uri, remote.url);
    assert.equal(repository?.label, 'master');
    assert.equal(repository?.commit.commit, commits[1]);
    assert.equal(repository?.commit.author, 'Confbus Test');
    assert.equal(repository?.state, 'UP');
    assert.equal(overview.bus.enabled, false);
    assert.deepEqual(overview.counts, { applications: 4, instances: 0 });
  });

  it('applications: from file names, multi-document profiles and {application} search paths', async () => {
    const apps = await api<{
      items: Array<{ name: string; profiles: string[]; files: string[]; shared: boolean }>;
      total: number;
    }>('applications');
    assert.deepEqual(
      apps.items.map((a) => [a.name, a.profiles, a.files]),
      [
        ['application', ['default'], ['application.yml']],
        ['console', ['default'], ['console.yml']],
        ['orders', ['default'], ['services/orders/application.yml']],
        ['sample', ['default', 'dev', 'eu'], ['sample-dev.yml', 'sample.yml']],
      ],
    );
    const page = await api<{ items: Array<{ name: string }>; total: number; offset: number; limit: number }>(
      'applications?filter=LE&offset=1&limit=1',
    );
    assert.deepEqual(
      [page.items.map((a) => a.name), page.total, page.offset, page.limit],
      [['sample'], 2, 1, 1],
    );
    const atTag = await api<{ commit: string }>('applications?label=v1');
    assert.equal(atTag.commit, commits[0]);
    const labels = await api<{ items: Array<{ name: string; kind: string }> }>('labels');
    assert.deepEqual(
      labels.items.map((l) => `${l.kind}:${l.name}`),
      ['branch:master', 'tag:v1'],
    );
  });

  it("lists the commits that touched an application's files, a page at a time", async () => {
    const first = await api<{
      items: Array<{ commit: string; author: string; message: string }>;
      more: boolean;
    }>('applications/sample/commits?limit=1');
    assert.deepEqual(
      first.items.map((c) => c.commit),
      [commits[1]],
    );
    assert.equal(first.more, true);
    const second = await api<{ items: Array<{ commit: string; message: string }>; more: boolean }>(
      'applications/sample/commits?limit=1&offset=1',
    );
    assert.deepEqual(
      second.items.map((c) => [c.commit, c.message]),
      [[commits[0], 'initial configuration']],
    );
    assert.equal(second.more, false);
    const orders = await api<{ items: Array<{ commit: string }> }>('applications/orders/commits');
    assert.deepEqual(
      orders.items.map((c) => c.commit),
      [commits[0]],
    );
    const commit = await api<{ commit: string; previousCommit: string }>(
      `commits/${commits[1]!.slice(0, 12)}`,
    );
    assert.deepEqual([commit.commit, commit.previousCommit], [commits[1], commits[0]]);
  });

  it('environment: effective values with their file and document, overridden values beneath, secrets masked', async () => {
    const env = await api<{
      commit: string;
      total: number;
      items: Array<{
        key: string;
        value: unknown;
        origin: { file: string; document?: number };
        overridden: Array<{ value: unknown; origin: { file: string } }>;
      }>;
    }>('environment?application=sample&profiles=dev,eu');
    const byKey = new Map(env.items.map((p) => [p.key, p]));
    assert.equal(env.commit, commits[1]);
    assert.deepEqual(byKey.get('greeting'), {
      key: 'greeting',
      value: 'hello dev 2',
      origin: { file: 'sample-dev.yml' },
      overridden: [
        { value: 'hello eu', origin: { file: 'sample.yml', document: 1 } },
        { value: 'hello', origin: { file: 'sample.yml', document: 0 } },
      ],
    });
    assert.equal(byKey.get('db.password')?.value, '******');
    assert.equal(byKey.get('shared.token')?.value, '******');
    assert.equal(byKey.get('db.url')?.value, 'jdbc:postgresql://app:******@db.example/orders');
    assert.equal(byKey.get('feature.flag')?.value, true);
    const filtered = await api<{ items: Array<{ key: string }>; total: number }>(
      'environment?application=sample&profiles=dev&filter=DB.&limit=1',
    );
    assert.deepEqual([filtered.total, filtered.items.map((p) => p.key)], [2, ['db.password']]);
  });

  it('downloads the effective configuration as .yml, .properties and .json, masked', async () => {
    for (const [format, type, expected] of [
      ['yml', 'text/plain', /greeting: hello dev 2/],
      ['properties', 'text/plain', /^db\.password: \*{6}$/m],
      ['json', 'application/json', /"password": "\*{6}"/],
    ] as const) {
      const response = await server.get(
        `/-/console/api/environment/download?application=sample&profiles=dev&format=${format}`,
      );
      assert.equal(response.status, 200, response.body);
      assert.ok(response.headers.get('content-type')?.startsWith(type));
      assert.equal(
        response.headers.get('content-disposition'),
        `attachment; filename="sample-dev.${format}"`,
      );
      assert.match(response.body, expected);
      for (const secret of SECRETS) assert.ok(!response.body.includes(secret), `${format} leaked ${secret}`);
    }
  });

  it('diff: added, removed and changed effective keys between two labels', async () => {
    const diff = await api<{
      from: { commit: string };
      to: { commit: string };
      added: unknown[];
      removed: unknown[];
      changed: unknown[];
    }>('diff?application=sample&profiles=dev&from=v1&to=master');
    assert.deepEqual([diff.from.commit, diff.to.commit], [commits[0], commits[1]]);
    assert.deepEqual(diff.changed, [{ key: 'greeting', from: 'hello dev', to: 'hello dev 2' }]);
    assert.deepEqual([diff.added, diff.removed], [[], []]);
  });

  it('diff of a push: everything the push changed, even across several commits', async () => {
    await api('overview'); // an upstream check: the server knows the current commit
    await remote.commit({
      'sample.yml': `${FILES['sample.yml']}\n---\nspring.config.activate.on-profile: dev\nextra: one\n`,
    });
    const last = await remote.commit({ 'sample-dev.yml': 'greeting: hello dev 3\n' });
    await api('overview');
    const diff = await api<{
      from: { commit: string };
      added: unknown[];
      removed: unknown[];
      changed: unknown[];
    }>(`diff?application=sample&profiles=dev&to=${last}`);
    assert.equal(
      diff.from.commit,
      commits[1],
      'from the commit before the push, not the last commit’s parent',
    );
    assert.deepEqual(diff.added, [
      { key: 'extra', value: 'one' },
      { key: 'spring.config.activate.on-profile', value: 'dev' },
    ]);
    assert.deepEqual(diff.removed, [{ key: 'feature.flag', value: true }]);
    assert.deepEqual(diff.changed, [{ key: 'greeting', from: 'hello dev 2', to: 'hello dev 3' }]);
    const overview = await api<{ pushes: Array<{ commit: string; previous: string }> }>('overview');
    assert.deepEqual(overview.pushes[0], { ...overview.pushes[0], commit: last, previous: commits[1] });
  });

  it('answers bad input with 4xx and Spring error bodies naming the problem', async () => {
    const cases: Array<[string, number, string]> = [
      ['environment', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['environment?application=../etc', 400, 'CONFBUS_INVALID_APPLICATION'],
      ['environment?application=sample&label=a..b', 400, 'CONFBUS_INVALID_LABEL'],
      ['environment?application=sample&label=nope', 404, 'CONFBUS_NO_SUCH_LABEL'],
      [
        'environment?application=sample&profiles=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,aa,bb,cc,dd,ee,ff,gg',
        400,
        'CONFBUS_TOO_MANY_PROFILES',
      ],
      ['environment?application=sample&limit=0', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['environment?application=sample&offset=-1', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['environment?application=sample&application=other', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['environment/download?application=sample&format=xml', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['applications/nothing-here/commits', 404, 'CONFBUS_CONSOLE_NOT_FOUND'],
      ['applications/a,b/commits', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['commits/not-hex', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['commits/0123456789abcdef', 404, 'CONFBUS_NO_SUCH_LABEL'],
      ['refresh-events/unknown', 404, 'CONFBUS_CONSOLE_NOT_FOUND'],
      ['fleet?state=sleepy', 400, 'CONFBUS_CONSOLE_BAD_REQUEST'],
      ['no-such-endpoint', 404, 'CONFBUS_NOT_FOUND'],
    ];
    for (const [path, status, code] of cases) {
      const body = await api<SpringError>(path, status);
      assert.equal(body.code, code, path);
      assert.equal(body.status, status, path);
      assert.ok(
        body.message.length > 0 && body.error.length > 0 && !Number.isNaN(Date.parse(body.timestamp)),
        path,
      );
      assert.ok(body.path.startsWith('/-/console/api/') && !body.path.includes('?'), path);
    }
  });

  it('refuses a bus refresh without the CSRF token or from another site, and says when the bus is off', async () => {
    const session = await api<{
      csrfToken: string;
      csrfHeader: string;
      authEnabled: boolean;
      busEnabled: boolean;
    }>('session');
    assert.deepEqual(
      [session.authEnabled, session.busEnabled, session.csrfHeader],
      [false, false, 'x-confbus-csrf'],
    );
    const post = (headers: Record<string, string>, body: unknown = { target: 'all' }) =>
      fetch(`${server.base}/-/console/api/bus-refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as SpringError }));
    assert.equal((await post({})).body.code, 'CONFBUS_CONSOLE_CSRF');
    assert.equal((await post({ 'x-confbus-csrf': 'guess' })).status, 403);
    const token = { 'x-confbus-csrf': session.csrfToken };
    assert.equal((await post({ ...token, 'sec-fetch-site': 'cross-site' })).status, 403);
    assert.equal((await post({ ...token, origin: 'https://evil.example' })).status, 403);
    assert.equal(
      (await post({ ...token, origin: server.base, 'sec-fetch-site': 'same-origin' })).body.code,
      'CONFBUS_CONSOLE_BUS_DISABLED',
    );
    assert.equal(
      (await post(token, { target: 'application', application: '../x' })).body.code,
      'CONFBUS_CONSOLE_BAD_REQUEST',
    );
    assert.equal((await post(token, { target: 'instance', instance: 'a:*' })).status, 400);
    const form = await fetch(`${server.base}/-/console/api/bus-refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...token },
      body: 'target=all',
    });
    assert.equal(form.status, 415, 'a form post (what a foreign page can send) is not even parsed');
  });

  it('serves the page: index revalidated, hashed assets immutable, a strict CSP', async () => {
    const redirect = await fetch(`${server.base}/-/console`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/-/console/');
    const index = await server.get('/-/console/');
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    assert.match(index.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(index.body)?.[1];
    assert.ok(script, index.body);
    const asset = await server.get(`/-/console/${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await server.get('/-/console/assets/missing.js')).status, 404);
  });

  it('streams live events, and refuses streams beyond confbus.console.max-event-streams', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${server.base}/-/console/api/events`, { signal: controller.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const second = await server.get('/-/console/api/events');
    assert.equal(second.status, 503);
    assert.equal((second.json() as SpringError).code, 'CONFBUS_CONSOLE_STREAMS_EXHAUSTED');

    const reader = stream.body!.getReader();
    let text = '';
    const pushed = await remote.commit({ 'console.yml': 'name: renamed\n' });
    await api('overview'); // the check that notices the push
    while (!text.includes(pushed)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    assert.match(text, /event: push\ndata: \{"commit":"[0-9a-f]{40}","previous":"[0-9a-f]{40}"/);
    controller.abort();
  });
});
