// The composite backend on fakes: Spring's member order, merged sources, version, fail-on-composite-error.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PropertySource } from '@confbus/core';
import pino from 'pino';
import {
  CompositeRepository,
  LOWEST_PRECEDENCE,
  orderMembers,
  type CompositeMember,
} from '../../src/composite/composite-repository.js';
import { DatabaseRepository, type PropertySourceStore } from '../../src/database/database-repository.js';
import { ConfigFileParser } from '../../src/environment/config-file-parser.js';
import { EnvironmentCaches } from '../../src/environment/environment-caches.js';
import { EnvironmentWorkers } from '../../src/environment/environment-workers.js';
import { EnvironmentService, type EnvironmentRequest } from '../../src/environment/environment-service.js';
import { FakeConfigRepository } from '../repositories/fake-config-repository.js';

const workers = new EnvironmentWorkers();
const parser = new ConfigFileParser({ maxFileBytes: 64 * 1024, maxFileDocuments: 1000, workers });
after(() => workers.close());
const logger = pino({ level: 'silent' });
const caches = () => new EnvironmentCaches({ maxEntries: 100, maxBytes: 16 * 1024 * 1024 });

/** A database-like member whose answer the test sets, and can make fail. */
class FakeStore implements PropertySourceStore {
  readonly description = 'fake';
  failing = false;
  constructor(public sources: PropertySource[]) {}
  async read(): Promise<PropertySource[]> {
    if (this.failing) throw new Error('connection refused');
    return this.sources;
  }
  async ping(): Promise<void> {
    if (this.failing) throw new Error('connection refused');
  }
  async close(): Promise<void> {}
}

function member(
  name: string,
  repository: DatabaseRepository | FakeConfigRepository,
  uri = name,
): CompositeMember {
  return {
    name,
    repository,
    environments: new EnvironmentService({
      repository,
      displayUri: uri,
      searchPaths: [],
      caches: caches(),
      maxEnvironmentBytes: 1024 * 1024,
      parser,
      acceptEmpty: true,
    }),
    close: async () => undefined,
  };
}

function storeMember(name: string, store: FakeStore): CompositeMember {
  const repository = new DatabaseRepository({ store, defaultLabel: 'master', refreshRateSeconds: 0, logger });
  return member(name, repository);
}

function composite(members: CompositeMember[], failOnError = true) {
  const repository = new CompositeRepository({ members, failOnError, logger });
  const service = new EnvironmentService({
    repository,
    displayUri: 'composite',
    searchPaths: [],
    caches: caches(),
    maxEnvironmentBytes: 1024 * 1024,
    parser,
    acceptEmpty: true,
  });
  return { repository, service };
}

const request: EnvironmentRequest = {
  name: 'foo',
  applications: ['foo'],
  profilesText: 'dev',
  profiles: ['dev'],
  label: null,
};

describe('composite member order (CompositeUtils)', () => {
  it("by order, stable; JDBC's default before the others' (Spring 5.0.6)", () => {
    const members = [
      { id: 'git', order: LOWEST_PRECEDENCE },
      { id: 'jdbc', order: LOWEST_PRECEDENCE - 10 },
      { id: 'native', order: LOWEST_PRECEDENCE },
      { id: 'redis', order: 1 },
      { id: 'second-git', order: 2 },
    ];
    // orders: redis 1, second-git 2, jdbc MAX-10, then git and native (MAX, in their listed order)
    assert.deepEqual(
      orderMembers(members).map((m) => m.id),
      ['redis', 'second-git', 'jdbc', 'git', 'native'],
    );
  });
});

describe('composite environment', () => {
  it('concatenates the members in order; several members give version null', async () => {
    const git = new FakeConfigRepository({ 'foo.yml': 'a: git\n' });
    const store = new FakeStore([{ name: 'foo-dev', source: new Map(Object.entries({ a: 'db', b: 'db' })) }]);
    const { service } = composite([
      member('git', git, 'https://git.example/c.git'),
      storeMember('jdbc', store),
    ]);
    const { resolved } = await service.find(request);
    const environment = resolved.environment;
    assert.deepEqual(
      environment.propertySources.map((source) => source.name),
      ['https://git.example/c.git/foo.yml', 'foo-dev'],
    );
    assert.equal(environment.version, null);
    assert.equal(environment.label, null);
  });

  it('one member: its version is copied', async () => {
    const git = new FakeConfigRepository({ 'foo.yml': 'a: git\n' });
    const { service } = composite([member('git', git)]);
    const { resolved, revision } = await service.find(request);
    assert.equal(resolved.environment.version, revision.commit);
    assert.match(revision.commit, /^[0-9a-f]{40}$/);
  });

  it('a change in one member is a new combined revision (not served from the cache)', async () => {
    const store = new FakeStore([{ name: 'foo', source: new Map(Object.entries({ a: '1' })) }]);
    const other = new FakeStore([{ name: 'application', source: new Map(Object.entries({ z: 'z' })) }]);
    const { service } = composite([storeMember('one', store), storeMember('two', other)]);
    const first = await service.find(request);
    assert.equal(first.resolved.environment.propertySources[0]?.source.get('a'), '1');
    store.sources = [{ name: 'foo', source: new Map(Object.entries({ a: '2' })) }];
    const second = await service.find(request);
    assert.notEqual(second.revision.commit, first.revision.commit);
    assert.equal(second.resolved.environment.propertySources[0]?.source.get('a'), '2');
  });

  it('fail-on-composite-error=true: a failing member fails the request', async () => {
    const broken = new FakeStore([]);
    broken.failing = true;
    const git = new FakeConfigRepository({ 'foo.yml': 'a: git\n' });
    const { service } = composite([member('git', git), storeMember('jdbc', broken)]);
    await assert.rejects(service.find(request), /connection refused/);
  });

  it('fail-on-composite-error=false: a failing member is skipped, the others serve', async () => {
    const broken = new FakeStore([{ name: 'foo', source: new Map(Object.entries({ a: 'db' })) }]);
    broken.failing = true;
    const git = new FakeConfigRepository({ 'foo.yml': 'a: git\n' });
    const { service, repository } = composite([member('git', git, 'g'), storeMember('jdbc', broken)], false);
    await repository.start();
    const { resolved } = await service.find(request);
    assert.deepEqual(
      resolved.environment.propertySources.map((source) => source.name),
      ['g/foo.yml'],
    );
    const health = repository.memberHealth();
    assert.deepEqual(
      health.map(({ name, health }) => [name, health.available]),
      [
        ['git', true],
        ['jdbc', false],
      ],
    );
    assert.equal(repository.health().available, true);
    broken.failing = false;
    const recovered = await service.find(request);
    assert.deepEqual(
      recovered.resolved.environment.propertySources.map((source) => source.name),
      ['g/foo.yml', 'foo'],
    );
  });
});

describe('composite plain-text locations (SearchPathCompositeEnvironmentRepository.getLocations)', () => {
  const read = async (service: EnvironmentService, path: string) => {
    const found = await service.find(request);
    for (const location of await service.resourceLocations(request, found.revision)) {
      const candidate = location.directory === '' ? path : `${location.directory}/${path}`;
      if (location.present.has(candidate)) return (await location.read(candidate))?.toString('utf8');
    }
    return undefined;
  };

  it("the members' files in order, each at its own commit; database members hold none", async () => {
    const first = new FakeConfigRepository({ 'only-first.txt': 'first\n' });
    const second = new FakeConfigRepository({ 'nginx.conf': 'second\n', 'only-first.txt': 'not read\n' });
    const store = new FakeStore([]);
    const { service } = composite([
      storeMember('jdbc', store),
      member('first', first),
      member('second', second),
    ]);
    assert.equal(await read(service, 'nginx.conf'), 'second\n');
    assert.equal(await read(service, 'only-first.txt'), 'first\n');
    first.push({ 'only-first.txt': 'pushed\n' });
    assert.equal(await read(service, 'only-first.txt'), 'pushed\n');
  });

  it('a failing member: its locations are skipped with fail-on-composite-error=false, else the request fails', async () => {
    const broken = new FakeConfigRepository({ 'a.txt': 'broken\n' });
    const git = new FakeConfigRepository({ 'a.txt': 'git\n' });
    const skipping = composite([member('broken', broken), member('git', git)], false);
    const found = await skipping.service.find(request);
    broken.resolve = () => Promise.reject(new Error('upstream gone'));
    const locations = await skipping.service.resourceLocations(request, found.revision);
    assert.equal(await locations[0]?.read('a.txt').then((bytes) => bytes?.toString('utf8')), 'git\n');
    const failing = composite([member('broken', broken), member('git', git)]);
    await assert.rejects(failing.repository.resourceLocations(request), /upstream gone/);
  });
});
