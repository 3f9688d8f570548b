// The console shows what clients are served: its environments go through the same repository router and the same
// transform as the environment endpoint, so an application that a `repos.*` pattern routes to a named repository
// (or to a mirror made from an `{application}` uri template) is shown from that repository, the server's
// overrides come first, and values the server decrypts for clients are masked. The overview lists each
// repository.
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { AesTextEncryptor, mergeForRendering } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const KEY = 'console repositories key';
const PLAIN = ['plain-note-5501', 'plain-note-5502'];
const OVERRIDE_SECRET = 'override-SECRET-5503';
const REPOS = 'spring.cloud.config.server.git.repos';
const OVERRIDES = 'spring.cloud.config.server.overrides';

interface Property {
  key: string;
  value: unknown;
  origin: { file: string; document?: number };
}

interface ServedBody {
  version: string;
  propertySources: Array<{ name: string; source: Record<string, string | number | boolean> }>;
}

describe('console on several repositories, with overrides and decryption', () => {
  let fallback: GitRemote;
  let team: GitRemote;
  let billing: GitRemote;
  let parent: Awaited<ReturnType<typeof makeTempDir>>;
  let server: TestServer;
  const teamCommits: string[] = [];
  const encryptor = new AesTextEncryptor(KEY, 'deadbeef');

  before(async () => {
    [fallback, team, billing] = await Promise.all([
      createGitRemote('default'),
      createGitRemote('team'),
      createGitRemote('billing'),
    ]);
    parent = await makeTempDir('confbus-console-repos-');
    await symlink(billing.path, join(parent.path, 'billing.git'));
    await fallback.commit({ 'application.yml': 'shared: default-repo\n', 'orders.yml': 'limit: 1\n' });
    await billing.commit({ 'application.yml': 'rate: billing-repo\n' });
    const orders = (limit: number, note: string) =>
      `limit: ${limit}\nnote: '{cipher}${encryptor.encrypt(note)}'\n`;
    teamCommits.push(await team.commit({ 'orders.yml': orders(10, PLAIN[0]!) }, { message: 'orders 10' }));
    teamCommits.push(await team.commit({ 'orders.yml': orders(20, PLAIN[1]!) }, { message: 'orders 20' }));
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': fallback.url,
      [`${REPOS}.team.uri`]: team.url,
      [`${REPOS}.team.pattern`]: 'orders*',
      [`${REPOS}.perapp.uri`]: `${pathToFileURL(parent.path).href}/{application}.git`,
      [`${REPOS}.perapp.pattern`]: 'billing*',
      [`${OVERRIDES}.server.note`]: 'set-by-server',
      [`${OVERRIDES}.db.password`]: OVERRIDE_SECRET,
      'encrypt.key': KEY,
    });
  });

  after(async () => {
    await server?.stop();
    await Promise.all([fallback, team, billing].map((remote) => remote?.remove()));
    await parent?.remove();
  });

  async function api<T>(path: string): Promise<T> {
    const response = await server.get(`/-/console/api/${path}`);
    assert.equal(response.status, 200, response.body);
    for (const secret of [...PLAIN, OVERRIDE_SECRET, '{cipher}'])
      assert.ok(!response.body.includes(secret), `${path} shows ${secret}`);
    return response.json() as T;
  }

  async function served(path: string): Promise<ServedBody> {
    const response = await server.get(path);
    assert.equal(response.status, 200, response.body);
    return response.json() as ServedBody;
  }

  it('explores the environment clients get: the routed repository, overrides first, decrypted values masked', async () => {
    const endpoint = await served('/orders/default');
    assert.match(JSON.stringify(endpoint), new RegExp(PLAIN[1]!), 'clients get the decrypted value');
    const clientView = mergeForRendering(
      endpoint.propertySources.map((source) => ({
        ...source,
        source: new Map(Object.entries(source.source)),
      })),
    );
    const env = await api<{ repository: string; commit: string; items: Property[] }>(
      'environment?application=orders',
    );
    assert.equal(env.repository, 'team');
    assert.equal(env.commit, endpoint.version);
    assert.deepEqual(
      env.items.map((p) => p.key),
      [...clientView.keys()].sort(),
      'the same keys as the environment endpoint serves',
    );
    const byKey = new Map(env.items.map((p) => [p.key, p]));
    assert.deepEqual(byKey.get('server.note'), {
      key: 'server.note',
      value: 'set-by-server',
      origin: { file: 'overrides' },
      overridden: [],
    });
    assert.deepEqual([byKey.get('limit')?.value, byKey.get('limit')?.origin], [20, { file: 'orders.yml' }]);
    assert.equal(byKey.get('note')?.value, '******', 'decrypted for clients, masked here');
    assert.equal(byKey.get('db.password')?.value, '******');
    for (const property of env.items)
      if (property.value !== '******')
        assert.equal(property.value, clientView.get(property.key), `${property.key} as clients get it`);
  });

  it('downloads what clients get, masked', async () => {
    const response = await server.get(
      '/-/console/api/environment/download?application=orders&format=properties',
    );
    assert.equal(response.status, 200, response.body);
    assert.equal(response.headers.get('x-config-version'), teamCommits[1]);
    assert.deepEqual(response.body.trim().split('\n').sort(), [
      'db.password: ******',
      'limit: 20',
      'note: ******',
      'server.note: set-by-server',
    ]);
  });

  it('diffs in the repository that serves the application, the commit before from its own history', async () => {
    const diff = await api<{
      repository: string;
      from: { commit: string };
      to: { commit: string };
      changed: unknown[];
      added: unknown[];
      removed: unknown[];
    }>('diff?application=orders');
    assert.equal(diff.repository, 'team');
    assert.deepEqual([diff.from.commit, diff.to.commit], teamCommits);
    assert.deepEqual(diff.changed, [
      { key: 'limit', from: 10, to: 20 },
      { key: 'note', from: '******', to: '******' },
    ]);
    assert.deepEqual([diff.added, diff.removed], [[], []]);
    const labels = await api<{ from: { commit: string }; changed: unknown[] }>(
      `diff?application=orders&from=${teamCommits[0]}&to=master`,
    );
    assert.equal(labels.from.commit, teamCommits[0]);
    assert.equal(labels.changed.length, 2);
  });

  it("serves an {application} template's application from its own mirror", async () => {
    const env = await api<{ repository: string; items: Property[] }>('environment?application=billing');
    assert.match(env.repository, /^perapp\[.*billing\.git\]$/);
    assert.deepEqual(
      env.items.map((p) => [p.key, p.value]),
      [
        ['db.password', '******'],
        ['rate', 'billing-repo'],
        ['server.note', 'set-by-server'],
      ],
    );
  });

  it('lists each repository in the overview, with its patterns and state', async () => {
    const overview = await api<{
      repositories: Array<{
        name: string;
        uri: string;
        patterns: string[];
        label: string | null;
        commit: { commit: string; message: string } | null;
        state: string;
      }>;
      counts: { applications: number };
    }>('overview');
    assert.deepEqual(
      overview.repositories.map((r) => [r.name.replace(/\[.*\]$/, '[…]'), r.patterns, r.state, r.label]),
      [
        ['default', [], 'UP', 'master'],
        ['team', ['orders*'], 'UP', 'master'],
        ['perapp[…]', ['billing*'], 'UP', 'master'],
      ],
    );
    const [defaultRepository, teamRepository] = overview.repositories;
    assert.equal(defaultRepository?.uri, fallback.url);
    assert.equal(teamRepository?.uri, team.url);
    assert.deepEqual(
      [teamRepository?.commit?.commit, teamRepository?.commit?.message],
      [teamCommits[1], 'orders 20'],
    );
    assert.equal(overview.counts.applications, 2, "the default repository's applications");
  });
});
