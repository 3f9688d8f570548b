// Fast tests on fakes: the application catalogue, effective properties and diffs, the fleet table, bus
// destinations of console actions, and the push log.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { AckBusEvent, Environment, PresenceAnnouncement } from '@confbus/core';
import { type ConfigRepository, FileTooLargeError } from '../../src/environment/config-repository.js';
import { ConfigFileParser } from '../../src/environment/config-file-parser.js';
import { EnvironmentCaches } from '../../src/environment/environment-caches.js';
import { EnvironmentWorkers } from '../../src/environment/environment-workers.js';
import { ParsedFiles } from '../../src/environment/parsed-files.js';
import { destinationOf } from '../../src/console/action-routes.js';
import { ApplicationCatalogue } from '../../src/console/application-catalogue.js';
import {
  type ServedEnvironment,
  diffEnvironments,
  effectiveProperties,
  maskedProperties,
} from '../../src/console/effective-environment.js';
import { FleetRegistry } from '../../src/console/fleet-registry.js';
import { PushLog } from '../../src/console/push-log.js';

const COMMIT = 'c'.repeat(40);

function fakeRepository(
  files: Record<string, string>,
): Pick<ConfigRepository, 'resolve' | 'listFiles' | 'readFile'> & { reads: number } {
  const repository = {
    reads: 0,
    resolve: async () => ({ label: 'main', commit: COMMIT, stale: false }),
    listFiles: async () => Object.keys(files),
    readFile: async (_commit: string, path: string, maxBytes = Number.POSITIVE_INFINITY) => {
      const content = files[path];
      if (content === undefined) return undefined;
      // As a Git mirror does: refused by its size, before it is read.
      if (Buffer.byteLength(content) > maxBytes)
        throw new FileTooLargeError(path, Buffer.byteLength(content));
      repository.reads++;
      return Buffer.from(content);
    },
  };
  return repository;
}

const workers = new EnvironmentWorkers();
after(() => workers.close());

/** A catalogue parsing through the repository's parsed files, as the console's does. */
function catalogueOf(
  repository: Pick<ConfigRepository, 'listFiles' | 'readFile' | 'blobIds'>,
  searchPaths: readonly string[] = [],
  maxFileBytes = 1 << 20,
) {
  const parser = new ConfigFileParser({ maxFileBytes, maxFileDocuments: 1000, workers });
  const caches = new EnvironmentCaches({ maxEntries: 100, maxBytes: 16 << 20 });
  const files = new ParsedFiles({ repository, parser, caches });
  return { catalogue: new ApplicationCatalogue(repository, searchPaths, files), files };
}

describe('ApplicationCatalogue', () => {
  it('splits names like the file endpoints and reads profiles that documents activate', async () => {
    const repository = fakeRepository({
      'application.yml': 'a: 1\n',
      'application-cloud.properties': 'a=2\n',
      'orders.yml': 'a: 1\n---\nspring.config.activate.on-profile: eu & !test\nb: 2\n',
      'orders-dev.yml': 'a: 1\n',
      'my-service-prod.yml': 'a: 1\n',
      'legacy.yml': 'spring:\n  profiles: old\n',
      'broken.yml': 'spring.profiles: [unclosed\n',
      'README.md': '# not configuration\n',
      'ignored/deep.yml': 'a: 1\n',
      'teams/payments/application.yml': 'a: 1\n',
      'teams/payments/payments-dev.yml': 'a: 1\n',
      'bad name.yml': 'a: 1\n',
    });
    const catalogue = await catalogueOf(repository, ['teams/{application}']).catalogue.at(COMMIT);
    assert.deepEqual(
      catalogue.applications.map((a) => [a.name, a.profiles, a.files]),
      [
        ['application', ['default', 'cloud'], ['application.yml', 'application-cloud.properties']],
        ['broken', ['default'], ['broken.yml']],
        ['legacy', ['default', 'old'], ['legacy.yml']],
        ['my-service', ['prod'], ['my-service-prod.yml']],
        ['orders', ['default', 'dev', 'eu', 'test'], ['orders.yml', 'orders-dev.yml']],
        [
          'payments',
          ['default', 'dev'],
          ['teams/payments/application.yml', 'teams/payments/payments-dev.yml'],
        ],
      ],
    );
  });

  it('lists an application of thousands of profile files, each read once', async () => {
    // `svc-<n>.yml` with no `svc.yml`: one application `svc` whose profiles are the numbers (the file endpoints
    // split the names the same way).
    const files: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) files[`svc-${String(i).padStart(5, '0')}.yml`] = `n: ${i}\n`;
    const repository = fakeRepository(files);
    const catalogue = await catalogueOf(repository).catalogue.at(COMMIT);
    assert.deepEqual(
      catalogue.applications.map((a) => a.name),
      ['svc'],
    );
    const [svc] = catalogue.applications;
    assert.equal(svc?.profiles.length, 5000);
    assert.deepEqual(svc?.profiles.slice(0, 3), ['00000', '00001', '00002']);
    assert.equal(svc?.files.length, 5000);
    assert.equal(repository.reads, 5000);
  });

  it('builds once per commit', async () => {
    const repository = fakeRepository({ 'a.yml': 'spring.profiles: x\n' });
    const { catalogue } = catalogueOf(repository);
    await Promise.all([catalogue.at(COMMIT), catalogue.at(COMMIT)]);
    await catalogue.at(COMMIT);
    assert.equal(repository.reads, 2, 'once to see that it mentions profiles, once by the parsed files');
  });

  it("parses through the repository's parsed files, refusing a file over max-file-bytes unread", async () => {
    const big = `spring.config.activate.on-profile: huge\n${'k: v\n'.repeat(2000)}`;
    const repository = fakeRepository({ 'big.yml': big, 'small.yml': '---\nspring.profiles: eu\n' });
    const { catalogue, files } = catalogueOf(repository, [], 4096);
    const found = await catalogue.at(COMMIT);
    assert.deepEqual(
      found.applications.map((a) => [a.name, a.profiles]),
      [
        ['big', ['default']],
        ['small', ['default', 'eu']],
      ],
    );
    assert.equal(files.parses, 1, 'small.yml only, by the parsed files (whose cache the environments share)');
    assert.equal(repository.reads, 2, 'small.yml twice; big.yml never');
  });
});

const env = (sources: Array<[string, Record<string, string | number | boolean>]>): Environment => ({
  name: 'app',
  profiles: ['dev'],
  label: null,
  version: null,
  state: null,
  propertySources: sources.map(([name, source]) => ({ name, source: new Map(Object.entries(source)) })),
});

/** Served as stored: no server-side transform. */
const asStored = (environment: Environment): ServedEnvironment => ({ environment, stored: environment });

describe('effective properties and diffs', () => {
  it('attributes each effective value to its file and document, with what it overrides, masked', () => {
    const properties = effectiveProperties(
      asStored(
        env([
          ['file:///repo/app-dev.yml', { port: 2, 'api.token': 'new-token' }],
          ['file:///repo/app.yml (document #1)', { port: 1, 'list[0]': 'a' }],
          [
            'file:///repo/app.yml (document #0)',
            { port: 0, 'api.token': 'old-token', 'list[0]': 'x', 'list[1]': 'y' },
          ],
        ]),
      ),
      'file:///repo/',
    );
    assert.deepEqual(properties, [
      {
        key: 'api.token',
        value: '******',
        origin: { file: 'app-dev.yml' },
        overridden: [{ value: '******', origin: { file: 'app.yml', document: 0 } }],
      },
      {
        key: 'list[0]',
        value: 'a',
        origin: { file: 'app.yml', document: 1 },
        overridden: [{ value: 'x', origin: { file: 'app.yml', document: 0 } }],
      },
      {
        key: 'port',
        value: 2,
        origin: { file: 'app-dev.yml' },
        overridden: [
          { value: 1, origin: { file: 'app.yml', document: 1 } },
          { value: 0, origin: { file: 'app.yml', document: 0 } },
        ],
      },
    ]);
  });

  it('diffs effective keys and masks secrets on both sides', () => {
    const before = env([['a', { same: 1, gone: 'x', 'db.password': 'old', changed: 'a' }]]);
    const after = env([['a', { same: 1, added: true, 'db.password': 'new', changed: 'b' }]]);
    assert.deepEqual(diffEnvironments(asStored(before), asStored(after)), {
      added: [{ key: 'added', value: true }],
      removed: [{ key: 'gone', value: 'x' }],
      changed: [
        { key: 'changed', from: 'a', to: 'b' },
        { key: 'db.password', from: '******', to: '******' },
      ],
    });
    assert.deepEqual(diffEnvironments(undefined, asStored(before)).added.length, 4);
  });

  it('masks every value of a key that was {cipher} text in the repository, as served after decryption', () => {
    const stored = env([
      ['app-dev.yml', { greeting: '{cipher}abc', plain: 'p' }],
      ['app.yml', { greeting: 'hello', other: '{cipher}def' }],
    ]);
    const decrypted = env([
      ['overrides', { forced: 'by-server' }],
      ['app-dev.yml', { greeting: 'decrypted-1', plain: 'p' }],
      ['app.yml', { greeting: 'hello', other: 'decrypted-2' }],
    ]);
    const served = { environment: decrypted, stored };
    assert.deepEqual(
      effectiveProperties(served, '').map((p) => [
        p.key,
        p.value,
        p.origin.file,
        p.overridden.map((o) => o.value),
      ]),
      [
        ['forced', 'by-server', 'overrides', []],
        ['greeting', '******', 'app-dev.yml', ['******']],
        ['other', '******', 'app.yml', []],
        ['plain', 'p', 'app-dev.yml', []],
      ],
    );
    assert.deepEqual(Object.fromEntries(maskedProperties(served)), {
      forced: 'by-server',
      greeting: '******',
      plain: 'p',
      other: '******',
    });
    const later = env([['app-dev.yml', { greeting: 'decrypted-3', plain: 'q' }]]);
    assert.deepEqual(
      diffEnvironments(served, {
        environment: later,
        stored: env([['app-dev.yml', { greeting: '{cipher}xyz', plain: 'q' }]]),
      }),
      {
        added: [],
        removed: [
          { key: 'forced', value: 'by-server' },
          { key: 'other', value: '******' },
        ],
        changed: [
          { key: 'greeting', from: '******', to: '******' },
          { key: 'plain', from: 'p', to: 'q' },
        ],
      },
    );
  });
});

describe('FleetRegistry', () => {
  const announcement = (
    service: string,
    extra: Partial<PresenceAnnouncement> = {},
  ): PresenceAnnouncement => ({
    service,
    timestamp: 1,
    application: 'sample',
    profiles: ['dev'],
    label: null,
    configVersion: 'a'.repeat(40),
    startedAt: 0,
    leaving: false,
    ...extra,
  });
  const ack = (origin: string, configVersion?: string): AckBusEvent => ({
    type: 'AckRemoteApplicationEvent',
    timestamp: 1,
    originService: origin,
    destinationService: '**',
    id: 'x',
    ackId: 'y',
    ackDestinationService: '**',
    event: 'org.springframework.cloud.bus.event.UnknownRemoteApplicationEvent',
    ...(configVersion ? { configVersion } : {}),
  });

  it('knows confbus nodes by announcement, Spring nodes by ack, and forgets the silent and the leaving', () => {
    const fleet = new FleetRegistry({ maxInstances: 10, expireAfterMs: 1000 });
    fleet.announced(announcement('sample:dev:1:a'), 0);
    fleet.acked(ack('billing:8080:b'), 100);
    fleet.acked(ack('sample:dev:1:a', 'b'.repeat(40)), 200);
    assert.deepEqual(
      fleet.list(300).map((i) => [i.id, i.kind, i.application, i.configVersion?.[0] ?? null]),
      [
        ['billing:8080:b', 'spring', 'billing', null],
        ['sample:dev:1:a', 'confbus', 'sample', 'b'],
      ],
    );
    assert.deepEqual(
      fleet.list(1150).map((i) => i.id),
      ['sample:dev:1:a'],
      'billing silent for over 1 s',
    );
    fleet.announced(announcement('sample:dev:1:a', { leaving: true }), 1200);
    assert.deepEqual(fleet.list(1200), []);
  });

  it('holds at most maxInstances, dropping the longest silent', () => {
    const fleet = new FleetRegistry({ maxInstances: 2, expireAfterMs: 10_000 });
    fleet.acked(ack('a:1:x'), 0);
    fleet.acked(ack('b:1:x'), 1);
    fleet.acked(ack('a:1:x'), 2);
    fleet.acked(ack('c:1:x'), 3);
    assert.deepEqual(
      fleet.list(4).map((i) => i.id),
      ['a:1:x', 'c:1:x'],
    );
  });
});

describe('console actions', () => {
  it('turns a target into a bus destination, refusing wildcards and bad names', () => {
    assert.equal(destinationOf({ target: 'all' }), '**');
    assert.equal(destinationOf({ target: 'application', application: 'sample' }), 'sample:**');
    assert.equal(
      destinationOf({ target: 'profile', application: 'sample', profile: 'dev' }),
      'sample:dev:**',
    );
    assert.equal(
      destinationOf({ target: 'instance', instance: 'sample:dev,eu:8080:3f2a' }),
      'sample:dev,eu:8080:3f2a',
    );
    for (const body of [
      null,
      [],
      { target: 'everything' },
      { target: 'application' },
      { target: 'application', application: 'a,b' },
      { target: 'application', application: '*' },
      { target: 'profile', application: 'sample', profile: '../x' },
      { target: 'instance', instance: 'sample:**' },
      { target: 'instance', instance: 'no-colon' },
    ])
      assert.throws(() => destinationOf(body), { code: 'CONFBUS_CONSOLE_BAD_REQUEST' }, JSON.stringify(body));
  });

  it('remembers which commit each push replaced', () => {
    const pushes = new PushLog();
    assert.equal(pushes.observe('a'), undefined, 'the first commit seen is no push');
    assert.equal(pushes.observe('a'), undefined);
    assert.deepEqual(pushes.observe('b', new Date(0)), {
      commit: 'b',
      previous: 'a',
      at: '1970-01-01T00:00:00.000Z',
    });
    pushes.observe('c');
    assert.equal(pushes.previousOf('b'), 'a');
    assert.equal(pushes.previousOf('c'), 'b');
    assert.equal(pushes.previousOf('a'), undefined);
    assert.deepEqual(
      pushes.latest(1).map((p) => p.commit),
      ['c'],
    );
  });
});
