// confbus.server.cache.max-bytes bounds what the server keeps, for real (issue #15): the repeat-request fast path
// remembers requests, not environments; renderings expanded by placeholders are weighed; multi-label environments
// and every repository share one budget.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { heapAfterGc } from '@confbus/testkit/fuzz';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type Environment, silentLogger } from '@confbus/core';
import { EnvironmentCaches } from '../src/environment/environment-caches.js';
import type { EnvironmentFinder } from '../src/environment/environment-finder.js';
import type { EnvironmentRequest } from '../src/environment/environment-service.js';
import { MultiLabelFinder } from '../src/environment/multi-label-finder.js';
import { ResolvedEnvironment } from '../src/environment/resolved-environment.js';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

const MAX_BYTES = 256 * 1024;
const APPS = 40;

/** About 3 KB of YAML: 100 keys, estimated at some 30 KB once parsed and serialised. */
const appFile = (app: string): string =>
  Array.from({ length: 100 }, (_, i) => `${app}.key${i}: value-${i}-of-${app}`).join('\n') + '\n';

/** A few hundred bytes whose `.yml` rendering, placeholders resolved, is over 512 KB. */
const placeholderFile = (): string => {
  const lines = ['p0: "xxxxxxxx"'];
  for (let i = 1; i <= 15; i++) lines.push(`p${i}: "\${p${i - 1}}\${p${i - 1}}"`);
  return `${lines.join('\n')}\n`;
};

const request = (name: string, label: string | null = null): EnvironmentRequest => ({
  name,
  applications: [name],
  profilesText: 'default',
  profiles: ['default'],
  label,
});

const environment = (name: string, value: string): Environment => ({
  name,
  profiles: ['default'],
  label: null,
  version: null,
  state: null,
  propertySources: [{ name: `file:///${name}.yml`, source: new Map([['value', value]]) }],
});

describe('cache byte bound', () => {
  let remote: GitRemote;
  let other: GitRemote;
  let server: TestServer;

  before(async () => {
    [remote, other] = await Promise.all([createGitRemote('main'), createGitRemote('other')]);
    const files: Record<string, string> = { 'expanding.yml': placeholderFile() };
    for (let i = 0; i < APPS; i++) files[`app${i}.yml`] = appFile(`app${i}`);
    await remote.commit(files);
    await remote.commit({ 'app0.yml': 'on: feature\n' }, { branch: 'feature' });
    const otherFiles: Record<string, string> = {};
    for (let i = 0; i < APPS; i++) otherFiles[`team${i}.yml`] = appFile(`team${i}`);
    await other.commit(otherFiles);
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.repos.team.uri': other.url,
      'spring.cloud.config.server.git.repos.team.pattern': 'team*',
      'spring.cloud.config.server.git.refresh-rate': '-1',
      'confbus.server.cache.max-bytes': String(MAX_BYTES),
    });
  });

  after(async () => {
    await server?.stop();
    await Promise.all([remote?.remove(), other?.remove()]);
  });

  it('keeps no evicted environment alive through the fast path, which remembers every URL it answered', async () => {
    const environments = server.server.environments!;
    const answered: Array<WeakRef<ResolvedEnvironment>> = [];
    for (let i = 0; i < APPS; i++) {
      assert.equal((await server.get(`/app${i}/default`)).status, 200);
      assert.equal((await server.get(`/app${i}/default`)).status, 200); // the fast path answers the repeat
      // The environment just answered is the cache's most recent entry: find() hands out that same object.
      answered.push(new WeakRef((await environments.find(request(`app${i}`))).resolved));
    }
    assert.ok(server.server.fastPath!.served >= APPS, 'the repeats took the fast path');
    await nextTurn(); // WeakRefs are released at the end of the job that read them
    heapAfterGc();
    const alive = answered.map((ref) => ref.deref()).filter((each) => each !== undefined);
    const aliveBytes = alive.reduce((sum, each) => sum + each.estimatedBytes, 0);
    assert.ok(
      alive.length < APPS / 2,
      `${alive.length} of ${APPS} environments still in memory (${aliveBytes} estimated bytes, budget ${MAX_BYTES})`,
    );
    assert.ok(aliveBytes <= MAX_BYTES, `${aliveBytes} estimated bytes alive, budget ${MAX_BYTES}`);
  });

  it('weighs a rendering expanded by placeholders: one over the budget is not kept', async () => {
    const environments = server.server.environments!;
    assert.equal((await server.get('/expanding/default')).status, 200); // built and cached: a few KB
    const builds = environments.builds;
    const rendering = await server.get('/expanding-default.yml');
    assert.equal(rendering.status, 200);
    assert.ok(rendering.body.length > 2 * MAX_BYTES, `a ${rendering.body.length}-character rendering`);
    assert.equal(environments.builds, builds, 'the rendering came from the cached environment');
    assert.ok(server.server.caches.environments.weightKept <= MAX_BYTES);
    // Weighed again with its rendering, the environment outgrew the whole budget and was let go.
    assert.equal((await server.get('/expanding/default')).status, 200);
    assert.equal(environments.builds, builds + 1, 'built again: the heavy entry was not kept');
  });

  it('holds the environments of every repository within one budget', async (t) => {
    const { repositories } = server.server;
    const answered: Array<WeakRef<ResolvedEnvironment>> = [];
    for (let i = 0; i < APPS; i++) {
      for (const name of [`app${i}`, `team${i}`]) {
        assert.equal((await server.get(`/${name}/default`)).status, 200);
        answered.push(new WeakRef((await repositories.find(request(name))).resolved));
      }
    }
    await nextTurn();
    heapAfterGc();
    const alive = answered.map((ref) => ref.deref()).filter((each) => each !== undefined);
    const aliveBytes = alive.reduce((sum, each) => sum + each.estimatedBytes, 0);
    assert.ok(aliveBytes <= MAX_BYTES, `${alive.length} environments, ${aliveBytes} estimated bytes alive`);
    assert.ok(server.server.caches.environments.weightKept <= MAX_BYTES);
    t.diagnostic(`${alive.length} of ${answered.length} environments alive, ${aliveBytes} estimated bytes`);
  });

  it('weighs multi-label environments in the same cache', async () => {
    const caches = new EnvironmentCaches({ maxEntries: 1000, maxBytes: MAX_BYTES });
    const perLabel = new ResolvedEnvironment(environment('app', 'x'), { objectBytes: 60 * 1024 });
    const inner: EnvironmentFinder = {
      find: (found) =>
        Promise.resolve({
          resolved: perLabel,
          revision: { label: found.label ?? '', commit: (found.label ?? '').padEnd(40, '0'), stale: false },
        }),
    };
    const finder = new MultiLabelFinder(inner, {
      splitLabels: true,
      continueOnFailure: false,
      caches,
      logger: silentLogger,
    });
    const combined: Array<WeakRef<ResolvedEnvironment>> = [];
    for (let i = 0; i < 20; i++) {
      const { resolved } = await finder.find(request('app', `a${i},b${i}`));
      assert.ok((await resolved.body(undefined)).length > 0);
      combined.push(new WeakRef(resolved));
      assert.ok(caches.environments.weightKept <= MAX_BYTES);
    }
    await nextTurn();
    heapAfterGc();
    const alive = combined.filter((ref) => ref.deref() !== undefined).length;
    // Each combines two labels' 60 KB: at most two fit in 256 KB.
    assert.ok(alive <= 2, `${alive} of 20 combined environments still in memory`);
  });
});
