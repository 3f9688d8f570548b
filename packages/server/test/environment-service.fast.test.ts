// EnvironmentService on a fake repository (no git): what it builds, caches, shares and refuses.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Environment } from '@confbus/core';
import { BuildGate } from '../src/environment/build-gate.js';
import { ConfigFileParser } from '../src/environment/config-file-parser.js';
import { EnvironmentCaches } from '../src/environment/environment-caches.js';
import { EnvironmentWorkers } from '../src/environment/environment-workers.js';
import {
  EnvironmentService,
  type EnvironmentRequest,
  type EnvironmentServiceOptions,
} from '../src/environment/environment-service.js';
import { FakeConfigRepository } from './repositories/fake-config-repository.js';

const workers = new EnvironmentWorkers();
const parser = new ConfigFileParser({ maxFileBytes: 64 * 1024, maxFileDocuments: 1000, workers });
after(() => workers.close());

function setUp(files: Record<string, string>, overrides: Partial<EnvironmentServiceOptions> = {}) {
  const repository = new FakeConfigRepository(files);
  const service = new EnvironmentService({
    repository,
    displayUri: 'https://git.example/config.git',
    searchPaths: [],
    caches: new EnvironmentCaches({ maxEntries: 100, maxBytes: 16 * 1024 * 1024 }),
    maxEnvironmentBytes: 1024 * 1024,
    parser,
    acceptEmpty: true,
    ...overrides,
  });
  return { repository, service };
}

const request = (name: string, profiles: string, label: string | null = null): EnvironmentRequest => ({
  name,
  applications: name.split(','),
  profilesText: profiles,
  profiles: profiles.split(','),
  label,
});

const sourceNames = (env: Environment) => env.propertySources.map((source) => source.name);

describe('EnvironmentService (on a fake repository)', () => {
  const files = {
    'application.yml': 'shared: all\n',
    'orders.yml': 'db:\n  pool: 5\n',
    'orders-dev.yml': 'db:\n  pool: 1\n',
    'billing.yml': 'other: x\n',
  };

  it('builds the environment from the files for the application and profiles, highest precedence first', async () => {
    const { repository, service } = setUp(files);
    const { resolved, revision } = await service.find(request('orders', 'dev'));
    const env = resolved.environment;
    assert.deepEqual(sourceNames(env), [
      'https://git.example/config.git/orders-dev.yml',
      'https://git.example/config.git/orders.yml',
      'https://git.example/config.git/application.yml',
    ]);
    assert.deepEqual(env.propertySources[0]!.source, new Map([['db.pool', 1]]));
    assert.equal(env.version, revision.commit);
    assert.equal(revision.commit, (await repository.resolveFetched(null)).commit);
    assert.deepEqual([env.name, env.profiles, env.label], ['orders', ['dev'], null]);
  });

  it('answers a repeated request from the cache, and concurrent misses with one build', async () => {
    const { repository, service } = setUp(files);
    await Promise.all([1, 2, 3].map(() => service.find(request('orders', 'dev'))));
    assert.equal(service.builds, 1);
    const reads = repository.calls.readFile;
    await service.find(request('orders', 'dev'));
    assert.equal(service.builds, 1);
    assert.equal(repository.calls.readFile, reads);
    assert.ok(service.cacheHits >= 1);
  });

  it('concurrent first requests for different profiles read and parse a shared file once', async () => {
    const { repository, service } = setUp(files);
    await Promise.all(['dev', 'eu', 'us', 'test'].map((profile) => service.find(request('orders', profile))));
    assert.equal(service.builds, 4);
    const reads = repository.calls.readFile;
    assert.equal(service.parses, reads, 'one parse per file read');
    // orders.yml and application.yml shared by all four, orders-dev.yml for one: each read once.
    assert.equal(reads, 3);
  });

  it('after a push, serves the new commit and parses only the files that changed', async () => {
    const { repository, service } = setUp(files);
    await service.find(request('orders', 'dev'));
    const parses = service.parses;
    const commit = repository.push({ ...files, 'orders-dev.yml': 'db:\n  pool: 2\n' });
    const { resolved } = await service.find(request('orders', 'dev'));
    assert.equal(resolved.environment.version, commit);
    assert.deepEqual(resolved.environment.propertySources[0]!.source, new Map([['db.pool', 2]]));
    assert.equal(service.parses - parses, 1);
  });

  it('passes a stale revision through when upstream cannot be reached', async () => {
    const { repository, service } = setUp(files);
    repository.upstreamDown = true;
    const { revision } = await service.find(request('orders', 'default'));
    assert.equal(revision.stale, true);
  });

  it('refuses an application without configuration unless accept-empty', async () => {
    const strict = setUp({ 'orders.yml': 'a: 1\n' }, { acceptEmpty: false }).service;
    await assert.rejects(strict.find(request('nobody', 'default')), {
      code: 'CONFBUS_APPLICATION_NOT_FOUND',
      message: /no configuration for 'nobody'/,
    });
    const lenient = setUp({ 'orders.yml': 'a: 1\n' }).service;
    assert.deepEqual(
      (await lenient.find(request('nobody', 'default'))).resolved.environment.propertySources,
      [],
    );
  });

  it('refuses an environment whose files add up to more than max-environment-bytes', async () => {
    const { service } = setUp(
      { 'application.yml': `a: ${'x'.repeat(600)}\n`, 'orders.yml': `b: ${'y'.repeat(600)}\n` },
      { maxEnvironmentBytes: 1000 },
    );
    await assert.rejects(service.find(request('orders', 'default')), {
      code: 'CONFBUS_CONFIG_LIMIT',
      message: /max-environment-bytes \(1000\)/,
    });
  });

  it('caches the transformed environment and keeps the stored one beside it', async () => {
    const { service } = setUp(files, {
      transform: async (env) => ({ ...env, state: 'transformed' }),
    });
    const { resolved } = await service.find(request('billing', 'default'));
    assert.equal(resolved.environment.state, 'transformed');
    assert.equal(resolved.stored.state, null);
  });

  it('builds at most max-concurrent-builds environments at once, queues max-queued-builds more, refuses beyond', async () => {
    const { repository, service } = setUp(files, { buildGate: new BuildGate(1, 1) });
    // The first build stops at its file listing until released: the gate's one slot stays taken.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const listFiles = repository.listFiles.bind(repository);
    let listings = 0;
    repository.listFiles = async (commit) => {
      if (listings++ === 0) await held;
      return listFiles(commit);
    };
    const first = service.find(request('orders', 'dev'));
    const sameAsFirst = service.find(request('orders', 'dev')); // shares the first build: no slot of its own
    const queued = service.find(request('billing', 'default'));
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(service.find(request('orders', 'prod')), (error: unknown) => {
      const { code, status } = error as { code?: string; status?: number };
      assert.equal(code, 'CONFBUS_SERVER_BUSY');
      assert.equal(status, 503);
      assert.match(String(error), /confbus\.server\.max-concurrent-builds/);
      return true;
    });
    assert.equal(listings, 1, 'the queued build has not started');
    release();
    const [a, b, c] = await Promise.all([first, sameAsFirst, queued]);
    assert.equal(a.resolved, b.resolved);
    assert.equal(c.resolved.environment.name, 'billing');
    assert.equal(service.builds, 2);
    // Slots free again: the refused environment builds now.
    assert.equal((await service.find(request('orders', 'prod'))).resolved.environment.name, 'orders');
  });
});
